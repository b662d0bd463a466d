// POST /api/auth/second-factor `{ code }` → 200 `{ ok: true, user: { name, email } }` and a new
// session cookie: the second step of a sign-in for an account with a second factor (the login
// answered `{ secondFactor: true }` and set the challenge cookie). The code is the authenticator
// app's (a step used once) or a recovery code (single-use, audited, mailed). 401
// `invalid_second_factor` for a wrong or used code; 400 `invalid_token` when the challenge is
// missing, expired (5 min), used or has had its five codes: sign in again. Throttled as a login.
import { completeSecondFactor } from '#api/accounts/second-factor.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import { secondFactorCodeSchema } from '../../../schemas/second-factor.ts';
import { accountDeps, setSessionCookie } from './_shared.ts';
import { clearChallengeCookie, readChallengeCookie } from './_challenge.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: secondFactorCodeSchema,
  handler: async (input, { cookies, locals, url }) => {
    const secure = locals.secureCookies;
    try {
      const result = await completeSecondFactor(
        await accountDeps(url),
        readChallengeCookie(cookies, secure),
        input.code,
        { ip: locals.client.address, replaceSessionId: locals.session?.id },
      );
      clearChallengeCookie(cookies, secure);
      setSessionCookie(cookies, secure, result.token, result.session);
      return { ok: true, user: { name: result.user.name, email: result.user.email } };
    } catch (error) {
      // A void challenge is of no further use: the browser forgets it too.
      if (error instanceof AppError && error.code === 'invalid_token')
        clearChallengeCookie(cookies, secure);
      throw error;
    }
  },
});
