// POST /api/admin/session `{ email, password }` → 200 `{ ok: true, user: { name } }` and a new
// `session` cookie: the back office's login (back office §2); `{ secondFactor: true }` and the
// challenge cookie instead for an administrator with a second factor (docs/decisions/037). A
// customer account gets the same 401 `invalid_credentials` as a wrong password; throttling as for
// every login. Open without a session (api/accounts/guards.ts).
import { login } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { adminLoginSchema } from '../../../schemas/accounts.ts';
import { setSessionCookie } from '../auth/_shared.ts';
import { setChallengeCookie } from '../auth/_challenge.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: adminLoginSchema,
  handler: async (input, { cookies, locals }) => {
    const result = await login({ db: await getDb() }, input, {
      ip: locals.client.address,
      replaceSessionId: locals.session?.id,
      requireRole: 'admin',
    });
    // An account with a second factor: no session until POST /api/auth/second-factor.
    if (result.secondFactor) {
      setChallengeCookie(cookies, locals.secureCookies, result.secondFactor);
      return { secondFactor: true };
    }
    setSessionCookie(cookies, locals.secureCookies, result.token, result.session);
    return { ok: true, user: { name: result.user.name } };
  },
});
