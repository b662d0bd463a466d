// The whole refund of a paid order (issue 13 §2 'Annulée' with refund, §9 withdrawal completed):
// money back through Stripe exactly once, the order cancelled, a credit note issued, and — when
// the owner chose so — the works put back on sale. The Stripe call cannot sit inside a database
// transaction, so the refund runs in three steps (docs/decisions/019):
//   1. a transaction locks the order, checks it can be refunded and records the request in the
//      audit log (committed before any money moves: a crash afterwards leaves a visible trace);
//   2. the refund is created with the idempotency key `refund-<order id>` and the order's whole
//      amount, so a repeat — a double click, a retry after a crash — gets the same refund back;
//   3. a transaction locks the order again and records the refund only if nobody did meanwhile.
// Calling refundOrder again is how an interrupted refund is finished. After refunds of some lines
// (./refund-lines.ts, issue 27) the whole refund gives back what remains, with its credit note.
import type Stripe from 'stripe';
import { audit, type Actor } from '../admin/audit.ts';
import { requestPublish } from '../build/publish.ts';
import { timeOf, type Clock } from '../clock.ts';
import type { Database, Executor } from '../db/index.ts';
import { findInvoice, issueCreditNote, type RefundReason } from '../invoices/index.ts';
import { remainderPart, type RefundableOrder } from './refund-amounts.ts';
import { getPayments } from '../payments/index.ts';
import { orderReturned } from './returns.ts';
import type { InvoiceRef } from '../../src/schemas/admin-orders.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';

export type { RefundReason };

export interface RefundOptions {
  actor: Actor;
  /** Put the works back on sale: originals available again, print stock given back. */
  restock: boolean;
  reason: RefundReason;
  now?: Clock;
}

export interface RefundResult {
  orderId: string;
  orderNumber: string;
  refundedCents: number;
  /** Stripe's refund id (null only if Stripe had refunded the charge by other means). */
  stripeRefundId: string | null;
  refundedAt: string;
  creditNote: InvoiceRef | null;
  /** Works put back on sale by this call. */
  restocked: { artworkId: number; type: 'original' | 'print'; quantity: number }[];
  /** True when the order had been refunded already (by an earlier or a concurrent call). */
  already: boolean;
}

export type NotRefundableReason = 'not_found' | 'not_paid' | 'no_payment';

const NOT_REFUNDABLE_MESSAGES: Record<NotRefundableReason, string> = {
  not_found: 'Commande introuvable.',
  not_paid: 'Cette commande ne peut pas être remboursée : elle n’a pas été payée.',
  no_payment:
    'Cette commande ne peut pas être remboursée ici : son paiement Stripe est introuvable. Remboursez-la depuis le tableau de bord Stripe.',
};

/** The order cannot be refunded (the endpoint answers 409 with this French message). */
export class NotRefundableError extends Error {
  override name = 'NotRefundableError';
  readonly status = 409;
  readonly code = 'not_refundable';
  readonly reason: NotRefundableReason;
  constructor(reason: NotRefundableReason) {
    super(NOT_REFUNDABLE_MESSAGES[reason]);
    this.reason = reason;
  }
}

/** Stripe refused or could not be reached; nothing was recorded and the owner may try again. */
export class RefundFailedError extends Error {
  override name = 'RefundFailedError';
  readonly status = 502;
  readonly code = 'refund_failed';
  constructor(cause: unknown) {
    super(
      'Le remboursement n’a pas pu être effectué auprès de Stripe. Réessayez dans un instant : il ne sera jamais fait deux fois.',
      { cause },
    );
  }
}

const REQUESTED = 'order.refund_requested';

export type LockedOrder = {
  id: string;
  order_number: string;
  payment_status: string;
  status: string;
  total_cents: number;
  subtotal_cents: number;
  discount_cents: number;
  shipping_cents: number;
  refunded_cents: number;
  stripe_refund_id: string | null;
  refunded_at: Date | string | null;
  stripe_payment_intent_id: string | null;
};

/** The order, row-locked until the transaction ends (`lock` false: a plain read). */
export async function lockOrder(trx: Executor, orderId: string, lock = true): Promise<LockedOrder> {
  let query = trx
    .selectFrom('orders')
    .select([
      'id',
      'order_number',
      'payment_status',
      'status',
      'total_cents',
      'subtotal_cents',
      'discount_cents',
      'shipping_cents',
      'refunded_cents',
      'stripe_refund_id',
      'refunded_at',
      'stripe_payment_intent_id',
    ])
    .where('id', '=', orderId);
  if (lock) query = query.forUpdate();
  const order = await query.executeTakeFirst();
  if (!order) throw new NotRefundableError('not_found');
  return order;
}

