// POST /api/admin/certificates/:serial/reissue → `{ serial, replaced }`: a lost certificate is issued
// again under a new serial for the same holder; the old serial's page says "remplacé". Audited.
// 404 unknown serial, 409 version_conflict when it is no longer valid. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { reissueCertificate } from '#api/certificates/lifecycle.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const POST = defineEndpoint({
  handler: async ({ params, locals }) =>
    reissueCertificate(await getDb(), requireAdmin(locals), params['serial'] ?? '', new Date()),
});
