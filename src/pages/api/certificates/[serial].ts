// GET /api/certificates/:serial → the certificate's public view as JSON: its signed content (which
// names no buyer), signature and key id — what `npm run certificate:verify -- --site` checks —,
// its state now and its provenance as dates. 404 for an unknown serial, 429 past the lookup limit
// (api/certificates/public.ts). Never cached: a revocation shows at once.
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { lookupCertificate } from '#api/certificates/public.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ params, locals }) => {
    const view = await lookupCertificate(
      await getDb(),
      params['serial'] ?? '',
      locals.client.address,
      new Date(),
    );
    return {
      serial: view.serial,
      state: view.state,
      stateChangedAt: view.stateChangedAt,
      replacedBy: view.replacedBy,
      provenance: view.provenance,
      algorithm: 'Ed25519',
      keyId: view.keyId,
      content: view.content,
      signature: view.signature,
    };
  },
});
