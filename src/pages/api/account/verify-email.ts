// POST /api/account/verify-email `{ locale }` → 200 `{ ok: true }`: mails the signed-in user a new
// verification link (nothing when the address is already verified). 401 `unauthorized`,
// 429 `rate_limited`.
import type { APIRoute } from 'astro';
import { resendVerification, requireUser } from '../../../../api/accounts/index.ts';
import { checkSameOrigin, errorResponse, readJson } from '../../../../api/http/errors.ts';
import { accountDeps, NO_STORE } from '../auth/_shared.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, url, locals, clientAddress }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const user = requireUser(locals);
    const body = (await readJson(request).catch(() => null)) as { locale?: unknown } | null;
    const locale = body?.locale === 'en' ? 'en' : 'fr';
    await resendVerification(await accountDeps(url), user.id, locale, { ip: clientAddress });
    return Response.json({ ok: true }, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
};
