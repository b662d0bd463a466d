// GET /.well-known/galerie-certificate-key.pem → the active public signing key as PEM (SPKI), for
// `npm run certificate:verify -- --key` or openssl; the JSON beside it lists every key by id.
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { ensureSigningKey } from '#api/certificates/signing.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async () => {
    const key = await ensureSigningKey(await getDb());
    return new Response(key.pem, {
      headers: {
        'Content-Type': 'application/x-pem-file; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
        'Access-Control-Allow-Origin': '*',
      },
    });
  },
});
