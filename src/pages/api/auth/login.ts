// POST /api/auth/login `{ email, password }` → 200 `{ ok: true, user: { name, email } }` and a new
// `session` cookie; 401 `invalid_credentials` for an unknown address and a wrong password alike;
// 429 `rate_limited` + Retry-After while the account or the address is throttled.
import { login } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { loginSchema } from '../../../schemas/accounts.ts';
import { setSessionCookie } from './_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: loginSchema,
  handler: async (input, { cookies, locals }) => {
    const result = await login({ db: await getDb() }, input, {
      ip: locals.client.address,
      replaceSessionId: locals.session?.id,
    });
    setSessionCookie(cookies, locals.secureCookies, result.token, result.session);
    return { ok: true, user: { name: result.user.name, email: result.user.email } };
  },
});
