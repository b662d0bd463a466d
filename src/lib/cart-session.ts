// The cart cookie for endpoints and on-demand pages: read the visitor's cart id, or issue one.
import type { AstroCookies } from 'astro';
import {
  CART_COOKIE,
  CART_MAX_AGE_SECONDS,
  getCart,
  isCartId,
  newCartId,
  type StoredCart,
} from '#api/cart/index.ts';
import type { Database } from '#api/db/index.ts';
import { liveSettings, type SiteSettings } from '#api/settings/index.ts';

export function readCartId(cookies: AstroCookies): string | undefined {
  const value = cookies.get(CART_COOKIE)?.value;
  return isCartId(value) ? value : undefined;
}

/**
 * The visitor's cart id, creating the HttpOnly cookie on first use. `secure`:
 * `locals.secureCookies` (PUBLIC_SITE_URL or the trusted proxy's protocol, src/middleware.ts).
 */
export function ensureCartId(cookies: AstroCookies, secure: boolean): string {
  const existing = readCartId(cookies);
  if (existing) return existing;
  const id = newCartId();
  cookies.set(CART_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: CART_MAX_AGE_SECONDS,
  });
  return id;
}

/** What every cart endpoint answers: the repriced cart and its count, never cached. */
export async function cartResponse(
  db: Database,
  cartId: string | undefined,
  settings?: SiteSettings,
  stored?: StoredCart,
): Promise<Response> {
  const cart = await getCart(db, cartId, settings ?? (await liveSettings(db)), stored);
  return Response.json(
    { cart, count: cart.count },
    { headers: { 'Cache-Control': 'private, no-store' } },
  );
}
