// The visitor's cart, keyed by the opaque id in the HttpOnly cart-session-id cookie.
import type { Database } from '../db/index.ts';

export const CART_COOKIE = 'cart-session-id';

/** spec storefront §4: count = sum of quantities (lines of works still on sale only). */
export async function countCart(db: Database, cartId: string | undefined): Promise<number> {
  if (!cartId) return 0;
  const row = await db
    .selectFrom('cart_items as c')
    .innerJoin('artworks as a', 'a.id', 'c.artwork_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('c.quantity'), eb.lit(0)).as('count'))
    .where('c.cart_id', '=', cartId)
    .where('a.is_available', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