/** The refund already recorded on an order. */
async function existingRefund(trx: Executor, order: LockedOrder): Promise<RefundResult> {
  const note = await findInvoice(trx, order.id, 'credit_note');
  return {
    orderId: order.id,
    orderNumber: order.order_number,
    refundedCents: order.refunded_cents,
    stripeRefundId: order.stripe_refund_id,
    refundedAt: new Date(order.refunded_at ?? 0).toISOString(),
    creditNote: note
      ? {
          id: note.id,
          kind: note.kind,
          number: note.number,
          issuedAt: note.issuedAt,
          totalCents: note.totalCents,
        }
      : null,
    restocked: [],
    already: true,
  };
}

/** The order with its lines as a refund computes on them (./refund-amounts.ts). */
export async function refundable(trx: Executor, order: LockedOrder): Promise<RefundableOrder> {
  const items = await trx
    .selectFrom('order_items')
    .select(['id', 'quantity', 'unit_price_cents', 'refunded_at'])
    .where('order_id', '=', order.id)
    .orderBy('id')
    .execute();
  return {
    subtotalCents: order.subtotal_cents,
    discountCents: order.discount_cents,
    shippingCents: order.shipping_cents,
    totalCents: order.total_cents,
    refundedCents: order.refunded_cents,
    lines: items.map((i) => ({
      id: i.id,
      lineCents: i.quantity * i.unit_price_cents,
      refunded: i.refunded_at !== null,
    })),
  };
}

/** Whether the order was refunded in full (refunds of some lines leave it paid). */
const wholeRefunded = (order: LockedOrder) => order.payment_status === Payment.refunded;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Refunds a paid order in full, once. A second call — concurrent or later — answers the refund
 * already made; an unpaid order throws NotRefundableError; a Stripe failure throws
 * RefundFailedError with nothing recorded but the request.
 */
export async function refundOrder(
  db: Database,
  orderId: string,
  options: RefundOptions,
): Promise<RefundResult> {
  if (!UUID.test(orderId)) throw new NotRefundableError('not_found');
  // 1. Check under the lock and leave a trace of the request before the money moves.
  const first = await db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, orderId);
    if (wholeRefunded(order)) return { done: await existingRefund(trx, order) };
    if (order.payment_status !== Payment.paid) throw new NotRefundableError('not_paid');
    if (!order.stripe_payment_intent_id) throw new NotRefundableError('no_payment');
    const pending = await trx
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', REQUESTED)
      .where('entity', '=', 'order')
      .where('entity_id', '=', order.id)
      .executeTakeFirst();
    if (!pending)
      await audit(trx, options.actor, REQUESTED, 'order', order.id, null, {
        amountCents: order.total_cents - order.refunded_cents,
        restock: options.restock,
        reason: options.reason,
      });
    return { order, paymentIntent: order.stripe_payment_intent_id };
  });
  if ('done' in first) return first.done;

  // 2. The money. The same key and the same parameters on every attempt: Stripe (and the
  // emulator) answer a repeat with the first refund instead of making a second.
  let refund: Awaited<ReturnType<typeof createStripeRefund>>;
  try {
    refund = await createStripeRefund(
      first.order.id,
      first.paymentIntent,
      first.order.total_cents - first.order.refunded_cents,
    );
  } catch (error) {
    // Stripe answers a key still in use by a concurrent twin with a conflict: if the twin has
    // recorded the refund meanwhile, that is this call's answer too.
    const order = await lockOrder(db, orderId, false);
    if (wholeRefunded(order)) return existingRefund(db, order);
    throw error;
  }

  // 3. Record it, unless a concurrent call already has.
  const now = timeOf(options);
  const result = await db.transaction().execute(async (trx): Promise<RefundResult> => {
    const order = await lockOrder(trx, orderId);
    if (wholeRefunded(order)) return existingRefund(trx, order);
    const plan = await refundable(trx, order);
    const partly = plan.lines.some((l) => l.refunded);
    const amount = refund?.amount ?? order.total_cents - order.refunded_cents;
    const after = {
      payment_status: Payment.refunded,
      status: Fulfilment.cancelled,
      refunded_cents: order.refunded_cents + amount,
      stripe_refund_id: refund?.id ?? null,
    };
    await trx
      .updateTable('orders')
      .set({ ...after, refunded_at: now, updated_at: now })
      .where('id', '=', order.id)
      .execute();
    // After refunds of some lines, the note covers what this refund gives back.
    const note = await issueCreditNote(
      trx,
      order.id,
      now,
      options.reason,
      partly ? remainderPart(plan) : undefined,
    );
    await trx
      .updateTable('order_items')
      .set({ refunded_at: now })
      .where('order_id', '=', order.id)
      .where('refunded_at', 'is', null)
      .execute();
    await audit(
      trx,
      options.actor,
      'order.refund',
      'order',
      order.id,
      {
        payment_status: order.payment_status,
        status: order.status,
        refunded_cents: order.refunded_cents,
      },
      { ...after, reason: options.reason, credit_note: note.number },
    );
    // The history shows the change of status as every other one ('Confirmée → Annulée').
    if (order.status !== Fulfilment.cancelled)
      await audit(
        trx,
        options.actor,
        'order.status',
        'order',
        order.id,
        { status: order.status },
        { status: Fulfilment.cancelled, refund: true, restock: options.restock },
      );
    // Lines refunded earlier were restocked (or not) then.
    const left = plan.lines.filter((l) => !l.refunded).map((l) => l.id);
    const restocked = options.restock ? await restock(trx, order.id, now, left) : [];
    await orderReturned(
      trx,
      order.id,
      now,
      options.reason === 'withdrawal'
        ? 'withdrawal'
        : options.reason === 'cancellation'
          ? 'cancellation'
          : 'refund',
      options.actor,
      { restock: options.restock },
    );
    if (restocked.length)
      await audit(trx, options.actor, 'order.restock', 'order', order.id, null, {
        works: restocked,
      });
    return {
      orderId: order.id,
      orderNumber: order.order_number,
      refundedCents: amount,
      stripeRefundId: refund?.id ?? null,
      refundedAt: now.toISOString(),
      creditNote: {
        id: note.id,
        kind: note.kind,
        number: note.number,
        issuedAt: note.issuedAt,
        totalCents: note.totalCents,
      },
      restocked,
      already: false,
    };
  });
  // The works are for sale again: the prerendered gallery catches up by publishing.
  if (result.restocked.length) requestPublish(`order ${result.orderNumber} restocked`);
  return result;
}

