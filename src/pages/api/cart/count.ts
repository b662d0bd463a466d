import type { APIRoute } from 'astro';
import { cartCookieName, countCart } from '#api/cart/index.ts';
import { getDb } from '#api/db/context.ts';

export const prerender = false;

export const GET: APIRoute = async ({ cookies, locals }) => {
  const name = cartCookieName(locals.secureCookies);
  const count = await countCart(await getDb(), cookies.get(name)?.value);
  return Response.json({ count }, { headers: { 'Cache-Control': 'private, no-store' } });
};
