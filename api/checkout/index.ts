// Checkout (storefront §2 "Checkout", ARCHITECTURE "Checkout"): from artwork ids, quantities and
// customer details, re-read every price, hold every work and store a pending order in one
// transaction; then create the Stripe Checkout Session and return its URL.
//
// Holding: an original by at most one active hold (the partial unique index
// holds_one_active_per_original refuses a second, even from a transaction running side by side);
// a print by decrementing its stock with `stock >= qty` in the UPDATE itself. Holds end when the
// session expires (webhook), when the sweeper finds them past their expiry, or when the same cart
// starts a new checkout.
//
// Issue 14: a checkout comes from the visitor's cart (./from-cart.ts) and each client holds little
// at once — one checkout per cart, a few per address (./limits.ts).
import { sql, type Transaction } from 'kysely';
import type Stripe from 'stripe';
import { isUniqueViolation, type Database } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { AppError, isAppError } from '../http/errors.ts';
import { log } from '../log.ts';
import {
  activePromoCodes,
  computeTotals,
  findPromo,
  shippingRule,
  type Totals,
} from '../pricing/index.ts';
import type { Payments } from '../payments/index.ts';
import { liveSettings } from '../settings/index.ts';
import { type Clock, systemClock, timeOf } from '../clock.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import { assertSellable } from '../catalog/sellability.ts';
import { isCartId } from '../cart/index.ts';
import { lockCartItems } from './from-cart.ts';
import { assertWithinClientLimit, clientKey, forgetFinishedClients } from './limits.ts';

/** How long a Checkout Session stays payable (Stripe's minimum is 30 minutes). */
export const SESSION_LIFETIME_SECONDS = 30 * 60 + 60;
/** Holds outlive their session a little, so the expiry webhook normally ends them first. */
export const HOLD_GRACE_SECONDS = 5 * 60;

export interface CheckoutAddress {
  street: string;
  city: string;
  postalCode: string;
  country: string;
  additionalInfo?: string | undefined;
}

export interface CheckoutRequest {
  locale: 'fr' | 'en';
  items: Array<{ artworkId: number; quantity: number }>;
  customer: { name: string; email: string; phone?: string | undefined };
  shippingAddress: CheckoutAddress;
  billingSameAsShipping: boolean;
  billingAddress?: CheckoutAddress | undefined;
  promoCode?: string | undefined;
  /** The buyer accepted the terms of sale (checked by the schema: no order without it). */
  acceptTerms: true;
}

export interface CheckoutContext {
  /**
   * The visitor's cart: what may be held comes from it (none, or an empty one: `cart_empty`),
   * and it is emptied once the payment succeeds.
   */
  cartId: string | undefined;
  /** The client's address, for the per-address limit (only its hash is stored, for a while). */
  ip: string;
  userId?: string | undefined;
  /** Absolute origin the buyer comes back to, e.g. https://galerie.example */
  siteUrl: string;
  now?: Clock;
}

export interface CheckoutResult {
  url: string;
  sessionId: string;
  orderId: string;
  orderNumber: string;
  totals: Totals;
}

interface HeldLine {
  artworkId: number;
  type: 'original' | 'print';
  title: { fr: string; en: string };
  technique: { fr: string; en: string };
  dimensions: string;
  unitPriceCents: number;
  quantity: number;
}

const titles = (t: { fr: string; en: string }) => ({ title_fr: t.fr, title_en: t.en });

async function nextOrderNumber(trx: Transaction<DB>, now: Date): Promise<string> {
  const { rows } = await sql<{ n: string }>`SELECT nextval('order_number_seq')::text AS n`.execute(
    trx,
  );
  return `GS-${now.getUTCFullYear()}-${rows[0]!.n.padStart(5, '0')}`;
}

/**
 * Ends the active holds of an order: prints go back to stock, originals become free again.
 * Returns how many holds were released.
 */
export async function releaseHolds(
  trx: Transaction<DB>,
  orderId: string,
  now: Date = systemClock(),
): Promise<number> {
  const holds = await trx
    .updateTable('holds')
    .set({ state: 'released', ended_at: now })
    .where('order_id', '=', orderId)
    .where('state', '=', 'active')
    .returning(['artwork_id', 'artwork_type', 'quantity'])
    .execute();
  for (const hold of holds) {
    if (hold.artwork_type === 'print')
      await trx
        .updateTable('artworks')
        .set((eb) => ({ stock: eb('stock', '+', hold.quantity), updated_at: now }))
        .where('id', '=', hold.artwork_id)
        .execute();
  }
  return holds.length;
}

