// POST /api/admin/uploads — the image's bytes as the body (any Content-Type: the bytes decide),
// at most 25 MB → 201 `{ sha256, width, height }` of the cleaned master (api/admin/uploads.ts);
// 400 `invalid_input` with `fields.image` for anything that is not a readable JPEG, PNG or WebP,
// 413 above the limit. Nothing is stored on a refusal. Admin only.
import { getDb } from '#api/db/context.ts';
import { MAX_UPLOAD_BYTES, storeUpload } from '#api/admin/uploads.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { readBytes } from '#api/http/errors.ts';
import { configuredMedia } from '#api/media/storage.ts';

export const prerender = false;

export const POST = defineEndpoint({
  status: 201,
  handler: async ({ request }) => {
    const bytes = await readBytes(request, MAX_UPLOAD_BYTES);
    const media = await storeUpload(
      await getDb(),
      configuredMedia().storage,
      bytes,
      { fr: '', en: '' },
      request.headers.get('content-type'),
    );
    return { sha256: media.sha256, width: media.width, height: media.height };
  },
});
