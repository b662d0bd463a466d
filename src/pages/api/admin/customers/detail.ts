// GET /api/admin/customers/detail?email= → one customer ('Détails du client'): identity, dates,
// purchase statistics and every paid or refunded order, newest first. 404 for an address that
// is no customer. Admin only (middleware).
import { customerDetail } from '#api/admin/customers.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { customerEmail } from './_email.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async (context) => customerDetail(await getDb(), customerEmail(context)),
});
