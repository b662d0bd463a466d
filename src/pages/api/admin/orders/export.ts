// GET /api/admin/orders/export?q=&status=&sort=&dir= → the list as the screen filters it, every
// page, as a CSV file for the accountant (issue 13 point 5): UTF-8 with a BOM, ';' and CRLF, so a
// French spreadsheet opens it as is. Admin only (middleware).
import { exportOrdersCsv } from '#api/admin/orders.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { parisDay } from '#api/orders/sales.ts';
import { orderListQuerySchema } from '../../../../schemas/admin-orders-input.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ url }) => {
    const query = orderListQuerySchema.parse(Object.fromEntries(url.searchParams));
    const csv = await exportOrdersCsv(await getDb(), query);
    return new Response(csv, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="commandes-${parisDay(new Date())}.csv"`,
        'Cache-Control': 'no-store',
      },
    });
  },
});
