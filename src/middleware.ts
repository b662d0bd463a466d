// Runs before every on-demand page and endpoint (prerendered pages skip it):
// 1. unsafe requests must come from our own origin — JSON included, which Astro's checkOrigin
//    lets through (STACK-NOTES) — except Stripe's webhook, which proves itself by signature;
// 2. the `session` cookie is validated into `Astro.locals.user` / `Astro.locals.session`
//    (extended in its second half, cleared when no longer valid);
// 3. /api/admin/** is refused to anyone but an administrator (403), so no admin endpoint can
//    forget it; accepting an invitation is the one exception (api/accounts/guards.ts).
// Typed without `astro:middleware` so tests can call `onRequest` directly.
import type { APIContext, MiddlewareHandler } from 'astro';
import { adminPageAccess, isGuardedAdminPath } from '#api/accounts/guards.ts';
import {
  SESSION_COOKIE,
  sessionCookieOptions,
  validateSessionToken,
  type SessionValidation,
} from '#api/accounts/sessions.ts';
import { getDb } from '#api/db/context.ts';
import { AppError, checkSameOrigin, errorResponse } from '#api/http/errors.ts';
import { t } from './i18n/index.ts';

/** Called by Stripe (or the emulator), never by a browser: authenticated by its signature. */
const ORIGIN_CHECK_EXEMPT = new Set(['/api/stripe/webhook']);

export const onRequest: MiddlewareHandler = async (context, next) => {
  context.locals.user = null;
  context.locals.session = null;
  if (context.isPrerendered) return next();
  const token = context.cookies.get(SESSION_COOKIE)?.value;
  let validation: SessionValidation | null = null;
  try {
    if (!ORIGIN_CHECK_EXEMPT.has(context.url.pathname))
      checkSameOrigin(context.request, import.meta.env.SITE);
    if (token) validation = await validateSessionToken(await getDb(), token);
    if (validation) {
      context.locals.user = validation.user;
      context.locals.session = validation.session;
    }
    if (isGuardedAdminPath(context.url.pathname) && validation?.user.role !== 'admin')
      throw new AppError('forbidden');
  } catch (error) {
    return errorResponse(error);
  }
  const page = adminPageGuard(context.url, validation?.user.role ?? null);
  if (page) return page;
  const response = await next();
  if (token) updateCookie(context, response, token, validation);
  return response;
};

/**
 * The back office's pages (issue 11): `/admin` opens the dashboard; anonymous visitors go to the
 * login page, which brings them back afterwards; a customer gets a 403 page. The login and
 * invitation pages are open.
 */
function adminPageGuard(url: URL, role: string | null): Response | null {
  const access = adminPageAccess(url.pathname, role);
  if (access === 'open') return null;
  if (access === 'index') return redirect('/admin/dashboard');
  if (access === 'login')
    return redirect(`/admin/login?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  return new Response(FORBIDDEN_PAGE, {
    status: 403,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

const redirect = (location: string) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

const FORBIDDEN_PAGE = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${t('fr', 'admin.forbidden.title')}</title><style>body{font-family:system-ui,sans-serif;background:#faf8f4;color:#1c1b19;max-width:36rem;margin:4rem auto;padding:0 1.5rem;line-height:1.5}a{color:inherit}</style></head><body><h1>${t('fr', 'admin.forbidden.title')}</h1><p>${t('fr', 'admin.forbidden.text')}</p><p><a href="/">${t('fr', 'admin.login.backToSite')}</a> · <a href="/admin/login">${t('fr', 'admin.forbidden.login')}</a></p></body></html>`;

/**
 * After the page or endpoint ran (Astro sends cookies set until the middleware returns): renews
 * an extended session's cookie, clears one that is no longer valid — unless the endpoint changed
 * the cookie itself (login, logout), or the answer is publicly cacheable (a shared cache must
 * never store a Set-Cookie with a session in it).
 */
function updateCookie(
  context: APIContext,
  response: Response,
  token: string,
  validation: SessionValidation | null,
): void {
  if (context.cookies.get(SESSION_COOKIE)?.value !== token) return;
  if (/\bpublic\b/i.test(response.headers.get('cache-control') ?? '')) return;
  if (!validation) context.cookies.delete(SESSION_COOKIE, { path: '/' });
  else if (validation.refreshed)
    context.cookies.set(
      SESSION_COOKIE,
      token,
      sessionCookieOptions(context.url, validation.session.expiresAt),
    );
}
