// POST /api/auth/logout → 200 `{ ok: true }`: the current session is deleted and its cookie
// cleared (also when there was none). The cart cookie is left alone.
import type { APIRoute } from 'astro';
import { logout } from '../../../../api/accounts/index.ts';
import { getDb } from '../../../../api/db/context.ts';
import { checkSameOrigin, errorResponse } from '../../../../api/http/errors.ts';
import { clearSessionCookie, NO_STORE } from './_shared.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, url, cookies, locals }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    await logout(await getDb(), locals.session?.id);
    clearSessionCookie(cookies, url);
    return Response.json({ ok: true }, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
};
