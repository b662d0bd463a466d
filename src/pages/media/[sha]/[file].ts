// Image variants (/media/<sha256>/<width>.<avif|webp>): the URL names the content, so a response
// never changes and is cached for a year by browsers and any CDN in front.
import path from 'node:path';
import type { APIRoute } from 'astro';
import { loadConfig } from '#api/config.ts';
import { getDb } from '#api/db/context.ts';
import { getVariant, parseVariantPath } from '#api/media/variants.ts';
import { getPreview, PREVIEW } from '#api/media/preview.ts';
import { diskStorage } from '#api/media/storage.ts';

export const prerender = false;

const notFound = (): Response =>
  Response.json(
    { error: { code: 'not_found', message: 'Image not found' } },
    { status: 404, headers: { 'Cache-Control': 'no-store' } },
  );

export const GET: APIRoute = async ({ params }) => {
  if (params['file'] === PREVIEW.file) return preview(params['sha'] ?? '');
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

/** A work's sharing image (/media/<sha256>/share.jpg, api/media/preview.ts). */
async function preview(sha256: string): Promise<Response> {
  const mediaDir = path.join(loadConfig().dataDir, 'media');
  const bytes = await getPreview(
    await getDb(),
    diskStorage(mediaDir),
    path.join(mediaDir, 'variants'),
    sha256,
  );
  if (!bytes) return notFound();
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(bytes.length),
      'Cache-Control': 'public, max-age=31536000, immutable',
    },
  });
}
