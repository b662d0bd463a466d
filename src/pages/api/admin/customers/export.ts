// GET /api/admin/customers/export?email= → everything held about the address as a JSON download
// (a GDPR access request, issue 13 point 8): account, orders with lines, addresses, invoices and
// withdrawals, contact messages, subscriptions, audit entries. 404 when nothing is held. Admin only.
import { exportCustomer } from '#api/admin/customers.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint, NO_STORE } from '#api/http/endpoint.ts';
import { customerEmail } from './_email.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async (context) => {
    const data = await exportCustomer(await getDb(), customerEmail(context));
    const day = data.exportedAt.slice(0, 10);
    const name = `donnees-client-${data.email.replace(/[^a-z0-9.@_-]/g, '_')}-${day}.json`;
    return new Response(`${JSON.stringify(data, null, 2)}\n`, {
      headers: {
        ...NO_STORE,
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name}"`,
      },
    });
  },
});
