// GET /api/checkout/config: whether payment can run, and in which mode (the LIVE/TEST badge).
import type { APIRoute } from 'astro';
import { getPayments } from '#api/payments/index.ts';

export const prerender = false;

export const GET: APIRoute = () => {
  const p = getPayments();
  return Response.json(
    { mode: p.mode, ready: p.ready, problems: p.problems },
    { headers: { 'Cache-Control': 'no-store' } },
  );
};
