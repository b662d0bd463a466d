// POST /api/admin/invitations/accept `{ token, fullName, password, confirmPassword }` → 201
// `{ ok: true }` and a `session` cookie: the invitation (single-use, 72 h) becomes a new
// administrator account, signed in. 400 `invalid_token`; 409 `account_exists` when the invited
// address already has an account. The one /api/admin/** endpoint open without a session.
import type { APIRoute } from 'astro';
import { acceptAdminInvitation, logout } from '../../../../../api/accounts/index.ts';
import { acceptInvitationSchema } from '../../../../../api/accounts/validation.ts';
import { getDb } from '../../../../../api/db/context.ts';
import { checkSameOrigin, errorResponse, readJson } from '../../../../../api/http/errors.ts';
import { NO_STORE, parse, setSessionCookie } from '../../auth/_shared.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, url, cookies, locals }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const input = parse(acceptInvitationSchema, await readJson(request));
    const db = await getDb();
    const result = await acceptAdminInvitation({ db }, input);
    // Whoever was signed in on this browser before is signed out: the new admin's session replaces it.
    await logout(db, locals.session?.id);
    setSessionCookie(cookies, url, result.token, result.session);
    return Response.json({ ok: true }, { status: 201, headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
};
