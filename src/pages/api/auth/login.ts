// POST /api/auth/login `{ email, password }` → 200 `{ ok: true, user: { name, email } }` and a new
// `session` cookie, or `{ secondFactor: true }` and the challenge cookie for an account with a
// second factor (then POST /api/auth/second-factor, docs/decisions/037); 401
// `invalid_credentials` for an unknown address and a wrong password alike;
// and for a customer whose address is not verified yet (docs/decisions/038);
// 429 `rate_limited` + Retry-After while the account or the address is throttled.
import { login } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { loginSchema } from '../../../schemas/accounts.ts';
import { setSessionCookie } from './_shared.ts';
import { setChallengeCookie } from './_challenge.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: loginSchema,
  handler: async (input, { cookies, locals }) => {
    const result = await login({ db: await getDb() }, input, {
      ip: locals.client.address,
      replaceSessionId: locals.session?.id,
    });
    // An account with a second factor: no session until POST /api/auth/second-factor.
    if (result.secondFactor) {
      setChallengeCookie(cookies, locals.secureCookies, result.secondFactor);
      return { secondFactor: true };
    }
    setSessionCookie(cookies, locals.secureCookies, result.token, result.session);
    return { ok: true, user: { name: result.user.name, email: result.user.email } };
  },
});
