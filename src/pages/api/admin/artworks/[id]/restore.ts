// POST /api/admin/artworks/:id/restore: an archived work back in the gallery, last and hidden
// (issue 27, the 'Archivées' filter) → `{ artwork }`. Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { restoreArtwork } from '#api/admin/artworks.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { artworkId } from '../../_ids.ts';

export const prerender = false;

export const POST = defineEndpoint({
  handler: async (context) => ({
    artwork: await restoreArtwork(await getDb(), artworkId(context), requireAdmin(context.locals)),
  }),
});
