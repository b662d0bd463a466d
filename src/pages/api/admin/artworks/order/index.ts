// POST /api/admin/artworks/order `{ ids }`: the whole gallery order at once (drag and drop, by
// mouse or keyboard), saved in one transaction; 409 when the list changed meanwhile. Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { reorderArtworks } from '#api/admin/artworks.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { reorderSchema } from '../../../../../schemas/artworks.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: reorderSchema,
  maxBytes: 131_072,
  handler: async ({ ids }, { locals }) => {
    await reorderArtworks(await getDb(), ids, requireAdmin(locals));
    return { ok: true };
  },
});
