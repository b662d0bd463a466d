// What an erasure must not take (issue 24, "Data that must not be lost"): erasing a customer once
// emptied the delivery address of a paid order not yet shipped. An order still needs its
// customer's details while it is open — its checkout may still be paid, it is not shipped, its
// withdrawal period runs (docs/decisions/020: until delivery, then 14 days), or a refund is owed
// (withdrawn, or a late payment's refund pending). eraseCustomer (./customers.ts) refuses while
// one is, naming them, or — asked to — records the request here; the server's sweeper carries it
// out once they have all closed, under the name of the owner who asked.
import type { OpenOrder, OpenOrderReason } from '../../src/schemas/admin-customers.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import { systemClock } from '../clock.ts';
import type { Database, Executor } from '../db/index.ts';
import { log } from '../log.ts';
import { withdrawalDecision } from '../withdrawal/rules.ts';
import { deliveryRecordedAt } from '../withdrawal/index.ts';

export interface OrderFacts {
  id: string;
  order_number: string;
  status: string;
  payment_status: string;
  paid_at: Date | string | null;
  shipped_at: Date | string | null;
  created_at: Date | string;
  withdrawal_requested_at: Date | string | null;
  refund_pending_at: Date | string | null;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

/** Why an order is still open at `now` (none: it may be erased). Pure. */
export function openReasons(
  order: OrderFacts,
  deliveredAt: Date | null,
  now: Date,
): OpenOrderReason[] {
  const reasons: OpenOrderReason[] = [];
  const cancelled = order.status === Fulfilment.cancelled;
  if (order.payment_status === Payment.unpaid && !cancelled) reasons.push('awaiting_payment');
  if (order.payment_status !== Payment.paid || cancelled) {
    if (order.refund_pending_at) reasons.push('refund_pending');
    return reasons;
  }
  if (order.status === Fulfilment.pending || order.status === Fulfilment.confirmed)
    reasons.push('unshipped');
  const decision = withdrawalDecision(
    {
      status: order.status,
      paymentStatus: order.payment_status,
      paidAt: date(order.paid_at),
      shippedAt: date(order.shipped_at),
      deliveredAt,
      createdAt: new Date(order.created_at),
    },
    now,
  );
  if (decision.kind === 'allowed' && !reasons.includes('unshipped'))
    reasons.push('withdrawal_period');
  if (order.withdrawal_requested_at || order.refund_pending_at) reasons.push('refund_pending');
  return reasons;
}

/** The open ones among `orders` (their rows as selected by eraseCustomer), in their order. */
export async function openOrders(
  db: Executor,
  orders: readonly OrderFacts[],
  now: Date,
): Promise<OpenOrder[]> {
  const open: OpenOrder[] = [];
  for (const order of orders) {
    const deliveredAt =
      order.status === Fulfilment.delivered ? await deliveryRecordedAt(db, order.id) : null;
    const reasons = openReasons(order, deliveredAt, now);
    if (reasons.length) open.push({ number: order.order_number, reasons });
  }
  return open;
}

/**
 * Carries out the erasures whose orders have all closed; the others wait for the next sweep.
 * `erase` is eraseCustomer bound to the database (passed in: ./customers.ts imports this file).
 */
export async function runScheduledErasures(
  db: Database,
  erase: (email: string, actor: { id: string; email: string }, now: Date) => Promise<unknown>,
  now: Date = systemClock(),
): Promise<number> {
  const due = await db.selectFrom('erasure_requests').selectAll().execute();
  let done = 0;
  for (const request of due) {
    try {
      const result = await erase(
        request.email_key,
        { id: request.requested_by, email: request.requested_by_email },
        now,
      );
      if (result !== 'still_open') done++;
    } catch (error) {
      log.error({ err: error }, 'A scheduled erasure failed; it is tried again at the next sweep');
    }
  }
  return done;
}
