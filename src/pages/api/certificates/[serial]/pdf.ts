// GET /api/certificates/:serial/pdf?token=… → the certificate's PDF, through the signed link of the
// order mail and the account page (no account needed: the token is an HMAC of the serial under a
// secret derived from the gallery's key). A wrong token or serial answers 404.
import { certificatePdfByLink } from '#api/certificates/public.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ params, url }) => {
    const file = await certificatePdfByLink(
      await getDb(),
      params['serial'] ?? '',
      url.searchParams.get('token') ?? '',
    );
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Content-Length': String(file.bytes.byteLength),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      },
    });
  },
});
