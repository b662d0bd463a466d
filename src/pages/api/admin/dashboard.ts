// GET /api/admin/dashboard → the figures, the to-do list, the five latest paid orders and the last
// 30 days' revenue (api/admin/dashboard.ts). Admin only.
import { dashboard } from '#api/admin/dashboard.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ locals }) => dashboard(await getDb(), { userId: locals.user?.id }),
});
