// POST /api/auth/password/forgot `{ email, locale }` → 200 `{ ok: true }` always (after the rate
// limits): when the address has an account, a single-use link valid 1 hour is mailed to it.
import { requestPasswordReset } from '#api/accounts/index.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { forgotPasswordSchema } from '../../../../schemas/accounts.ts';
import { accountDeps } from '../_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: forgotPasswordSchema,
  handler: async (input, { url, locals }) => {
    await requestPasswordReset(await accountDeps(url), input, { ip: locals.client.address });
    return { ok: true };
  },
});
