// POST /api/admin/second-factor/disable `{ password }` or `{ code }` → `{ ok: true }`: turns the
// second factor off (key and recovery codes deleted) after the password or a code. 401
// `invalid_credentials` / `invalid_second_factor`, throttled as a login; audited. Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { disableSecondFactor } from '#api/accounts/second-factor.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { proofSchema } from '../../../../schemas/second-factor.ts';
import { accountDeps } from '../../auth/_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: proofSchema,
  handler: async (proof, { locals, url }) => {
    await disableSecondFactor(await accountDeps(url), requireAdmin(locals), proof, {
      ip: locals.client.address,
    });
    return { ok: true };
  },
});
