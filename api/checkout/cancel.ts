// A payment cancelled on the payment page ("Annuler et revenir" → our cancel page, issue 25 §9):
// the checkout's works go back on sale at once instead of staying held for the session's 30
// minutes (docs/decisions/044). The session is expired through Stripe's API first; only a session
// Stripe confirms expired lets go of the holds, so a buyer who paid meanwhile (in another tab, or
// just before the click) keeps the works: a complete session cannot be expired, and its order
// stays to the `checkout.session.completed` webhook. Idempotent: a second call, the expiry
// webhook that follows and the sweeper all find the order closed and change nothing.
import type Stripe from 'stripe';
import type { Database } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Payments } from '../payments/index.ts';
import { type Clock, timeOf } from '../clock.ts';
import { isCartId } from '../cart/index.ts';
import { Payment } from '../../src/domain/order-status.ts';
import { closeUnpaidOrder } from './index.ts';

export interface CancelRequest {
  /** The order the payment page's cancel link names (`/cancel?order=<id>`). */
  orderId: string;
  /** The visitor's cart (cookie): only the cart that started a checkout may cancel it. */
  cartId: string | undefined;
  now?: Clock;
}

export interface CancelOutcome {
  /** Whether this call gave the works back (false: nothing to do, already done, or paid). */
  released: boolean;
}

/**
 * Stripe's word on the session after asking it to expire: 'expired' once it is (now or before),
 * else its status ('complete' when the buyer paid; 'open' cannot happen after a refusal, but is
 * not taken for expired either).
 */
async function expireSession(
  payments: Payments,
  sessionId: string,
): Promise<Stripe.Checkout.Session.Status | null> {
  try {
    return (await payments.stripe.checkout.sessions.expire(sessionId)).status;
  } catch (error) {
    // Refused: the session is no longer open. Ask what it is.
    try {
      return (await payments.stripe.checkout.sessions.retrieve(sessionId)).status;
    } catch {
      throw new AppError('payment_failed', {
        message: 'The payment provider could not be reached to cancel the payment session.',
        cause: error,
      });
    }
  }
}

export async function cancelCheckout(
  deps: { db: Database; payments: Payments },
  request: CancelRequest,
): Promise<CancelOutcome> {
  const { db, payments } = deps;
  // Another visitor's order, an unknown one, no cart: the same answer, nothing learnt.
  if (!isCartId(request.cartId)) return { released: false };
  const order = await db
    .selectFrom('orders')
    .select(['id', 'order_number', 'stripe_session_id', 'payment_status'])
    .where('id', '=', request.orderId)
    .where('cart_id', '=', request.cartId)
    .executeTakeFirst();
  if (!order || order.payment_status !== Payment.unpaid || !order.stripe_session_id)
    return { released: false };
  const status = await expireSession(payments, order.stripe_session_id);
  if (status !== 'expired') {
    if (status === 'complete')
      log.info(`Checkout ${order.order_number}: cancel page reached after payment; holds kept.`);
    return { released: false };
  }
  const now = timeOf(request);
  const released = await db
    .transaction()
    .execute((trx) => closeUnpaidOrder(trx, order.id, Payment.expired, now));
  if (released) log.info(`Checkout ${order.order_number}: cancelled by the buyer; works released.`);
  return { released };
}
