import type { APIRoute } from 'astro';
import { CART_COOKIE, countCart } from '#api/cart/index.ts';
import { getDb } from '#api/db/context.ts';

export const prerender = false;

export const GET: APIRoute = async ({ cookies }) => {
  const count = await countCart(await getDb(), cookies.get(CART_COOKIE)?.value);
  return Response.json({ count }, { headers: { 'Cache-Control': 'private, no-store' } });
};
