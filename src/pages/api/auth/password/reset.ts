// POST /api/auth/password/reset `{ token, password, confirmPassword }` → 200 `{ ok: true }`: the
// new password is set and every session of the account ended (this browser's cookie too); 400
// `invalid_token` for an unknown, used or expired link; 400 `invalid_input` with field keys.
import { resetPassword } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { resetPasswordSchema } from '../../../../schemas/accounts.ts';
import { clearSessionCookie, tokenInvalid } from '../_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: resetPasswordSchema,
  invalid: tokenInvalid,
  handler: async (input, { cookies, locals }) => {
    await resetPassword({ db: await getDb() }, input);
    clearSessionCookie(cookies, locals.secureCookies);
    return { ok: true };
  },
});
