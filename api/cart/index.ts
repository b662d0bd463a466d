// The visitor's cart, keyed by the opaque id in the HttpOnly cart cookie (cartCookieName). Every cart
// rule of storefront §4–§5 is enforced here, on the server, inside a transaction that locks the
// cart row, so two tabs adding at once cannot put two originals in one cart.
import { randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { prepared, type Database, type Executor } from '../db/index.ts';
import { assertSellable, sellability } from '../catalog/sellability.ts';
import { hostCookie } from '../http/cookies.ts';
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

/** The cart cookie's bare name: `__Host-cart-session-id` over HTTPS (cartCookieName). */
export const CART_COOKIE = 'cart-session-id';

/**
 * The cart cookie's name where cookies are `secure`. Its id is the cart (and, at checkout, what a
 * buyer typed): a planted one would share a cart with whoever planted it (decision 038).
 */
export function cartCookieName(secure: boolean): string {
  return hostCookie(CART_COOKIE, secure);
}
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

/** A cart line with what the visitor's view shows of its work (one row of LINE_COLUMNS). */
interface LineRow {
  id: number;
  original_slug: string | null;
  quantity: number;
  artwork_id: number;
  slug: string;
  artwork_type: string;
  title_fr: string;
  title_en: string;
  technique_fr: string;
  technique_en: string;
  dimensions: string;
  price_cents: number;
  stock: number;
  is_available: boolean;
  is_sold: boolean;
  sha256: string | null;
  width: number | null;
  height: number | null;
  /** An original held by another cart's checkout: when that hold ends (a timestamp as JSON gives it). */
  held_until: string | Date | null;
}

/** The cart as stored, read in one statement: its lines (in the order added) and its promo code. */
export interface StoredCart {
  lines: LineRow[];
  promoCode: string | null;
}

/**
 * A work's columns for a cart line's view, from `a` (the work), `m` (its image), `o` (its original),
 * and, for an original another cart's checkout holds, when that hold ends (issue 25 §9: the buyer
 * who lost the race is told when to try again; the cart's own checkout is not "another buyer").
 */
const workColumns = (cartId: string) => sql`a.slug, o.slug AS original_slug, a.artwork_type,
  a.title_fr, a.title_en, a.technique_fr, a.technique_en, a.dimensions, a.price_cents, a.stock,
  a.is_available, a.is_sold, m.sha256, m.width, m.height,
  CASE WHEN a.artwork_type = 'original' THEN (SELECT max(h.expires_at) FROM holds h
    JOIN orders ho ON ho.id = h.order_id
    WHERE h.artwork_id = a.id AND h.artwork_type = 'original' AND h.state = 'active'
      AND ho.cart_id IS DISTINCT FROM ${cartId})
  END AS held_until`;
const WORK_JOINS = sql`LEFT JOIN media m ON m.id = a.media_id LEFT JOIN artworks o ON o.id = a.original_id`;

/** The cart's lines as one JSON array and its promo code, as one row (a snapshot of one statement). */
const storedCartSql = (cartId: string) => sql`
  (SELECT promo_code FROM carts WHERE id = ${cartId}) AS promo_code,
  (SELECT coalesce(json_agg(l ORDER BY l.created_at, l.id), '[]'::json) FROM (
     SELECT c.id, c.quantity, c.artwork_id, c.created_at, ${workColumns(cartId)}
     FROM cart_items c JOIN artworks a ON a.id = c.artwork_id ${WORK_JOINS}
     WHERE c.cart_id = ${cartId}) l) AS lines`;

async function readStoredCart(db: Executor, cartId: string): Promise<StoredCart> {
  const { rows } = await sql<{
    promo_code: string | null;
    lines: LineRow[];
  }>`${prepared('cart_read_v2')} SELECT ${storedCartSql(cartId)}`.execute(db);
  return { lines: rows[0]?.lines ?? [], promoCode: rows[0]?.promo_code ?? null };
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
  stored?: StoredCart,
): Promise<CartView> {
  if (!isCartId(cartId)) return emptyView(settings);
  const { lines: rows, promoCode } = stored ?? (await readStoredCart(db, cartId));
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
      heldUntil: r.held_until ? new Date(r.held_until).toISOString() : null,
    });
  }
  // A code the owner has since deactivated no longer applies.
  const promo = promoCode ? findPromo(activePromoCodes(settings), promoCode) : null;
  if (promoCode && !promo)
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

function titleParams(work: { title_fr: string; title_en: string }) {
  return { title_fr: work.title_fr, title_en: work.title_en };
}

/** The work asked for, with what the cart already holds, as the add statement saw them. */
interface AddFacts extends Omit<LineRow, 'quantity' | 'artwork_id'> {
  existing: number | null;
  line_count: number;
  has_original: boolean;
  added: { id: number; quantity: number } | null;
  promo_code: string | null;
  lines: LineRow[];
}

/**
 * One statement (issue 14 §2): reads the work and the cart, adds the line only when every rule of
 * storefront §4 allows it, and returns what it saw. Concurrent adds to one cart are kept right by
 * the database: a line's quantity is re-checked against the stock on the row it updates, and the
 * unique index cart_items_one_original (migration 0850) refuses a second original; the cart row is
 * created (or touched) only when a line was added. Its commit does not wait for the WAL to reach
 * the disk (docs/decisions/030): a crash of PostgreSQL may forget the last adds of a fraction of a
 * second, never half of one, and nothing that holds a work or takes money commits that way.
 */
