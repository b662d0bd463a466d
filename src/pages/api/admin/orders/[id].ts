// GET /api/admin/orders/:id → `{ order }` (OrderDetail: the §2 detail modal with its history);
// PATCH an OrderStatusChange → OrderStatusResult: the fulfilment status, audited, refused in the
// owner's words when the order cannot take it; 'Expédiée' mails the buyer, 'Annulée' refunds and
// restocks as the owner chose — a refund only after a re-authentication (403 `reauth_required`,
// docs/decisions/037). An unknown or malformed id is a 404. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { requireRecentAuth } from '#api/accounts/second-factor.ts';
import { changeOrderStatus, getAdminOrder } from '#api/admin/orders.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { getMailer } from '#api/mail/index.ts';
import { refundOrder } from '#api/orders/refund.ts';
import { getPayments, hasPayments } from '#api/payments/index.ts';
import { orderStatusChangeSchema } from '../../../../schemas/admin-orders-input.ts';

export const prerender = false;

const payments = () => (hasPayments() ? getPayments() : undefined);

export const GET = defineEndpoint({
  handler: async ({ params }) => ({
    order: await getAdminOrder(await getDb(), params['id'] ?? '', payments()),
  }),
});

export const PATCH = defineEndpoint({
  schema: orderStatusChangeSchema,
  handler: async (change, { params, locals }) => {
    const db = await getDb();
    const actor = requireAdmin(locals);
    // Money leaves the shop: a refund needs a re-authentication (docs/decisions/037).
    if (change.refund === true) await requireRecentAuth(db, locals);
    return changeOrderStatus(
      { db, payments: payments(), mailer: getMailer(), refundOrder },
      params['id'] ?? '',
      change,
      actor,
    );
  },
});
