// GET /.well-known/galerie-certificates.json → the gallery's public signing keys (docs/decisions/046):
// what `npm run certificate:verify -- --key <this URL>` and anyone else check certificates with.
// Made at the first start; the same document on every request until the key changes.
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { certificateSiteUrl } from '#api/certificates/links.ts';
import {
  ensureSigningKey,
  publicSigningKeys,
  publishedKeysDocument,
} from '#api/certificates/signing.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async () => {
    const db = await getDb();
    await ensureSigningKey(db);
    const document = publishedKeysDocument(await publicSigningKeys(db), certificateSiteUrl());
    return Response.json(document, {
      headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
    });
  },
});
