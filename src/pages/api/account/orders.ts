// GET /api/account/orders → 200 `{ orders, subscription }` of the signed-in user (orders newest
// first: those placed while signed in, and the guest orders of its address once verified);
// 401 `unauthorized` without a session. The user comes from the session only.
import { getAccountOverview, requireUser } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ locals }) => {
    const user = requireUser(locals);
    const overview = await getAccountOverview(await getDb(), user);
    return Response.json(overview, {
      headers: { 'Cache-Control': 'private, no-store', Vary: 'Cookie' },
    });
  },
});
