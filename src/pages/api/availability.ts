import type { APIRoute } from 'astro';
import { availabilityEtag } from '#api/catalog/availability-cache.ts';
import { listAvailability } from '#api/catalog/index.ts';
import { getDb } from '#api/db/context.ts';

export const prerender = false;

// Live sold state and stock for the prerendered pages. Never reused without asking (`no-cache`):
// a work bought a moment ago must show sold on the buyer's next look, and on everyone's within
// seconds. The ETag makes asking cheap: an unchanged answer is a bodiless 304. The production
// server answers it from memory before Astro (api/catalog/availability-cache.ts); this endpoint
// serves `astro dev` and any server built without that cache.
export const GET: APIRoute = async ({ request }) => {
  const body = JSON.stringify({ works: await listAvailability(await getDb()) });
  const etag = availabilityEtag(body);
  const headers = { 'Cache-Control': 'public, no-cache', ETag: etag };
  const match = request.headers.get('if-none-match');
  if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.slice(2)))
    return new Response(null, { status: 304, headers });
  return new Response(body, {
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });
};
