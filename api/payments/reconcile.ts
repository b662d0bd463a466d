// Reconciliation (docs/decisions/023), as Stripe advises for missed webhooks: the orders still
// waiting for their payment are compared with their Checkout Session at the provider — Stripe or
// the emulator — and a session found paid or expired goes through the webhook's own path
// (fulfilStripeEvent: one transaction, idempotent per event id, mails and refunds after commit).
// It runs at start and every few minutes; a PostgreSQL advisory lock keeps two nodes from running
// it at the same time (they would only repeat each other's no-ops, but the provider's rate limit
// is shared).
import type Stripe from 'stripe';
import { systemClock } from '../clock.ts';
import { tryClusterLock } from '../cluster/lock.ts';
import { log } from '../log.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import { readOrder, type OrderSummary } from '../orders/index.ts';
import {
  fulfilStripeEvent,
  refundLatePayment,
  sendPaidOrderMails,
  type FulfilmentDeps,
} from './webhook.ts';

/** Every five minutes: a missed webhook costs a buyer at most that long. */
export const RECONCILE_INTERVAL_MS = 5 * 60_000;
/**
 * A paid order's mails, or a late payment's refund, still pending after this long were left by a
 * process that stopped or by an attempt that failed (a live process makes them within seconds of
 * the payment, or gives up after its SMTP or Stripe timeouts).
 */
export const PENDING_LEASE_MS = 10 * 60_000;
/** Sessions looked up per run, oldest orders first (the next run takes the rest). */
const BATCH = 200;
/** pg_try_advisory_lock's key for this job ("G023" in ASCII), the same on every node. */
export const RECONCILE_LOCK_KEY = '1194341427';

export interface ReconcileResult {
  /** false when another node held the lock: nothing was looked at. */
  ran: boolean;
  checked: number;
  paid: number;
  released: number;
  /** Paid orders whose mails a stopped process had not sent, sent now. */
  mailed: number;
  /** Late payments whose refund a stopped process or a refusal had left pending, refunded now. */
  refunded: number;
  failed: number;
}

