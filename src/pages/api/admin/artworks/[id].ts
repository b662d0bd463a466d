// PATCH /api/admin/artworks/:id — a partial change of a work (src/schemas/artworks.ts): 200 `{ ok:
// true }`, then the public pages follow through the publish queue. Admin only (middleware).
import { updateArtwork } from '#api/catalog/admin.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import { artworkPatchSchema } from '../../../../schemas/artworks.ts';
import { rowId } from '../../../../schemas/cart.ts';

export const prerender = false;

export const PATCH = defineEndpoint({
  schema: artworkPatchSchema,
  handler: async (patch, { params }) => {
    const id = rowId.safeParse(Number(params['id']));
    if (!id.success) throw new AppError('not_found', { message: 'No such artwork.' });
    await updateArtwork(await getDb(), id.data, patch);
    return { ok: true };
  },
});
