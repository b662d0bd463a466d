// The refund of some of a paid order's lines (issue 27 item 3): the owner picks the works, the
// server computes the amount from the order's own lines (./refund-amounts.ts), Stripe gives it
// back, a credit note for those lines is issued, their edition numbers and certificates come back
// as a return does (orderReturned for those lines only, docs/decisions/045–047), the works go back
// on sale if asked, and the audit log keeps it all. The order stays paid and keeps its status:
// what remains can be shipped, refunded later in parts, or cancelled with the rest refunded.
// The same three steps as the whole refund (./refund.ts, docs/decisions/019): request recorded,
// Stripe called with a key naming the lines (a repeat gets the same refund), result recorded once.
import { audit, type Actor } from '../admin/audit.ts';
import { requestPublish } from '../build/publish.ts';
import { timeOf, type Clock } from '../clock.ts';
import type { Database } from '../db/index.ts';
import { issueCreditNote } from '../invoices/index.ts';
import type { InvoiceRef } from '../../src/schemas/admin-orders.ts';
import { Payment } from '../../src/domain/order-status.ts';
import { linesPart, linesRefusal, type LinesRefusal } from './refund-amounts.ts';
import {
  NotRefundableError,
  createStripeRefund,
  lockOrder,
  refundable,
  restock,
  type RefundResult,
} from './refund.ts';
import { orderReturned } from './returns.ts';

export interface LinesRefundOptions {
  actor: Actor;
  /** Put these lines' works back on sale. */
  restock: boolean;
  now?: Clock;
}

export interface LinesRefundResult {
  orderId: string;
  orderNumber: string;
  refundedCents: number;
  creditNote: InvoiceRef;
  restocked: RefundResult['restocked'];
}

const MESSAGES: Record<LinesRefusal, string> = {
  none: 'Choisissez au moins une œuvre à rembourser.',
  unknown: 'Une des œuvres choisies n’appartient pas à cette commande.',
  already: 'Une des œuvres choisies a déjà été remboursée.',
  all: 'Toutes les œuvres restantes sont choisies : remboursez la commande entière (elle sera annulée).',
};

/** These lines cannot be refunded alone (the endpoint answers 409 with the French message). */
export class LinesRefusedError extends Error {
  override name = 'LinesRefusedError';
  readonly code = 'not_refundable';
  readonly reason: LinesRefusal;
  constructor(reason: LinesRefusal) {
    super(MESSAGES[reason]);
    this.reason = reason;
  }
}

const REQUESTED = 'order.lines_refund_requested';

/** Refunds `itemIds` of a paid order; see the header. */
export async function refundLines(
  db: Database,
  orderId: string,
  itemIds: readonly number[],
  options: LinesRefundOptions,
): Promise<LinesRefundResult> {
  const ids = [...new Set(itemIds)].sort((a, b) => a - b);
  // 1. Check under the lock, compute the amount, leave a trace before the money moves.
  const first = await db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, orderId);
    if (order.payment_status !== Payment.paid) throw new NotRefundableError('not_paid');
    if (!order.stripe_payment_intent_id) throw new NotRefundableError('no_payment');
    const plan = await refundable(trx, order);
    const refused = linesRefusal(plan, ids);
    if (refused) throw new LinesRefusedError(refused);
    const part = linesPart(plan, ids);
    await audit(trx, options.actor, REQUESTED, 'order', order.id, null, {
      items: ids,
      amountCents: part.totalCents,
      restock: options.restock,
    });
    return { order, part, paymentIntent: order.stripe_payment_intent_id };
  });

  // 2. The money: the key names the lines, which can be refunded only once.
  const refund = await createStripeRefund(
    first.order.id,
    first.paymentIntent,
    first.part.totalCents,
    `refund-${first.order.id}-lines-${ids.join('-')}`,
  );

  // 3. Record it, unless a concurrent twin already has (then its lines are refunded: refused).
  const now = timeOf(options);
  const result = await db.transaction().execute(async (trx): Promise<LinesRefundResult> => {
    const order = await lockOrder(trx, orderId);
    const plan = await refundable(trx, order);
    const refused = linesRefusal(plan, ids);
    if (refused === 'already' || order.payment_status !== Payment.paid)
      throw new LinesRefusedError('already');
    const part = linesPart(plan, ids);
    const amount = refund?.amount ?? part.totalCents;
    await trx
      .updateTable('order_items')
      .set({ refunded_at: now })
      .where('order_id', '=', order.id)
      .where('id', 'in', ids)
      .execute();
    await trx
      .updateTable('orders')
      .set({
        refunded_cents: order.refunded_cents + amount,
        refunded_at: now,
        stripe_refund_id: refund?.id ?? order.stripe_refund_id,
        updated_at: now,
      })
      .where('id', '=', order.id)
      .execute();
    const note = await issueCreditNote(trx, order.id, now, 'partial', {
      ...part,
      totalCents: amount,
    });
    const titles = await trx
      .selectFrom('order_items')
      .select('title')
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    await audit(
      trx,
      options.actor,
      'order.refund',
      'order',
      order.id,
      { refunded_cents: order.refunded_cents },
      {
        refunded_cents: amount,
        credit_note: note.number,
        items: ids,
        works: titles.map((t) => t.title),
        partial: true,
        restock: options.restock,
      },
    );
    const restocked = options.restock ? await restock(trx, order.id, now, ids) : [];
    await orderReturned(trx, order.id, now, 'refund', options.actor, {
      restock: options.restock,
      itemIds: ids,
    });
    if (restocked.length)
      await audit(trx, options.actor, 'order.restock', 'order', order.id, null, {
        works: restocked,
      });
    return {
      orderId: order.id,
      orderNumber: order.order_number,
      refundedCents: amount,
      creditNote: {
        id: note.id,
        kind: note.kind,
        number: note.number,
        issuedAt: note.issuedAt,
        totalCents: note.totalCents,
      },
      restocked,
    };
  });
  if (result.restocked.length) requestPublish(`order ${result.orderNumber} partly restocked`);
  return result;
}
