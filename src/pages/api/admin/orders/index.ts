// GET /api/admin/orders?q=&status=&sort=&dir=&page= → OrderList (back office §2 "Gestion des
// commandes"; issue 13): the orders that were paid, searched (number, name, email, session id —
// case and accents aside), filtered, sorted and paged by 25 in SQL. Admin only (middleware).
import { listAdminOrders } from '#api/admin/orders.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { orderListQuerySchema } from '../../../../schemas/admin-orders-input.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ url }) =>
    listAdminOrders(
      await getDb(),
      orderListQuerySchema.parse(Object.fromEntries(url.searchParams)),
    ),
});
