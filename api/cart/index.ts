// The visitor's cart, keyed by the opaque id in the HttpOnly cart-session-id cookie. Every cart
// rule of storefront §4–§5 is enforced here, on the server, inside a transaction that locks the
// cart row, so two tabs adding at once cannot put two originals in one cart.
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Database, Executor } from '../db/index.ts';
import { assertSellable, sellability } from '../catalog/sellability.ts';
import { AppError } from '../http/errors.ts';
import {
  activePromoCodes,
  applyPromo,
  computeTotals,
  findPromo,
  shippingRule,
} from '../pricing/index.ts';
import type { SiteSettings } from '../settings/index.ts';
import type { CartLine, CartView, Localized, PromoCode } from '../../src/schemas/views.ts';

export const CART_COOKIE = 'cart-session-id';
/** How long an idle cart is kept (cookie lifetime). */
export const CART_MAX_AGE_SECONDS = 180 * 24 * 3600;
/** A cart holds at most this many distinct works (a guard against abuse, far above real use). */
export const MAX_CART_LINES = 50;

export type { CartLine, CartView } from '../../src/schemas/views.ts';

/** A new opaque cart id: 128 random bits, URL-safe. */
export function newCartId(): string {
  return randomBytes(16).toString('base64url');
}

/** Whether a cookie value can be a cart id we issued (anything else is ignored, not looked up). */
export function isCartId(value: string | undefined): value is string {
  return value !== undefined && /^[A-Za-z0-9_-]{22}$/.test(value);
}

/** The work key shared by an original and its prints: the slug without its variant suffix. */
export function workKey(slug: string): string {
  return slug.replace(/-(original|print)$/, '');
}