/** The event the webhook would have received for this session's final state; null if none yet. */
export function eventForSession(session: Stripe.Checkout.Session): Stripe.Event | null {
  let type: 'checkout.session.completed' | 'checkout.session.expired';
  if (session.status === 'expired') type = 'checkout.session.expired';
  else if (
    session.status === 'complete' &&
    (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
  )
    type = 'checkout.session.completed';
  else return null;
  // One id per session and outcome: a second run, or another node, is a recorded duplicate.
  return {
    id: `reconcile_${type.slice('checkout.session.'.length)}_${session.id}`,
    object: 'event',
    api_version: null,
    created: Math.floor(Date.now() / 1000),
    livemode: session.livemode,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type,
    data: { object: session },
  } as unknown as Stripe.Event;
}

export interface ReconcileOptions {
  /**
   * Take the cluster-wide advisory lock first (PostgreSQL, where several nodes may share the
   * database). Not with PGlite: one process owns it, and Kysely gives it a single connection that
   * holding the lock would keep from the work itself (the scheduler runs one pass at a time).
   */
  advisoryLock: boolean;
  /**
   * When this process started, with the embedded database: no other process uses it, so mails
   * and refunds still pending since before then are a stopped process's, made at once rather than after
   * PENDING_LEASE_MS.
   */
  startedAt?: Date;
  now?: Date;
}

/** One pass over the orders waiting for their payment. */
export async function reconcilePayments(
  deps: FulfilmentDeps,
  options: ReconcileOptions,
): Promise<ReconcileResult> {
  const now = options.now ?? systemClock();
  const pass = async () => {
    const counts: ReconcileResult = {
      ran: true,
      checked: 0,
      paid: 0,
      released: 0,
      mailed: 0,
      refunded: 0,
      failed: 0,
    };
    const orders = await deps.db
      .selectFrom('orders')
      .select(['id', 'order_number', 'stripe_session_id'])
      .where('payment_status', '=', Payment.unpaid)
      .where('status', '=', Fulfilment.pending)
      .where('stripe_session_id', 'is not', null)
      .where('created_at', '<=', now)
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    for (const order of orders) {
      counts.checked += 1;
      try {
        const session = await deps.payments.stripe.checkout.sessions.retrieve(
          order.stripe_session_id!,
        );
        const event = eventForSession(session);
        if (!event) continue;
        const outcome = await fulfilStripeEvent(deps, event);
        if (outcome.kind === 'paid' || outcome.kind === 'refund') {
          counts.paid += 1;
          log.warn(
            `Reconciliation: order ${order.order_number} was paid but its webhook never came (${outcome.kind}).`,
          );
        } else if (outcome.kind === 'expired') {
          counts.released += 1;
          log.info(`Reconciliation: order ${order.order_number}: its payment session expired.`);
        }
      } catch (error) {
        counts.failed += 1;
        log.warn(
          { err: error },
          `Reconciliation: the payment session of order ${order.order_number} could not be checked`,
        );
      }
    }
    // What a stopped process left pending after a payment's commit: the mails of a paid order,
    // the refund of a late payment. Each order is claimed (marked pending from now) before it is
    // retried, so no other pass retries it too; one refused again waits for the next pass.
    const cutoff = new Date(
      Math.max(now.getTime() - PENDING_LEASE_MS, options.startedAt?.getTime() ?? 0),
    );
    const retry = async (
      column: 'mails_pending_at' | 'refund_pending_at',
      paymentStatus: string,
      what: string,
      action: (order: OrderSummary) => Promise<boolean>,
    ) => {
      const pending = await deps.db
        .selectFrom('orders')
        .select(['id', 'order_number'])
        .where(column, '<', cutoff)
        .where('payment_status', '=', paymentStatus)
        .orderBy(column)
        .limit(BATCH)
        .execute();
      for (const order of pending) {
        try {
          const claimed = await deps.db
            .updateTable('orders')
            .set({ [column]: now })
            .where('id', '=', order.id)
            .where(column, '<', cutoff)
            .returning('id')
            .executeTakeFirst();
          const summary = claimed && (await readOrder(deps.db, { id: order.id }));
          if (!summary) continue;
          if (!(await action(summary))) {
            counts.failed += 1;
            continue;
          }
          if (column === 'mails_pending_at') counts.mailed += 1;
          else counts.refunded += 1;
          log.warn(
            `Reconciliation: order ${order.order_number}: its ${what} had not been made by a process that stopped or failed: made now.`,
          );
        } catch (error) {
          counts.failed += 1;
          log.warn(
            { err: error },
            `Reconciliation: the ${what} of order ${order.order_number} failed`,
          );
        }
      }
    };
    await retry('mails_pending_at', Payment.paid, 'mails', async (order) => {
      await sendPaidOrderMails(deps, order);
      return true;
    });
    await retry('refund_pending_at', Payment.refunded, 'refund', (order) =>
      order.paymentIntentId
        ? refundLatePayment(deps, { ...order, paymentIntentId: order.paymentIntentId }, now)
        : Promise.resolve(false),
    );
    return counts;
  };
  const result = options.advisoryLock
    ? await tryClusterLock(deps.db, RECONCILE_LOCK_KEY, pass)
    : await pass();
  return (
    result ?? { ran: false, checked: 0, paid: 0, released: 0, mailed: 0, refunded: 0, failed: 0 }
  );
}

export interface Reconciler {
  /** Runs a pass now (or waits for the one running) and returns its result. */
  run(): Promise<ReconcileResult>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/** Runs a pass now and every `intervalMs` (one unref'd timer); one pass at a time. */
export function startReconciliation(
  deps: FulfilmentDeps,
  options: { advisoryLock: boolean; startedAt?: Date; intervalMs?: number },
): Reconciler {
  let running: Promise<ReconcileResult> | null = null;
  const { intervalMs, ...passOptions } = options;
  const run = () =>
    (running ??= reconcilePayments(deps, passOptions)
      .catch((error: unknown): ReconcileResult => {
        log.error({ err: error }, 'Reconciliation of payments failed');
        return { ran: false, checked: 0, paid: 0, released: 0, mailed: 0, refunded: 0, failed: 0 };
      })
      .finally(() => {
        running = null;
      }));
  const timer = setInterval(() => void run(), intervalMs ?? RECONCILE_INTERVAL_MS);
  timer.unref();
  void run();
  return {
    run,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
