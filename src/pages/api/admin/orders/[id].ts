// GET /api/admin/orders/:id → `{ order }` (OrderDetail: the §2 detail modal with its history);
// PATCH an OrderStatusChange → OrderStatusResult: the fulfilment status, audited, refused in the
// owner's words when the order cannot take it; 'Expédiée' mails the buyer, 'Annulée' refunds and
// restocks as the owner chose. An unknown or malformed id is a 404. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
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
  handler: async (change, { params, locals }) =>
    changeOrderStatus(
      { db: await getDb(), payments: payments(), mailer: getMailer(), refundOrder },
      params['id'] ?? '',
      change,
      requireAdmin(locals),
    ),
});
