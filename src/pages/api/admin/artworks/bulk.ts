// POST /api/admin/artworks/bulk `{ action: 'hide' | 'publish' | 'move' | 'delete', ids, to? }`: one
// action on the works selected in the list (issue 27) → `{ changed, archived }`. Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { bulkArtworks } from '#api/admin/artworks.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { configuredMedia } from '#api/media/storage.ts';
import { artworkBulkSchema } from '../../../../schemas/artworks.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: artworkBulkSchema,
  maxBytes: 65_536,
  handler: async (input, { locals }) =>
    bulkArtworks(
      { db: await getDb(), storage: configuredMedia().storage },
      input,
      requireAdmin(locals),
    ),
});
