// GET /api/admin/customers?q=&sort=&dir=&page= → the customers list (api/admin/customers.ts):
// stat cards, the count matching the search (name or address, case and accents ignored), one page
// of 10 sorted on one of the six columns (address as tiebreak), all in SQL. A bad parameter falls
// back to its default. Admin only (middleware).
import { listCustomers } from '#api/admin/customers.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { customerListQuerySchema } from '../../../../schemas/admin-customers.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ url }) =>
    listCustomers(
      await getDb(),
      customerListQuerySchema.parse(Object.fromEntries(url.searchParams)),
    ),
});
