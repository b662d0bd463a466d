// A checkout comes from a cart (issue 14 "Anyone can hold the whole catalogue"): the visitor's
// cart, locked for the checkout's transaction, bounds what may be held — every work asked for must
// be in it, never with more than its quantity there. The cart's own rules (one original, prints
// within stock, at most MAX_CART_LINES lines; api/cart) thus bound every checkout, and the lock
// makes two checkouts of one cart run one after the other (the later supersedes the earlier).
import type { Transaction } from 'kysely';
import { isCartId } from '../cart/index.ts';
import type { DB } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/** Same work twice in the request counts once, with the quantities added. */
export function mergeItems(
  items: ReadonlyArray<{ artworkId: number; quantity: number }>,
): Map<number, number> {
  const merged = new Map<number, number>();
  for (const item of items)
    merged.set(item.artworkId, (merged.get(item.artworkId) ?? 0) + item.quantity);
  return merged;
}

/**
 * Locks the cart and checks the request against it: no cart or an empty one → `cart_empty`; a
 * work not in it, or more of it than it has (the cart changed in another tab) → `invalid_input`
 * on `items`, so the checkout page shows the cart as it is now. Returns the cart's id and the
 * works to hold.
 */
export async function lockCartItems(
  trx: Transaction<DB>,
  cartId: string | undefined,
  items: ReadonlyArray<{ artworkId: number; quantity: number }>,
): Promise<{ cartId: string; wanted: Map<number, number> }> {
  if (!isCartId(cartId)) throw new AppError('cart_empty');
  const cart = await trx
    .selectFrom('carts')
    .select('id')
    .where('id', '=', cartId)
    .forUpdate()
    .executeTakeFirst();
  if (!cart) throw new AppError('cart_empty');
  const lines = await trx
    .selectFrom('cart_items')
    .select(['artwork_id', 'quantity'])
    .where('cart_id', '=', cartId)
    .execute();
  if (lines.length === 0) throw new AppError('cart_empty');
  const inCart = new Map(lines.map((l) => [l.artwork_id, l.quantity]));
  const wanted = mergeItems(items);
  for (const [artworkId, quantity] of wanted) {
    if (quantity > (inCart.get(artworkId) ?? 0))
      throw new AppError('invalid_input', {
        message: 'The cart changed since the checkout page was opened.',
        fields: { items: 'checkout.error.cartChanged' },
      });
  }
  return { cartId, wanted };
}
