// POST /api/admin/second-factor/recovery-codes → `{ recoveryCodes }`: ten new recovery codes (the
// old ones stop working), shown once. Needs a re-authentication (403 `reauth_required`, then
// POST /api/admin/reauth). Audited. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { regenerateRecoveryCodes, requireRecentAuth } from '#api/accounts/second-factor.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const POST = defineEndpoint({
  handler: async ({ locals }) => {
    const db = await getDb();
    const user = requireAdmin(locals);
    await requireRecentAuth(db, locals);
    return regenerateRecoveryCodes({ db }, user);
  },
});
