// POST /api/admin/second-factor/setup → `{ secret, uri }`: a new key for the administrator's
// authenticator app (base32 for typing, otpauth:// for a QR code), pending until a first code
// confirms it (./confirm). 400 `rejected` while the factor is on. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { beginTotpSetup } from '#api/accounts/second-factor.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { liveSettings } from '#api/settings/index.ts';
import type { TotpSetupView } from '../../../../schemas/second-factor.ts';

export const prerender = false;

export const POST = defineEndpoint({
  handler: async ({ locals }): Promise<TotpSetupView> => {
    const db = await getDb();
    const { site_title } = await liveSettings(db);
    return beginTotpSetup({ db }, requireAdmin(locals), site_title);
  },
});
