// GET /api/admin/dashboard → the four figures and the five latest paid orders (api/admin/dashboard.ts).
// Admin only.
import { dashboard } from '#api/admin/dashboard.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const GET = defineEndpoint({ handler: async () => dashboard(await getDb()) });
