import type { APIRoute } from 'astro';
import { listAvailability } from '../../../api/catalog/index.ts';
import { getDb } from '../../../api/db/context.ts';

export const prerender = false;

// Small and briefly cached: a work sold a few seconds ago may show as available that long, and
// the cart and checkout re-check everything on the server anyway.
export const GET: APIRoute = async () => {
  const works = await listAvailability(await getDb());
  return Response.json(
    { works },
    { headers: { 'Cache-Control': 'public, max-age=10, stale-while-revalidate=30' } },
  );
};
