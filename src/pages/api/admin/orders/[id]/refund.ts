// POST /api/admin/orders/:id/refund `{ items, restock }` → OrderLinesRefundResult: the refund of
// some of a paid order's lines (issue 27) — the amount computed on the server from the order's
// lines, given back through Stripe, with its credit note — after a re-authentication (403
// `reauth_required`, docs/decisions/037), as every refund. Refused in the owner's words (400
// `rejected`) when the lines cannot be refunded alone. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { requireRecentAuth } from '#api/accounts/second-factor.ts';
import { refundAdminOrderLines } from '#api/admin/orders.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { getPayments, hasPayments } from '#api/payments/index.ts';
import { getMailer } from '#api/mail/index.ts';
import { orderLinesRefundSchema } from '../../../../../schemas/admin-orders-input.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: orderLinesRefundSchema,
  handler: async (input, { params, locals }) => {
    const db = await getDb();
    const actor = requireAdmin(locals);
    await requireRecentAuth(db, locals);
    return refundAdminOrderLines(
      { db, payments: hasPayments() ? getPayments() : undefined, mailer: getMailer() },
      params['id'] ?? '',
      input,
      actor,
    );
  },
});
