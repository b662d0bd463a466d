// GET /api/admin/certificates?order=<id> → `{ certificates }` (AdminCertificate): every certificate
// issued for the order, with its state and holder, for the order detail. Admin only (middleware).
import { adminOrderCertificates } from '#api/certificates/views.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ url }) => ({
    certificates: await adminOrderCertificates(await getDb(), url.searchParams.get('order') ?? ''),
  }),
});
