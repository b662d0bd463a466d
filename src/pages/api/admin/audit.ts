// GET /api/admin/audit?entity=artwork&id=12&limit=100 → `{ entries }`: the audit log, newest first
// (who, what, before → after, when). Admin only; a screen can come later.
import { z } from 'zod';
import { readAudit } from '#api/admin/audit.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint, parseInput } from '#api/http/endpoint.ts';
import { singleLine } from '../../../schemas/text.ts';

export const prerender = false;

const query = z.object({
  entity: z.string().max(40).check(singleLine()).optional(),
  id: z.string().max(80).check(singleLine()).optional(),
  limit: z.coerce.number().int().min(1).max(500).catch(100),
});

export const GET = defineEndpoint({
  handler: async ({ url }) => {
    const { entity, id, limit } = parseInput(query, Object.fromEntries(url.searchParams));
    return { entries: await readAudit(await getDb(), { entity, entityId: id, limit }) };
  },
});
