// POST /api/auth/password/reset `{ token, password, confirmPassword }` → 200 `{ ok: true }`: the
// new password is set and every session of the account ended (this browser's cookie too); 400
// `invalid_token` for an unknown, used or expired link; 400 `invalid_input` with field keys.
import type { APIRoute } from 'astro';
import { resetPassword } from '../../../../../api/accounts/index.ts';
import { resetPasswordSchema } from '../../../../../api/accounts/validation.ts';
import { getDb } from '../../../../../api/db/context.ts';
import { checkSameOrigin, errorResponse, readJson } from '../../../../../api/http/errors.ts';
import { clearSessionCookie, NO_STORE, parse } from '../_shared.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, url, cookies }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const input = parse(resetPasswordSchema, await readJson(request));
    await resetPassword({ db: await getDb() }, input);
    clearSessionCookie(cookies, url);
    return Response.json({ ok: true }, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
};
