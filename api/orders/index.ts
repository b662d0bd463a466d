// Orders after payment (ARCHITECTURE "Fulfilment happens in the webhook"): the Stripe events turn
// a pending order into a paid one — or close it — in one transaction, exactly once per event id.
// The success page only reads the state written here.
import type Stripe from 'stripe';
import type { Database } from '../db/index.ts';
import { closeUnpaidOrder, releaseHolds } from '../checkout/index.ts';
import { clearCart } from '../cart/index.ts';
import { issueInvoice } from '../invoices/index.ts';
import { issueCertificates } from '../certificates/index.ts';
import {
  assignEditionNumbers,
  EditionNumbersExhausted,
  editionLabelsOfItems,
} from '../editions/index.ts';
import { AppError } from '../http/errors.ts';
import { BUYER_ORDER_COLUMNS, buyerOrders, type BuyerOrder } from './view.ts';
import { systemClock } from '../clock.ts';
import { faultPoint } from '../faults.ts';
import { log } from '../log.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';

export interface OrderLine {
  title: string;
  type: 'original' | 'print';
  quantity: number;
  unitPriceCents: number;
  /** The copies' edition labels ('7/50', 'EA 1/5'); empty for an original or an unnumbered print. */
  editions: string[];
}

export interface OrderSummary {
  id: string;
  number: string;
  email: string;
  name: string;
  locale: 'fr' | 'en';
  status: string;
  paymentStatus: string;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  promoCode: string | null;
  paymentIntentId: string | null;
  sessionId: string | null;
  createdAt: string;
  shippingAddress: unknown;
  lines: OrderLine[];
}