/**
 * Closes an unpaid order whose payment will not happen (expired session, abandoned checkout):
 * releases its holds. Returns false when the order is already paid or closed.
 */
export async function closeUnpaidOrder(
  trx: Transaction<DB>,
  orderId: string,
  paymentStatus: typeof Payment.expired | typeof Payment.failed,
  now: Date = systemClock(),
): Promise<boolean> {
  const order = await trx
    .selectFrom('orders')
    .select(['payment_status', 'status'])
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  if (!order || order.payment_status !== Payment.unpaid) return false;
  await releaseHolds(trx, orderId, now);
  await trx
    .updateTable('orders')
    .set({
      payment_status: paymentStatus,
      status: Fulfilment.cancelled,
      client_key: null,
      updated_at: now,
    })
    .where('id', '=', orderId)
    .execute();
  return true;
}

/**
 * Lets go of the cart's earlier checkouts still waiting for their payment (storefront: the buyer
 * came back from the payment page and checks out again). Returns their sessions, to expire once
 * the new checkout is committed.
 */
async function supersedeCartCheckouts(
  trx: Transaction<DB>,
  cartId: string,
  now: Date,
): Promise<string[]> {
  const abandonedSessions: string[] = [];
  const earlier = await trx
    .selectFrom('orders')
    .select(['id', 'stripe_session_id'])
    .where('cart_id', '=', cartId)
    .where('payment_status', '=', Payment.unpaid)
    .where('status', '=', Fulfilment.pending)
    .execute();
  for (const o of earlier) {
    if (await closeUnpaidOrder(trx, o.id, Payment.expired, now))
      if (o.stripe_session_id) abandonedSessions.push(o.stripe_session_id);
  }
  return abandonedSessions;
}

/**
 * Holds every line of a new order: prints by taking them from the stock, originals by an active
 * hold only one checkout can have (holds_one_active_per_original).
 */