/** spec storefront §4: count = sum of quantities (lines of works still on sale only). */
export async function countCart(db: Executor, cartId: string | undefined): Promise<number> {
  if (!isCartId(cartId)) return 0;
  const row = await db
    .selectFrom('cart_items as c')
    .innerJoin('artworks as a', 'a.id', 'c.artwork_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('c.quantity'), eb.lit(0)).as('count'))
    .where('c.cart_id', '=', cartId)
    .where('a.is_available', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function readLines(db: Executor, cartId: string) {
  return db
    .selectFrom('cart_items as c')
    .innerJoin('artworks as a', 'a.id', 'c.artwork_id')
    .leftJoin('media as m', 'm.id', 'a.media_id')
    .leftJoin('artworks as o', 'o.id', 'a.original_id')
    .select([
      'c.id',
      'o.slug as original_slug',
      'c.quantity',
      'a.id as artwork_id',
      'a.slug',
      'a.artwork_type',
      'a.title_fr',
      'a.title_en',
      'a.technique_fr',
      'a.technique_en',
      'a.dimensions',
      'a.price_cents',
      'a.stock',
      'a.is_available',
      'a.is_sold',
      'm.sha256',
      'm.width',
      'm.height',
    ])
    .where('c.cart_id', '=', cartId)
    .orderBy('c.created_at', 'asc')
    .orderBy('c.id', 'asc')
    .execute();
}

/**
 * The cart as the visitor sees it, priced from the database and the settings. Lines whose work
 * was sold or withdrawn are removed (and reported once); print quantities above the stock left
 * are lowered to it.
 */
export async function getCart(
  db: Database,
  cartId: string | undefined,
  settings: SiteSettings,
): Promise<CartView> {
  if (!isCartId(cartId)) return emptyView(settings);
  const rows = await readLines(db, cartId);
  const removed: Localized[] = [];
  const lines: CartLine[] = [];
  for (const r of rows) {
    const original = r.artwork_type === 'original';
    const rule = sellability(r);
    if (!rule.sellable) {
      removed.push({ fr: r.title_fr, en: r.title_en });
      await db.deleteFrom('cart_items').where('id', '=', r.id).execute();
      continue;
    }
    let quantity = r.quantity;
    const maxQuantity = rule.max;
    if (quantity > maxQuantity) {
      quantity = maxQuantity;
      await db.updateTable('cart_items').set({ quantity }).where('id', '=', r.id).execute();
    }
    lines.push({
      id: r.id,
      artworkId: r.artwork_id,
      // The gallery card of a print is its original's (src/lib/groups.ts).
      slug: workKey(r.original_slug ?? r.slug),
      type: original ? 'original' : 'print',
      title: { fr: r.title_fr, en: r.title_en },
      technique: { fr: r.technique_fr, en: r.technique_en },
      dimensions: r.dimensions,
      image:
        r.sha256 !== null && r.width !== null && r.height !== null
          ? { sha256: r.sha256, width: r.width, height: r.height }
          : null,
      unitPriceCents: r.price_cents,
      quantity,
      lineTotalCents: r.price_cents * quantity,
      maxQuantity,
    });
  }
  const cart = await db
    .selectFrom('carts')
    .select('promo_code')
    .where('id', '=', cartId)
    .executeTakeFirst();
  // A code the owner has since deactivated no longer applies.
  const promo = cart?.promo_code ? findPromo(activePromoCodes(settings), cart.promo_code) : null;
  if (cart?.promo_code && !promo)
    await db.updateTable('carts').set({ promo_code: null }).where('id', '=', cartId).execute();
  return view(lines, promo, settings, removed);
}

function emptyView(settings: SiteSettings): CartView {
  return view([], null, settings, []);
}

function view(
  lines: CartLine[],
  promo: PromoCode | null,
  settings: SiteSettings,
  removed: Localized[],
): CartView {
  const rule = shippingRule(settings);
  return {
    lines,
    count: lines.reduce((n, l) => n + l.quantity, 0),
    promo,
    totals: computeTotals(lines, promo, rule),
    shipping: { defaultCents: rule.defaultCents, freeThresholdCents: rule.freeThresholdCents },
    currency: settings.currency,
    removed,
  };
}

/** Creates the cart row if needed and locks it for the rest of the transaction. */
async function lockCart(trx: Transaction<DB>, cartId: string): Promise<void> {
  await trx
    .insertInto('carts')
    .values({ id: cartId })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await trx.selectFrom('carts').select('id').where('id', '=', cartId).forUpdate().execute();
}

async function readWork(trx: Transaction<DB>, artworkId: number) {
  const work = await trx
    .selectFrom('artworks')
    .select(['id', 'artwork_type', 'title_fr', 'title_en', 'stock', 'is_available', 'is_sold'])
    .where('id', '=', artworkId)
    .executeTakeFirst();
  if (!work) throw new AppError('not_found', { message: 'No such artwork.' });
  return work;
}

function titleParams(work: { title_fr: string; title_en: string }) {
  return { title_fr: work.title_fr, title_en: work.title_en };
}

/**
 * Adds `quantity` of a work (storefront §4): an original only alone among originals, once, with
 * quantity 1; a print already present adds to its quantity; never beyond the prints left.
 */
export async function addToCart(
  db: Database,
  cartId: string,
  artworkId: number,
  quantity: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockCart(trx, cartId);
    const work = await readWork(trx, artworkId);
    const original = work.artwork_type === 'original';
    const lines = await trx
      .selectFrom('cart_items as c')
      .innerJoin('artworks as a', 'a.id', 'c.artwork_id')
      .select(['c.id', 'c.artwork_id', 'c.quantity', 'a.artwork_type'])
      .where('c.cart_id', '=', cartId)
      .execute();
    const existing = lines.find((l) => l.artwork_id === artworkId);
    if (original && sellability(work).sellable) {
      if (existing) throw new AppError('original_in_cart');
      if (lines.some((l) => l.artwork_type === 'original')) throw new AppError('original_limit');
    }
    assertSellable(work, (existing?.quantity ?? 0) + quantity, titleParams(work));
    if (existing) {
      await trx
        .updateTable('cart_items')
        .set((eb) => ({ quantity: eb('quantity', '+', quantity), updated_at: new Date() }))
        .where('id', '=', existing.id)
        .execute();
    } else {
      if (lines.length >= MAX_CART_LINES)
        throw new AppError('rejected', { message: 'The cart is full.' });
      await trx
        .insertInto('cart_items')
        .values({ cart_id: cartId, artwork_id: artworkId, quantity })
        .execute();
    }
    await trx
      .updateTable('carts')
      .set({ updated_at: new Date() })
      .where('id', '=', cartId)
      .execute();
  });
}

/** Sets a line's quantity; 0 or less removes it (storefront §4). */
export async function setLineQuantity(
  db: Database,
  cartId: string,
  lineId: number,
  quantity: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockCart(trx, cartId);
    const line = await trx
      .selectFrom('cart_items as c')
      .innerJoin('artworks as a', 'a.id', 'c.artwork_id')
      .select(['c.id', 'a.artwork_type', 'a.stock', 'a.title_fr', 'a.title_en'])
      .where('c.id', '=', lineId)
      .where('c.cart_id', '=', cartId)
      .executeTakeFirst();
    if (!line) throw new AppError('not_found', { message: 'No such cart line.' });
    if (quantity <= 0) {
      await trx.deleteFrom('cart_items').where('id', '=', lineId).execute();
      return;
    }
    if (line.artwork_type === 'original') {
      if (quantity > 1) throw new AppError('original_quantity');
    } else if (quantity > line.stock) {
      throw new AppError('out_of_stock', { params: { ...titleParams(line), stock: line.stock } });
    }
    await trx
      .updateTable('cart_items')
      .set({ quantity, updated_at: new Date() })
      .where('id', '=', lineId)
      .execute();
  });
}

export async function removeLine(db: Database, cartId: string, lineId: number): Promise<void> {
  const result = await db
    .deleteFrom('cart_items')
    .where('id', '=', lineId)
    .where('cart_id', '=', cartId)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n)
    throw new AppError('not_found', { message: 'No such cart line.' });
}

/** Empties the cart (its lines and its promo code). */
export async function clearCart(db: Executor, cartId: string): Promise<void> {
  await db.deleteFrom('cart_items').where('cart_id', '=', cartId).execute();
  await db.updateTable('carts').set({ promo_code: null }).where('id', '=', cartId).execute();
}

/** Applies a promo code to the cart, with the spec's messages in the spec's order. */
export async function applyCartPromo(
  db: Database,
  cartId: string,
  input: string,
  settings: SiteSettings,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockCart(trx, cartId);
    const cart = await trx
      .selectFrom('carts')
      .select('promo_code')
      .where('id', '=', cartId)
      .executeTakeFirstOrThrow();
    const codes = activePromoCodes(settings);
    const current = cart.promo_code && findPromo(codes, cart.promo_code) ? cart.promo_code : null;
    const result = applyPromo(current, input, codes);
    if (!result.ok) throw new AppError(result.reason);
    await trx
      .updateTable('carts')
      .set({ promo_code: result.promo.code, updated_at: new Date() })
      .where('id', '=', cartId)
      .execute();
  });
}

export async function removeCartPromo(db: Database, cartId: string): Promise<void> {
  await db
    .updateTable('carts')
    .set({ promo_code: null, updated_at: new Date() })
    .where('id', '=', cartId)
    .execute();
}