export type FulfilmentOutcome =
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'paid'; order: OrderSummary }
  | { kind: 'refund'; order: OrderSummary; paymentIntentId: string; reason: string }
  | { kind: 'expired'; orderId: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function readOrder(
  db: Database,
  where: { id?: string; sessionId?: string },
): Promise<OrderSummary | null> {
  let query = db.selectFrom('orders').selectAll();
  if (where.id) query = query.where('id', '=', where.id);
  else if (where.sessionId) query = query.where('stripe_session_id', '=', where.sessionId);
  else return null;
  const o = await query.executeTakeFirst();
  if (!o) return null;
  const items = await db
    .selectFrom('order_items')
    .select(['id', 'title', 'artwork_type', 'quantity', 'unit_price_cents'])
    .where('order_id', '=', o.id)
    .orderBy('id')
    .execute();
  const editions = await editionLabelsOfItems(db, [o.id]);
  return {
    id: o.id,
    number: o.order_number,
    email: o.customer_email,
    name: o.customer_name,
    locale: o.locale === 'en' ? 'en' : 'fr',
    status: o.status,
    paymentStatus: o.payment_status,
    currency: o.currency,
    subtotalCents: o.subtotal_cents,
    discountCents: o.discount_cents,
    shippingCents: o.shipping_cents,
    totalCents: o.total_cents,
    promoCode: o.promo_code,
    paymentIntentId: o.stripe_payment_intent_id,
    sessionId: o.stripe_session_id,
    createdAt: new Date(o.created_at).toISOString(),
    shippingAddress: o.shipping_address,
    lines: items.map((i) => ({
      title: i.title,
      type: i.artwork_type === 'original' ? 'original' : 'print',
      quantity: i.quantity,
      unitPriceCents: i.unit_price_cents,
      editions: editions.get(i.id) ?? [],
    })),
  };
}

/**
 * What the success page shows: verifying until the webhook has spoken, then confirmed or failed,
 * with the order as the buyer sees it (no internal ids) and the address its mail goes to.
 */
export async function orderStatusForSession(
  db: Database,
  sessionId: string,
): Promise<{ state: 'verifying' | 'confirmed' | 'failed'; order: BuyerOrder & { email: string } }> {
  if (!/^cs_[A-Za-z0-9_]{8,255}$/.test(sessionId)) throw new AppError('not_found');
  const row = await db
    .selectFrom('orders')
    .select([...BUYER_ORDER_COLUMNS, 'customer_email'])
    .where('stripe_session_id', '=', sessionId)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', { message: 'No order for this payment session.' });
  const [order] = await buyerOrders(db, [row]);
  const state =
    row.payment_status === Payment.paid
      ? 'confirmed'
      : row.payment_status === Payment.unpaid
        ? 'verifying'
        : 'failed';
  return { state, order: { ...order!, email: row.customer_email } };
}

function paymentIntentOf(session: Stripe.Checkout.Session): string | null {
  const pi = session.payment_intent;
  if (!pi) return null;
  return typeof pi === 'string' ? pi : pi.id;
}

/**
 * Applies one verified Stripe event. Recording the event id and every change it causes share one
 * transaction, so a repeated or concurrent delivery is a no-op and a crash leaves nothing half done.
 * Mail and refunds happen after the commit, by the caller, from the returned outcome.
 */
export async function applyStripeEvent(
  db: Database,
  event: Stripe.Event,
  now: Date = systemClock(),
): Promise<FulfilmentOutcome> {
  return db.transaction().execute(async (trx): Promise<FulfilmentOutcome> => {
    const recorded = await trx
      .insertInto('webhook_events')
      .values({ id: event.id, type: event.type, received_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!recorded) return { kind: 'duplicate' };

    if (
      event.type !== 'checkout.session.completed' &&
      event.type !== 'checkout.session.async_payment_succeeded' &&
      event.type !== 'checkout.session.expired'
    )
      return { kind: 'ignored', reason: `event type ${event.type}` };

    // Issue 14: an event changes only the order created with its session (the id checkout stored)
    // and whose id the session's metadata repeats; a session made for another order — even one
    // naming this order in its metadata — changes nothing.
    const session = event.data.object;
    const orderId = session.metadata?.['order_id'];
    const order = await trx
      .selectFrom('orders')
      .select(['id', 'payment_status', 'total_cents', 'currency', 'cart_id'])
      .where('stripe_session_id', '=', session.id)
      .forUpdate()
      .executeTakeFirst();
    if (!order || !orderId || !UUID.test(orderId) || orderId !== order.id) {
      const reason = order
        ? `session ${session.id} names order ${String(orderId).slice(0, 64)}, not its own order ${order.id}`
        : `no order for session ${session.id}`;
      log.warn(`Stripe event ${event.id} (${event.type}) ignored: ${reason}`);
      return { kind: 'ignored', reason };
    }

    if (event.type === 'checkout.session.expired') {
      // An expiry after the payment (or a second one) changes nothing.
      const closed = await closeUnpaidOrder(trx, order.id, Payment.expired, now);
      return closed
        ? { kind: 'expired', orderId: order.id }
        : { kind: 'ignored', reason: 'order not open' };
    }

    if (session.payment_status !== Payment.paid)
      return { kind: 'ignored', reason: 'session not paid yet' };
    if (order.payment_status === Payment.paid || order.payment_status === Payment.refunded)
      return { kind: 'ignored', reason: `order already ${order.payment_status}` };
    const paymentIntentId = paymentIntentOf(session);

    const refund = async (reason: string): Promise<FulfilmentOutcome> => {
      await releaseHolds(trx, order.id, now);
      await trx
        .updateTable('orders')
        .set({
          payment_status: Payment.refunded,
          status: Fulfilment.cancelled,
          stripe_session_id: session.id,
          stripe_payment_intent_id: paymentIntentId,
          // Until Stripe has made the refund (api/payments/webhook.ts, refundLatePayment);
          // reconciliation retries it after a crash or a refusal (docs/decisions/033).
          refund_pending_at: paymentIntentId ? now : null,
          updated_at: now,
        })
        .where('id', '=', order.id)
        .execute();
      const summary = (await readOrder(trx, { id: order.id }))!;
      if (!paymentIntentId)
        return { kind: 'ignored', reason: `cannot refund without payment intent: ${reason}` };
      return { kind: 'refund', order: summary, paymentIntentId, reason };
    };

    if (
      session.amount_total !== order.total_cents ||
      (session.currency ?? '').toUpperCase() !== order.currency.toUpperCase()
    ) {
      return refund(`amount ${session.amount_total} ${session.currency} does not match the order`);
    }

    // Every line must still be held; holds released meanwhile (late payment) are taken again if
    // the work is still free, otherwise the whole payment is refunded.
    const holds = await trx
      .selectFrom('holds')
      .select(['id', 'artwork_id', 'artwork_type', 'quantity', 'state'])
      .where('order_id', '=', order.id)
      .forUpdate()
      .execute();
    const items = await trx
      .selectFrom('order_items')
      .select(['artwork_id', 'artwork_type', 'quantity'])
      .where('order_id', '=', order.id)
      .execute();
    for (const item of items) {
      if (item.artwork_id === null) return refund('a work of the order was deleted');
      const active = holds.find((h) => h.artwork_id === item.artwork_id && h.state === 'active');
      if (active) continue;
      if (item.artwork_type === 'original') {
        const free = await trx
          .selectFrom('artworks')
          .select('id')
          .where('id', '=', item.artwork_id)
          .where('is_sold', '=', false)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('holds')
                  .select('id')
                  .whereRef('holds.artwork_id', '=', 'artworks.id')
                  .where('holds.state', '=', 'active'),
              ),
            ),
          )
          .forUpdate()
          .executeTakeFirst();
        if (!free) return refund('an original was sold or held by another buyer');
      } else {
        const taken = await trx
          .updateTable('artworks')
          .set((eb) => ({ stock: eb('stock', '-', item.quantity), updated_at: now }))
          .where('id', '=', item.artwork_id)
          .where('stock', '>=', item.quantity)
          .returning('id')
          .executeTakeFirst();
        if (!taken) return refund('not enough prints left');
      }
      await trx
        .insertInto('holds')
        .values({
          order_id: order.id,
          artwork_id: item.artwork_id,
          artwork_type: item.artwork_type,
          quantity: item.quantity,
          state: 'active',
          expires_at: now,
          created_at: now,
        })
        .execute();
    }

    // Each copy of a numbered print takes the lowest free number of its edition, here, before
    // anything of the sale is written: an edition with no number left refunds the payment whole
    // (docs/decisions/045; the back office keeps the stock within the free numbers, so it means a bug).
    try {
      await assignEditionNumbers(trx, order.id, now);
    } catch (error) {
      if (!(error instanceof EditionNumbersExhausted)) throw error;
      log.error(`Order ${order.id}: ${error.message}; the payment is refunded`);
      return refund(error.message);
    }

    // Sale: originals sold, holds converted (print stock was already taken by the hold).
    const originals = items.filter((i) => i.artwork_type === 'original' && i.artwork_id !== null);
    for (const item of originals)
      await trx
        .updateTable('artworks')
        .set({ is_sold: true, stock: 0, updated_at: now })
        .where('id', '=', item.artwork_id!)
        .execute();
    await trx
      .updateTable('holds')
      .set({ state: 'converted', ended_at: now })
      .where('order_id', '=', order.id)
      .where('state', '=', 'active')
      .execute();
    await trx
      .updateTable('orders')
      .set({
        payment_status: Payment.paid,
        status: Fulfilment.confirmed,
        paid_at: now,
        // Until the caller has sent its mails (api/payments/webhook.ts, sendPaidOrderMails).
        mails_pending_at: now,
        stripe_session_id: session.id,
        stripe_payment_intent_id: paymentIntentId,
        updated_at: now,
      })
      .where('id', '=', order.id)
      .execute();
    if (order.cart_id) await clearCart(trx, order.cart_id);
    // A certificate per original and per numbered copy, signed in this transaction (decision 046).
    await issueCertificates(trx, order.id, now);
    // The invoice number is taken in this transaction, last, so a payment that rolls back gives
    // its number back and the counter's lock is held briefly (docs/decisions/019).
    await issueInvoice(trx, order.id, now);
    const paid = (await readOrder(trx, { id: order.id }))!;
    await faultPoint('fulfil-commit');
    return { kind: 'paid', order: paid };
  });
}
