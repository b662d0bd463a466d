// POST /api/account/password `{ currentPassword, password, confirmPassword }` → 200 `{ ok: true }`
// with a new `session` cookie: every session of the account ends (other devices are signed out)
// and this browser gets a fresh one. 401 `unauthorized`, 401 `invalid_credentials` for a wrong
// current password (throttled like a login: 429 `rate_limited`), 400 `invalid_input`.
import { changePassword, requireUser } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { changePasswordSchema } from '../../../schemas/accounts.ts';
import { setSessionCookie } from '../auth/_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: changePasswordSchema,
  handler: async (input, { cookies, locals }) => {
    const user = requireUser(locals);
    const { token, session } = await changePassword({ db: await getDb() }, user.id, input, {
      ip: locals.client.address,
    });
    setSessionCookie(cookies, locals.secureCookies, token, session);
    return { ok: true };
  },
});
