// POST /api/admin/certificates/:serial/revoke `{ reason }` → `{ serial, state }`: the owner revokes a
// valid certificate; its public page says "révoqué" at once. Audited. 404 unknown serial, 409
// version_conflict when it is no longer valid. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { revokeCertificate } from '#api/certificates/lifecycle.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { certificateRevokeSchema } from '../../../../../schemas/certificates.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: certificateRevokeSchema,
  maxBytes: 2048,
  handler: async (input, { params, locals }) =>
    revokeCertificate(
      await getDb(),
      requireAdmin(locals),
      params['serial'] ?? '',
      input.reason,
      new Date(),
    ),
});
