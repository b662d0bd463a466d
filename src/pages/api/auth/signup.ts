// POST /api/auth/signup `{ email, password, confirmPassword, fullName, locale }` → 201 `{ ok: true }`
// whether the address was free or already has an account (api/accounts `signup`: same work, one
// mail either way, no session). The signup cookie marks this browser, the one the verification
// link will sign in (docs/decisions/038). 400 `invalid_input` with field keys, 429 `rate_limited`.
import { signup } from '#api/accounts/index.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { signupSchema } from '../../../schemas/accounts.ts';
import { accountDeps, setSignupCookie } from './_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: signupSchema,
  status: 201,
  handler: async (input, { url, cookies, locals }) => {
    const { browserMark } = await signup(await accountDeps(url), input, {
      ip: locals.client.address,
    });
    setSignupCookie(cookies, locals.secureCookies, browserMark);
    return { ok: true };
  },
});
