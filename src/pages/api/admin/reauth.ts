// POST /api/admin/reauth `{ code }` (the authenticator app's, or a recovery code) when the
// administrator's second factor is on, `{ password }` otherwise → 200 `{ ok: true }`: the session
// counts as re-authenticated for 5 minutes, which erasing a customer, refunding, changing payment
// settings and inviting an administrator require (403 `reauth_required` otherwise, whose
// `details.method` says which of the two to ask). 401 `invalid_credentials` /
// `invalid_second_factor`; throttled as a login. Admin only (middleware). docs/decisions/037.
import { requireAdmin } from '#api/accounts/guards.ts';
import { reauthenticate } from '#api/accounts/second-factor.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import { proofSchema } from '../../../schemas/second-factor.ts';
import { accountDeps } from '../auth/_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: proofSchema,
  handler: async (proof, { locals, url }) => {
    const user = requireAdmin(locals);
    if (!locals.session) throw new AppError('unauthorized');
    await reauthenticate(await accountDeps(url), user, locals.session.id, proof, {
      ip: locals.client.address,
    });
    return { ok: true };
  },
});
