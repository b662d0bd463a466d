// POST /api/admin/artworks/:id/highlight `{ highlight: 'hero' | 'featured' | null }`: 'Mettre en
// avant' (issue 27) — the home page's hero or one of its featured works, chosen by the owner, never
// by a new work's place → `{ artwork }`. Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { setHighlight } from '#api/admin/artworks.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { highlightSchema } from '../../../../../schemas/artworks.ts';
import { artworkId } from '../../_ids.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: highlightSchema,
  handler: async ({ highlight }, context) => ({
    artwork: await setHighlight(
      await getDb(),
      artworkId(context),
      highlight,
      requireAdmin(context.locals),
    ),
  }),
});
