// Runs before every on-demand page and endpoint (prerendered pages skip it):
// 1. unsafe requests must come from our own origin — JSON included, which Astro's checkOrigin
//    lets through (STACK-NOTES) — except Stripe's webhook, which proves itself by signature;
// 2. the session cookie (`__Host-session` over HTTPS, `session` on plain http; decision 038) is
//    validated into `Astro.locals.user` / `Astro.locals.session` (extended in its second half,
//    cleared when no longer valid);
// 3. /api/admin/** is refused to anyone but an administrator (403), so no admin endpoint can
//    forget it; accepting an invitation is the one exception (api/accounts/guards.ts).
// Typed without `astro:middleware` so tests can call `onRequest` directly.
import type { APIContext, MiddlewareHandler } from 'astro';
import { adminPageAccess, isGuardedAdminPath } from '#api/accounts/guards.ts';
import {
  sessionCookieName,
  sessionCookieOptions,
  validateSessionToken,
  type SessionValidation,
} from '#api/accounts/sessions.ts';
import { preparePublish } from '#api/build/publish.ts';
import { loadConfig } from '#api/config.ts';
import { getDb } from '#api/db/context.ts';
import { secureCookies, type Client } from '#api/http/client.ts';
import { AppError, checkSameOrigin, errorResponse } from '#api/http/errors.ts';
import { handWrittenPagePolicy, withFraming } from '#api/http/headers.ts';
import { KNOWN_METHODS } from '#api/http/request-limits.ts';
import { t } from './i18n/index.ts';

/** Called by Stripe (or the emulator), never by a browser: authenticated by its signature. */
const ORIGIN_CHECK_EXEMPT = new Set(['/api/stripe/webhook']);

/**
 * The public site: PUBLIC_SITE_URL as the build saw it (a build is made for one site URL), or the
 * configuration's when run outside a build (tests).
 */
let site: string | undefined;
const siteUrl = () => (site ??= import.meta.env.SITE || loadConfig().siteUrl);

export const onRequest: MiddlewareHandler = async (context, next) => {
  context.locals.user = null;
  context.locals.session = null;
  if (context.isPrerendered) return next();
  // The client as the HTTP layer resolved it (TRUST_PROXY, api/http/client.ts); without that
  // layer (astro dev, tests), the socket's peer.
  const client = (context.locals as { client?: Client }).client ?? {
    address: context.clientAddress,
    protocol: context.url.protocol === 'https:' ? 'https' : 'http',
  };
  context.locals.client = client;
  context.locals.secureCookies = secureCookies(siteUrl(), client);
  // Only the name this transport allows: a bare `session` planted on an HTTPS site is ignored.
  const token = context.cookies.get(sessionCookieName(context.locals.secureCookies))?.value;
  let validation: SessionValidation | null = null;
  try {
    const refused = await methodNotAllowed(context);
    if (refused) return refused;
    if (!ORIGIN_CHECK_EXEMPT.has(context.url.pathname)) checkSameOrigin(context.request, siteUrl());
    if (token) validation = await validateSessionToken(await getDb(), token);
    if (validation) {
      context.locals.user = validation.user;
      context.locals.session = validation.session;
    }
    if (isGuardedAdminPath(context.url.pathname) && validation?.user.role !== 'admin')
      throw new AppError('forbidden');
    // The owner at work: the next publish's build is made ready (api/build/standby.ts).
    if (validation?.user.role === 'admin') preparePublish();
  } catch (error) {
    return errorResponse(error);
  }
  const page = adminPageGuard(context.url, validation?.user.role ?? null);
  if (page) return page;
  const response = await next();
  if (token) updateCookie(context, response, token, validation);
  // An on-demand page's Content Security Policy is a header: it can refuse framing (issue 14).
  const policy = response.headers.get('content-security-policy');
  if (policy) response.headers.set('content-security-policy', withFraming(policy));
  // Astro sends a page's headers after the page's own frontmatter, before its layout's: the back
  // office's screens (src/layouts/AdminLayout.astro) are kept out of every cache here.
  if (
    policy &&
    /^\/admin(\/|$)/.test(context.url.pathname) &&
    !response.headers.has('cache-control')
  )
    response.headers.set('Cache-Control', 'private, no-store');
  return response;
};

// Endpoint modules by route pattern, to tell which methods each answers: Astro answers a method
// an endpoint does not export with an empty 404; it gets 405 and `Allow` here.
const ENDPOINTS = new Map(
  Object.entries(import.meta.glob<Record<string, unknown>>('./pages/**/*.ts'))
    .filter(([file]) => !/\/_|\.test\.ts$/.test(file))
    .map(([file, load]) => [
      file.slice('./pages'.length, -'.ts'.length).replace(/\/index$/, '') || '/',
      load,
    ]),
);

async function methodNotAllowed(context: APIContext): Promise<Response | null> {
  const load = ENDPOINTS.get(context.routePattern);
  if (!load) return null;
  const handlers = await load();
  const answers = (m: string) => m in handlers || (m === 'HEAD' && 'GET' in handlers);
  if (answers(context.request.method) || 'ALL' in handlers) return null;
  const allowed = [...KNOWN_METHODS].filter(answers);
  const response = errorResponse(new AppError('method_not_allowed'));
  response.headers.set('Allow', allowed.join(', '));
  return response;
}

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
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': FORBIDDEN_POLICY,
    },
  });
}

const redirect = (location: string) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

// Written by hand, outside Astro: its policy allows its one inline style by hash (issue 14).
const FORBIDDEN_STYLE =
  'body{font-family:system-ui,sans-serif;background:#faf8f4;color:#1c1b19;max-width:36rem;margin:4rem auto;padding:0 1.5rem;line-height:1.5}a{color:inherit}';
const FORBIDDEN_POLICY = handWrittenPagePolicy({ styles: [FORBIDDEN_STYLE] });
const FORBIDDEN_PAGE = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${t('fr', 'admin.forbidden.title')}</title><style>${FORBIDDEN_STYLE}</style></head><body><h1>${t('fr', 'admin.forbidden.title')}</h1><p>${t('fr', 'admin.forbidden.text')}</p><p><a href="/">${t('fr', 'admin.login.backToSite')}</a> · <a href="/admin/login">${t('fr', 'admin.forbidden.login')}</a></p></body></html>`;

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
  const name = sessionCookieName(context.locals.secureCookies);
  if (context.cookies.get(name)?.value !== token) return;
  if (/\bpublic\b/i.test(response.headers.get('cache-control') ?? '')) return;
  if (!validation)
    context.cookies.delete(name, { path: '/', secure: context.locals.secureCookies });
  else if (validation.refreshed)
    context.cookies.set(
      name,
      token,
      sessionCookieOptions(context.locals.secureCookies, validation.session.expiresAt),
    );
}