async function holdLines(
  trx: Transaction<DB>,
  orderId: string,
  lines: HeldLine[],
  holdUntil: Date,
  now: Date,
): Promise<void> {
  for (const line of lines) {
    if (line.type === 'print') {
      const taken = await trx
        .updateTable('artworks')
        .set((eb) => ({ stock: eb('stock', '-', line.quantity), updated_at: now }))
        .where('id', '=', line.artworkId)
        .where('stock', '>=', line.quantity)
        .where('is_available', '=', true)
        .returning('stock')
        .executeTakeFirst();
      if (!taken) {
        const left = await trx
          .selectFrom('artworks')
          .select('stock')
          .where('id', '=', line.artworkId)
          .executeTakeFirst();
        throw new AppError('out_of_stock', {
          params: { ...titles(line.title), stock: left?.stock ?? 0 },
        });
      }
    }
    try {
      // Another open checkout holding this original makes the partial unique index refuse.
      await trx
        .insertInto('holds')
        .values({
          order_id: orderId,
          artwork_id: line.artworkId,
          artwork_type: line.type,
          quantity: line.quantity,
          state: 'active',
          expires_at: holdUntil,
          created_at: now,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('artwork_held', { params: titles(line.title), cause: error });
      throw error;
    }
  }
}

/**
 * The buyer who lost the race for an original is told when to try again (issue 25 §9): the
 * `artwork_held` refusal carries the other checkout's hold expiry as `until` (ISO 8601) — the
 * latest moment the work is back on sale if that payment does not happen. Read after the failed
 * transaction (PostgreSQL reads nothing more in an aborted one).
 */
async function withHoldExpiry(
  db: Database,
  error: unknown,
  items: CheckoutRequest['items'],
): Promise<unknown> {
  if (!isAppError(error, 'artwork_held') || items.length === 0) return error;
  const hold = await db
    .selectFrom('holds')
    .select((eb) => eb.fn.max('expires_at').as('until'))
    .where(
      'artwork_id',
      'in',
      items.map((item) => item.artworkId),
    )
    .where('artwork_type', '=', 'original')
    .where('state', '=', 'active')
    .executeTakeFirst();
  if (!hold?.until) return error;
  return new AppError('artwork_held', {
    params: { ...error.params, until: new Date(hold.until).toISOString() },
    cause: error,
  });
}

export async function createCheckout(
  deps: { db: Database; payments: Payments },
  input: CheckoutRequest,
  context: CheckoutContext,
): Promise<CheckoutResult> {
  const { db, payments } = deps;
  if (!payments.ready) throw new AppError('payment_not_configured');
  // No cart, nothing to hold: refused before any query (lockCartItems checks it again, locked).
  if (!isCartId(context.cartId)) throw new AppError('cart_empty');
  const now = timeOf(context);
  const settings = await liveSettings(db);
  const codes = activePromoCodes(settings);
  const promo = input.promoCode?.trim() ? findPromo(codes, input.promoCode) : null;
  if (input.promoCode?.trim() && !promo) throw new AppError('promo_invalid');
  const client = clientKey(context.ip);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000);
  const holdUntil = new Date(expiresAt.getTime() + HOLD_GRACE_SECONDS * 1000);

  // 1. One transaction: the cart locked and checked, its earlier checkouts let go, prices re-read,
  // works held, order stored, the client's limit checked.
  const { order, lines, totals, abandonedSessions } = await db
    .transaction()
    .execute(async (trx) => {
      const { cartId, wanted } = await lockCartItems(trx, context.cartId, input.items);
      const abandonedSessions = await supersedeCartCheckouts(trx, cartId, now);

      const works = await trx
        .selectFrom('artworks')
        .select([
          'id',
          'artwork_type',
          'title_fr',
          'title_en',
          'technique_fr',
          'technique_en',
          'dimensions',
          'price_cents',
          'stock',
          'is_available',
          'is_sold',
        ])
        .where('id', 'in', [...wanted.keys()])
        .execute();
      const byId = new Map(works.map((w) => [w.id, w]));
      const lines: HeldLine[] = [];
      for (const [artworkId, quantity] of wanted) {
        const w = byId.get(artworkId);
        if (!w)
          throw new AppError('unavailable', {
            params: { title_fr: `#${artworkId}`, title_en: `#${artworkId}` },
          });
        const title = { fr: w.title_fr, en: w.title_en };
        const original = w.artwork_type === 'original';
        assertSellable(w, quantity, titles(title));
        lines.push({
          artworkId,
          type: original ? 'original' : 'print',
          title,
          technique: { fr: w.technique_fr, en: w.technique_en },
          dimensions: w.dimensions,
          unitPriceCents: w.price_cents,
          quantity,
        });
      }
      if (lines.filter((l) => l.type === 'original').length > 1)
        throw new AppError('original_limit');
      const totals = computeTotals(lines, promo, shippingRule(settings));
      if (totals.totalCents <= 0) throw new AppError('cart_empty');

      const shipping = input.shippingAddress;
      const billing = input.billingSameAsShipping ? shipping : input.billingAddress;
      const order = await trx
        .insertInto('orders')
        .values({
          order_number: await nextOrderNumber(trx, now),
          user_id: context.userId ?? null,
          cart_id: cartId,
          client_key: client,
          customer_name: input.customer.name,
          customer_email: input.customer.email,
          customer_phone: input.customer.phone || null,
          shipping_address: JSON.stringify(shipping),
          billing_address: billing ? JSON.stringify(billing) : null,
          locale: input.locale,
          currency: settings.currency,
          subtotal_cents: totals.subtotalCents,
          promo_code: promo?.code ?? null,
          discount_cents: totals.discountCents,
          shipping_cents: totals.shippingCents,
          total_cents: totals.totalCents,
          created_at: now,
          updated_at: now,
        })
        .returning(['id', 'order_number'])
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('order_items')
        .values(
          lines.map((l) => ({
            order_id: order.id,
            artwork_id: l.artworkId,
            title: l.title[input.locale],
            artwork_type: l.type,
            unit_price_cents: l.unitPriceCents,
            quantity: l.quantity,
          })),
        )
        .execute();

      await holdLines(trx, order.id, lines, holdUntil, now);
      await assertWithinClientLimit(trx, client, order.id, now, HOLD_GRACE_SECONDS);
      return { order, lines, totals, abandonedSessions };
    })
    .catch(async (error: unknown) => {
      throw await withHoldExpiry(db, error, input.items);
    });

  // 2. The payment session, outside the transaction (no row lock waits on the network).
  let session: Stripe.Checkout.Session;
  try {
    session = await createSession(payments, {
      orderId: order.id,
      orderNumber: order.order_number,
      lines,
      totals,
      promoCode: promo?.code ?? null,
      email: input.customer.email,
      locale: input.locale,
      siteUrl: context.siteUrl,
      expiresAt,
      currency: settings.currency,
    });
  } catch (error) {
    await db.transaction().execute((trx) => closeUnpaidOrder(trx, order.id, Payment.failed));
    log.error(
      { err: error },
      `Checkout ${order.order_number}: the payment session could not be created`,
    );
    throw new AppError('payment_failed', { cause: error });
  }
  await db
    .updateTable('orders')
    .set({ stripe_session_id: session.id, updated_at: new Date() })
    .where('id', '=', order.id)
    .execute();
  for (const id of abandonedSessions) void expireSessionQuietly(payments, id);
  if (!session.url)
    throw new AppError('payment_failed', { message: 'The payment session has no URL.' });
  return {
    url: session.url,
    sessionId: session.id,
    orderId: order.id,
    orderNumber: order.order_number,
    totals,
  };
}

const SHIPPING_NAME = { fr: 'Livraison', en: 'Shipping' };
const TYPE_NAME = {
  original: { fr: 'Original', en: 'Original' },
  print: { fr: 'Tirage', en: 'Print' },
};

async function createSession(
  payments: Payments,
  o: {
    orderId: string;
    orderNumber: string;
    lines: HeldLine[];
    totals: Totals;
    promoCode: string | null;
    email: string;
    locale: 'fr' | 'en';
    siteUrl: string;
    expiresAt: Date;
    /** The site's currency setting (Stripe wants it lower-case). */
    currency: string;
  },
): Promise<Stripe.Checkout.Session> {
  const currency = o.currency.toLowerCase();
  const { stripe } = payments;
  const prefix = o.locale === 'en' ? '/en' : '';
  const base = o.siteUrl.replace(/\/+$/, '');
  const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = o.lines.map((l) => {
    const description = [l.technique[o.locale], l.dimensions].filter(Boolean).join(', ');
    return {
      quantity: l.quantity,
      price_data: {
        currency,
        unit_amount: l.unitPriceCents,
        product_data: {
          name: `${l.title[o.locale]} – ${TYPE_NAME[l.type][o.locale]}`,
          ...(description ? { description } : {}),
          metadata: { artwork_id: String(l.artworkId) },
        },
      },
    };
  });
  if (o.totals.shippingCents > 0)
    lineItems.push({
      quantity: 1,
      price_data: {
        currency,
        unit_amount: o.totals.shippingCents,
        product_data: { name: SHIPPING_NAME[o.locale] },
      },
    });
  let discounts: Stripe.Checkout.SessionCreateParams.Discount[] | undefined;
  if (o.totals.discountCents > 0) {
    const coupon = await stripe.coupons.create(
      {
        amount_off: o.totals.discountCents,
        currency,
        duration: 'once',
        name: o.promoCode ?? 'Promo',
        max_redemptions: 1,
      },
      { idempotencyKey: `coupon-${o.orderId}` },
    );
    discounts = [{ coupon: coupon.id }];
  }
  return stripe.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: lineItems,
      ...(discounts ? { discounts } : {}),
      customer_email: o.email,
      client_reference_id: o.orderId,
      metadata: { order_id: o.orderId, order_number: o.orderNumber },
      locale: o.locale,
      success_url: `${base}${prefix}/success?session_id={CHECKOUT_SESSION_ID}`,
      // The cancel page gives the works back at once (./cancel.ts), for this checkout only.
      cancel_url: `${base}${prefix}/cancel?order=${o.orderId}`,
      expires_at: Math.floor(o.expiresAt.getTime() / 1000),
    },
    { idempotencyKey: `checkout-session-${o.orderId}` },
  );
}

