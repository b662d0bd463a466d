// The cart cookie for endpoints and on-demand pages: read the visitor's cart id, or issue one.
import type { AstroCookies } from 'astro';
import {
  cartCookieName,
  CART_MAX_AGE_SECONDS,
  getCart,
  isCartId,
  newCartId,
  type StoredCart,
} from '#api/cart/index.ts';
import type { Database } from '#api/db/index.ts';
import { liveSettings, type SiteSettings } from '#api/settings/index.ts';

/** `secure`: `locals.secureCookies`, which names the cookie (`__Host-` over HTTPS). */
export function readCartId(cookies: AstroCookies, secure: boolean): string | undefined {
  const value = cookies.get(cartCookieName(secure))?.value;
  return isCartId(value) ? value : undefined;
}

/**
 * The visitor's cart id, creating the HttpOnly cookie on first use. `secure`:
 * `locals.secureCookies` (PUBLIC_SITE_URL or the trusted proxy's protocol, src/middleware.ts).
 */
export function ensureCartId(cookies: AstroCookies, secure: boolean): string {
  const existing = readCartId(cookies, secure);
  if (existing) return existing;
  const id = newCartId();
  cookies.set(cartCookieName(secure), id, {
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
