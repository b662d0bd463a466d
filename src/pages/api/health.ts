import type { APIRoute } from 'astro';
import { getDb } from '../../../api/db/context.ts';
import { checkHealth } from '../../../api/health.ts';

export const prerender = false;

export const GET: APIRoute = async () => {
  const health = await getDb()
    .then((db) => checkHealth(db))
    .catch(() => ({ status: 'error', db: 'error' }) as const);
  return Response.json(health, {
    status: health.status === 'ok' ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  });
};
