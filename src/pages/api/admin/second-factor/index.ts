// GET /api/admin/second-factor → `{ enabled, recoveryCodesLeft }`: the signed-in administrator's
// second factor (docs/decisions/037). Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { secondFactorStatus } from '#api/accounts/second-factor.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import type { SecondFactorStatusView } from '../../../../schemas/second-factor.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ locals }): Promise<SecondFactorStatusView> =>
    secondFactorStatus(await getDb(), requireAdmin(locals).id),
});
