// POST /api/account/verify-email `{ locale }` → 200 `{ ok: true }`: mails the signed-in user a new
// verification link (nothing when the address is already verified). 401 `unauthorized`,
// 429 `rate_limited`.
import { z } from 'zod';
import { resendVerification, requireUser } from '#api/accounts/index.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { accountDeps } from '../auth/_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: z.object({ locale: z.enum(['fr', 'en']).catch('fr').default('fr') }),
  handler: async ({ locale }, { url, locals }) => {
    const user = requireUser(locals);
    await resendVerification(await accountDeps(url), user.id, locale, {
      ip: locals.client.address,
    });
    return { ok: true };
  },
});