const addSql = (
  cartId: string,
  artworkId: number,
  quantity: number,
) => sql<AddFacts>`${prepared('cart_add_v3')}
WITH async_commit AS (
  SELECT set_config('synchronous_commit', 'off', true)
), w AS (
  SELECT a.id, ${workColumns(cartId)} FROM artworks a ${WORK_JOINS} WHERE a.id = ${artworkId}
), lines AS (
  SELECT artwork_id, quantity, is_original FROM cart_items WHERE cart_id = ${cartId}
), facts AS (
  SELECT w.*,
    (SELECT quantity FROM lines WHERE artwork_id = w.id) AS existing,
    (SELECT count(*)::int FROM lines) AS line_count,
    EXISTS (SELECT 1 FROM lines WHERE is_original) AS has_original
  FROM w
), added AS (
  INSERT INTO cart_items (cart_id, artwork_id, quantity, is_original)
  SELECT ${cartId}, f.id, ${quantity}::int, f.artwork_type = 'original' FROM facts f
  WHERE f.is_available
    AND CASE WHEN f.artwork_type = 'original'
      THEN NOT f.is_sold AND f.existing IS NULL AND NOT f.has_original AND ${quantity}::int <= 1
      ELSE coalesce(f.existing, 0) + ${quantity}::int <= f.stock END
    AND (f.existing IS NOT NULL OR f.line_count < ${MAX_CART_LINES}::int)
  ON CONFLICT (cart_id, artwork_id) DO UPDATE
    SET quantity = cart_items.quantity + excluded.quantity, updated_at = now()
    WHERE NOT cart_items.is_original
      AND cart_items.quantity + excluded.quantity <= (SELECT stock FROM w)
  RETURNING id, quantity
), cart AS (
  INSERT INTO carts (id) SELECT ${cartId} WHERE EXISTS (SELECT 1 FROM added)
  ON CONFLICT (id) DO UPDATE SET updated_at = now()
)
SELECT f.*, (SELECT row_to_json(added) FROM added) AS added, ${storedCartSql(cartId)}
FROM facts f, async_commit`;

/** The buyer's error for an add the statement refused, from what it saw (spec order). */
function refusal(f: AddFacts, quantity: number): AppError | null {
  const original = f.artwork_type === 'original';
  if (original && sellability(f).sellable) {
    if (f.existing !== null) return new AppError('original_in_cart');
    if (f.has_original) return new AppError('original_limit');
  }
  try {
    assertSellable(f, (f.existing ?? 0) + quantity, titleParams(f));
  } catch (error) {
    return error as AppError;
  }
  if (f.existing === null && f.line_count >= MAX_CART_LINES)
    return new AppError('rejected', { message: 'The cart is full.' });
  return null;
}

/** The line just added, with its work's columns as the statement read them. */
function newLine(f: AddFacts, added: { id: number; quantity: number }): LineRow {
  return {
    id: added.id,
    quantity: added.quantity,
    artwork_id: f.id,
    original_slug: f.original_slug,
    slug: f.slug,
    artwork_type: f.artwork_type,
    title_fr: f.title_fr,
    title_en: f.title_en,
    technique_fr: f.technique_fr,
    technique_en: f.technique_en,
    dimensions: f.dimensions,
    price_cents: f.price_cents,
    stock: f.stock,
    is_available: f.is_available,
    is_sold: f.is_sold,
    sha256: f.sha256,
    width: f.width,
    height: f.height,
    held_until: f.held_until,
  };
}

const isUniqueViolation = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === '23505';

/**
 * Adds `quantity` of a work (storefront §4): an original only alone among originals, once, with
 * quantity 1; a print already present adds to its quantity; never beyond the prints left.
 * Returns the cart as stored right after the add, for the answer (getCart's `stored`).
 */
export async function addToCart(
  db: Database,
  cartId: string,
  artworkId: number,
  quantity: number,
): Promise<StoredCart> {
  // A concurrent change to the same cart between the statement's snapshot and its write (two tabs)
  // makes it add nothing, or trips the one-original index: a fresh statement then sees that change
  // and answers with the right reason.
  for (let attempt = 1; ; attempt++) {
    let facts: AddFacts | undefined;
    try {
      facts = (await addSql(cartId, artworkId, quantity).execute(db)).rows[0];
    } catch (error) {
      if (isUniqueViolation(error) && attempt < 3) continue;
      if (isUniqueViolation(error)) throw new AppError('original_limit');
      throw error;
    }
    if (!facts) throw new AppError('not_found', { message: 'No such artwork.' });
    const { added } = facts;
    if (added) {
      const lines = facts.lines.filter((l) => l.artwork_id !== artworkId);
      const line = facts.lines.find((l) => l.artwork_id === artworkId);
      if (line) lines.splice(facts.lines.indexOf(line), 0, { ...line, quantity: added.quantity });
      else lines.push(newLine(facts, added));
      return { lines, promoCode: facts.promo_code };
    }
    const error = refusal(facts, quantity);
    if (error) throw error;
    if (attempt >= 3)
      throw new AppError('rejected', { message: 'The cart changed meanwhile; try again.' });
  }
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
