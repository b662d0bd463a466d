// POST /api/admin/artworks/order/reset: 'Réinitialiser l'ordre' — the catalogue's own order again, by
// the date each work was added, oldest first (issue 27; asked to confirm on the screen first, back office §5). Admin only.
import { requireAdmin } from '#api/accounts/guards.ts';
import { resetOrder } from '#api/admin/artworks.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const POST = defineEndpoint({
  handler: async ({ locals }) => {
    await resetOrder(await getDb(), requireAdmin(locals));
    return { ok: true };
  },
});
