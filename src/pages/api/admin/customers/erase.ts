// POST /api/admin/customers/erase { email, confirmation } → erases a customer (a GDPR erasure
// request, issue 13 point 8; api/admin/customers.ts says what goes and what stays). The owner types
// the address again: a mismatch is `invalid_input` naming `confirmation`. 404 when nothing is held
// about the address. While an order of the customer is open (unshipped, in its withdrawal period,
// awaiting a payment or a refund), 409 `erase_blocked` lists them in `details.orders`; with
// `whenClosed: true` the erasure is recorded instead and carried out by the server once they
// have closed (api/admin/erasure.ts). Audited. Needs a re-authentication in the last 5 minutes
// (403 `reauth_required`, docs/decisions/037). Admin only (middleware), same origin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { requireRecentAuth } from '#api/accounts/second-factor.ts';
import { eraseCustomer } from '#api/admin/customers.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { customerEraseSchema } from '../../../../schemas/admin-customers.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: customerEraseSchema,
  handler: async (input, { locals }) => {
    const db = await getDb();
    const actor = requireAdmin(locals);
    await requireRecentAuth(db, locals);
    return eraseCustomer(db, input, actor);
  },
});
