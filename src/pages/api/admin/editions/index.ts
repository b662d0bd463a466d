// GET /api/admin/editions → `{ editions }`: every print with a numbered edition and its counts,
// for the register of editions (docs/decisions/045). Admin only (middleware).
import { getDb } from '#api/db/context.ts';
import { listEditions } from '#api/editions/register.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async () => ({ editions: await listEditions(await getDb()) }),
});