/** Best effort: an abandoned session stops being payable (its holds are already released). */
export async function expireSessionQuietly(payments: Payments, sessionId: string): Promise<void> {
  try {
    await payments.stripe.checkout.sessions.expire(sessionId);
  } catch {
    // Already complete or expired: nothing to do.
  }
}

/**
 * The sweeper: closes unpaid orders whose holds have passed their expiry (a lost expiry webhook,
 * a crash). Returns the number of orders closed.
 */
export async function sweepExpiredHolds(db: Database, now: Date = systemClock()): Promise<number> {
  const due = await db
    .selectFrom('holds')
    .select('order_id')
    .distinct()
    .where('state', '=', 'active')
    .where('expires_at', '<', now)
    .execute();
  let closed = 0;
  for (const { order_id } of due) {
    const done = await db.transaction().execute(async (trx) => {
      if (await closeUnpaidOrder(trx, order_id, Payment.expired, now)) return true;
      // A paid order with a hold still active (cannot normally happen): end the hold only.
      await trx
        .updateTable('holds')
        .set({ state: 'released', ended_at: now })
        .where('order_id', '=', order_id)
        .where('state', '=', 'active')
        .where('expires_at', '<', now)
        .execute();
      return false;
    });
    if (done) closed += 1;
  }
  // Paid orders need their client no more (closed ones forgot it when closing).
  await forgetFinishedClients(db);
  return closed;
}
