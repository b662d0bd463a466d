// GET /api/admin/artworks?q=&category=&type= → `{ total, artworks }` (back office §2: search over
// both languages' titles, technique and description, case- and accent-insensitive, in SQL).
// POST creates a work (src/schemas/artworks.ts) → 201 with it. Admin only (middleware).
import { requireAdmin } from '#api/accounts/guards.ts';
import { createArtwork, listAdminArtworks } from '#api/admin/artworks.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { artworkCreateSchema, artworkListQuerySchema } from '../../../../schemas/artworks.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ url }) =>
    listAdminArtworks(
      await getDb(),
      artworkListQuerySchema.parse(Object.fromEntries(url.searchParams)),
    ),
});

export const POST = defineEndpoint({
  schema: artworkCreateSchema,
  status: 201,
  maxBytes: 65_536,
  handler: async (input, { locals }) => ({
    artwork: await createArtwork(await getDb(), input, requireAdmin(locals)),
  }),
});
