// POST /api/admin/artworks/:id/move `{ direction: 'up' | 'down' }`: 'Haut' / 'Bas' (back office
// §4), the work swapped with its neighbour in the gallery order. Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { moveArtwork } from '#api/admin/artworks.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { moveSchema } from '../../../../../schemas/artworks.ts';
import { artworkId } from '../../_ids.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: moveSchema,
  handler: async ({ direction }, context) => {
    await moveArtwork(await getDb(), artworkId(context), direction, requireAdmin(context.locals));
    return { ok: true };
  },
});
