// POST /api/admin/invitations/accept `{ token, email?, fullName, password, confirmPassword }` → 201
// `{ ok: true }` and a `session` cookie: the invitation (single-use, 72 h) becomes a new
// administrator account, signed in. 400 `invalid_token`; 409 `account_exists` when the invited
// address already has an account. The one /api/admin/** endpoint open without a session. `email`
// is for the first administrator's setup link, which names no address (docs/decisions/048).
import { acceptAdminInvitation, logout } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { acceptInvitationSchema } from '../../../../schemas/accounts.ts';
import { setSessionCookie, tokenInvalid } from '../../auth/_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: acceptInvitationSchema,
  invalid: tokenInvalid,
  status: 201,
  handler: async (input, { cookies, locals }) => {
    const db = await getDb();
    const result = await acceptAdminInvitation({ db }, input);
    // Whoever was signed in on this browser before is signed out: the new admin's session replaces it.
    await logout(db, locals.session?.id);
    setSessionCookie(cookies, locals.secureCookies, result.token, result.session);
    return { ok: true };
  },
});
