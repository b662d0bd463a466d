// Image variants (/media/<sha256>/<width>.<avif|webp>): the URL names the content, so a response
// never changes and is cached for a year by browsers and any CDN in front.
import path from 'node:path';
import type { APIRoute } from 'astro';
import { loadConfig } from '#api/config.ts';
import { getDb } from '#api/db/context.ts';
import { getVariant, parseVariantPath } from '#api/media/variants.ts';
import { diskStorage } from '#api/media/storage.ts';

export const prerender = false;

const notFound = (): Response =>
  Response.json(
    { error: { code: 'not_found', message: 'Image not found' } },
    { status: 404, headers: { 'Cache-Control': 'no-store' } },
  );

export const GET: APIRoute = async ({ params }) => {
  const request = parseVariantPath(`/media/${params['sha'] ?? ''}/${params['file'] ?? ''}`);
  if (!request) return notFound();
  const mediaDir = path.join(loadConfig().dataDir, 'media');
  const variant = await getVariant(
    await getDb(),
    diskStorage(mediaDir),
    path.join(mediaDir, 'variants'),
    request,
  );
  if (!variant) return notFound();
  // A copy of a few KB: Node's Buffer type (ArrayBufferLike) is not accepted as a BodyInit.
  return new Response(new Uint8Array(variant.bytes), {
    headers: {
      'Content-Type': variant.contentType,
      'Content-Length': String(variant.bytes.length),
      'Cache-Control': 'public, max-age=31536000, immutable',
    },
  });
};
