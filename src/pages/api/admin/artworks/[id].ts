// GET /api/admin/artworks/:id → `{ artwork }`; PATCH a partial change carrying the `version` the
// form was opened on (409 `version_conflict` with the current values when it changed meanwhile);
// DELETE removes a work never ordered, archives one that was → `{ archived }`. Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { deleteArtwork, getAdminArtwork, updateArtwork } from '#api/admin/artworks.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { configuredMedia } from '#api/media/storage.ts';
import { getPayments } from '#api/payments/index.ts';
import { artworkPatchSchema } from '../../../../schemas/artworks.ts';
import { artworkId } from '../_ids.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async (context) => ({
    artwork: await getAdminArtwork(await getDb(), artworkId(context)),
  }),
});

export const PATCH = defineEndpoint({
  schema: artworkPatchSchema,
  maxBytes: 65_536,
  handler: async (patch, context) => ({
    artwork: await updateArtwork(
      { db: await getDb(), payments: getPayments() },
      artworkId(context),
      patch,
      requireAdmin(context.locals),
    ),
  }),
});

export const DELETE = defineEndpoint({
  handler: async (context) =>
    deleteArtwork(
      { db: await getDb(), storage: configuredMedia().storage },
      artworkId(context),
      requireAdmin(context.locals),
    ),
});