/**
 * Stripe's refund of the whole payment, or null when Stripe says the charge was refunded already
 * (from the dashboard, or by a first attempt older than the idempotency key's 24 hours).
 */
export async function createStripeRefund(
  orderId: string,
  paymentIntent: string,
  amount: number,
  idempotencyKey = `refund-${orderId}`,
): Promise<Pick<Stripe.Refund, 'id' | 'amount'> | null> {
  const { stripe } = getPayments();
  try {
    const refund = await stripe.refunds.create(
      { payment_intent: paymentIntent, amount, metadata: { order_id: orderId } },
      { idempotencyKey },
    );
    return { id: refund.id, amount: refund.amount };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'charge_already_refunded') return null;
    throw new RefundFailedError(error);
  }
}

/**
 * Puts the order's works back on sale: an original unsold, available, stock 1; a print its
 * quantity back. Archived works (deleted by the owner) stay off the site.
 */
export async function restock(
  trx: Executor,
  orderId: string,
  now: Date,
  itemIds: readonly number[],
): Promise<RefundResult['restocked']> {
  if (itemIds.length === 0) return [];
  const items = await trx
    .selectFrom('order_items as i')
    .innerJoin('artworks as a', 'a.id', 'i.artwork_id')
    .select(['i.artwork_id', 'i.artwork_type', 'i.quantity'])
    .where('i.order_id', '=', orderId)
    .where('i.id', 'in', itemIds)
    .where('a.archived_at', 'is', null)
    .orderBy('i.id')
    .execute();
  const done: RefundResult['restocked'] = [];
  for (const item of items) {
    if (item.artwork_id === null) continue;
    if (item.artwork_type === 'original') {
      await trx
        .updateTable('artworks')
        .set({ is_sold: false, stock: 1, is_available: true, updated_at: now })
        .where('id', '=', item.artwork_id)
        .execute();
      done.push({ artworkId: item.artwork_id, type: 'original', quantity: 1 });
    } else {
      await trx
        .updateTable('artworks')
        .set((eb) => ({ stock: eb('stock', '+', item.quantity), updated_at: now }))
        .where('id', '=', item.artwork_id)
        .execute();
      done.push({ artworkId: item.artwork_id, type: 'print', quantity: item.quantity });
    }
  }
  return done;
}

export interface UnfinishedRefund {
  orderId: string;
  orderNumber: string;
  requestedAt: string;
  restock: boolean;
  reason: RefundReason;
}

/**
 * Refunds asked for but never recorded (the process stopped between Stripe and the database, or
 * Stripe failed): the back office or start-up can show them and call refundOrder again, which
 * finishes them without refunding twice.
 */
export async function unfinishedRefunds(db: Executor): Promise<UnfinishedRefund[]> {
  const rows = await db
    .selectFrom('audit_log as l')
    .innerJoin('orders as o', (join) =>
      join.on((eb) => eb(eb.cast('o.id', 'text'), '=', eb.ref('l.entity_id'))),
    )
    .select(['o.id', 'o.order_number', 'l.at', 'l.after'])
    .where('l.action', '=', REQUESTED)
    .where('l.entity', '=', 'order')
    .where('o.payment_status', '=', Payment.paid)
    .orderBy('l.at')
    .execute();
  return rows.map((r) => {
    const request = (typeof r.after === 'string' ? JSON.parse(r.after) : r.after) as {
      restock?: unknown;
      reason?: unknown;
    } | null;
    return {
      orderId: r.id,
      orderNumber: r.order_number,
      requestedAt: new Date(r.at).toISOString(),
      restock: request?.restock === true,
      reason: typeof request?.reason === 'string' ? request.reason : 'cancellation',
    };
  });
}
