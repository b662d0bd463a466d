// POST /api/admin/second-factor/confirm `{ code }` → `{ recoveryCodes }` (ten, shown once): a code
// from the pending key turns the second factor on; every later sign-in asks for a code. 401
// `invalid_second_factor` for a wrong code (throttled as a login); audited. Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { confirmTotpSetup } from '#api/accounts/second-factor.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { secondFactorCodeSchema } from '../../../../schemas/second-factor.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: secondFactorCodeSchema,
  handler: async ({ code }, { locals }) =>
    confirmTotpSetup({ db: await getDb() }, requireAdmin(locals), code, {
      ip: locals.client.address,
    }),
});
