// POST /api/admin/invitations `{ email }` → 201 `{ email, url, expiresAt }`: an invitation to
// become an administrator (single-use, 72 h), its link shown once to be sent to the person. Needs
// a re-authentication (403 `reauth_required`, docs/decisions/037); 409 `account_exists` when the
// address has an account (never promoted). Audited. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { inviteAdministrator } from '#api/accounts/invitations.ts';
import { requireRecentAuth } from '#api/accounts/second-factor.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { inviteAdminSchema } from '../../../../schemas/second-factor.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: inviteAdminSchema,
  status: 201,
  handler: async ({ email }, { locals, url }) => {
    const db = await getDb();
    const actor = requireAdmin(locals);
    await requireRecentAuth(db, locals);
    const invitation = await inviteAdministrator(db, email, actor, {
      siteUrl: import.meta.env.SITE ?? url.origin,
    });
    return { ...invitation, expiresAt: invitation.expiresAt.toISOString() };
  },
});
