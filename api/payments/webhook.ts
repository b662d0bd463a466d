// POST /api/stripe/webhook, framework-free: verify the raw body's signature, apply the event
// (api/orders, one transaction, idempotent), then the side effects that must follow a commit —
// the buyer's confirmation, the gallery's notification, or the refund of a payment that came too
// late for its works.
import type Stripe from 'stripe';
import { z } from 'zod';
import { singleLine } from '../../src/schemas/text.ts';
import { requestPublish } from '../build/publish.ts';
import { systemClock } from '../clock.ts';
import type { Database } from '../db/index.ts';
import { faultPoint } from '../faults.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import { galleryOrderNotification, orderConfirmationMail } from '../mail/orders.ts';
import { applyStripeEvent, type FulfilmentOutcome, type OrderSummary } from '../orders/index.ts';
import { mailedInvoice } from '../invoices/mailed.ts';
import { mailedCertificates } from '../certificates/mailed.ts';
import { liveSettings } from '../settings/index.ts';
import type { Payments } from './index.ts';

export async function verifyStripeEvent(
  payments: Payments,
  rawBody: string,
  signature: string | null,
): Promise<Stripe.Event> {
  if (!signature || !payments.webhookSecret) throw new AppError('invalid_signature');
  let event: Stripe.Event;
  try {
    event = await payments.stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      payments.webhookSecret,
    );
  } catch (error) {
    throw new AppError('invalid_signature', { cause: error });
  }
  // A signed body is Stripe's, but its shape is still checked before a query uses it: a body
  // that is not an event (a misconfigured endpoint, an emulator bug) is a 400, not a 500 that
  // Stripe would retry for days (the fuzz suite found it, tests/integration/fuzz.test.ts).
  if (!EVENT_SHAPE.safeParse(event).success) throw new AppError('invalid_event');
  return event;
}

const stripeText = z.string().min(1).max(255).check(singleLine());

/** What applyStripeEvent reads of an event; the rest is Stripe's business. */
export const EVENT_SHAPE = z
  .object({
    id: stripeText,
    type: stripeText,
    data: z.object({
      object: z.object({
        id: stripeText.optional(),
        payment_status: z.string().max(64).nullish(),
        metadata: z.record(z.string(), z.string().max(500)).nullish(),
      }),
    }),
  })
  .refine(
    (event) => !event.type.startsWith('checkout.session.') || event.data.object.id !== undefined,
  );

export interface FulfilmentDeps {
  db: Database;
  payments: Payments;
  mailer: Mailer;
}

export async function handleStripeWebhook(
  deps: FulfilmentDeps,
  rawBody: string,
  signature: string | null,
): Promise<FulfilmentOutcome> {
  const event = await verifyStripeEvent(deps.payments, rawBody, signature);
  return fulfilStripeEvent(deps, event);
}

/**
 * Applies a verified event (the webhook's) or an equivalent one (reconciliation's, api/payments/
 * reconcile.ts) and does what must follow its commit: one path, idempotent per event id.
 */
export async function fulfilStripeEvent(
  deps: FulfilmentDeps,
  event: Stripe.Event,
): Promise<FulfilmentOutcome> {
  const outcome = await applyStripeEvent(deps.db, event);
  // A sale changes what the prerendered index and JSON-LD offers say: they catch up by publishing.
  if (outcome.kind === 'paid' || outcome.kind === 'refund') requestPublish(`order ${outcome.kind}`);
  if (outcome.kind === 'paid') {
    await faultPoint('fulfil-mail');
    await sendPaidOrderMails(deps, outcome.order);
  } else if (outcome.kind === 'refund') {
    log.warn(`Order ${outcome.order.number}: refunding the payment (${outcome.reason}).`);
    await refundLatePayment(deps, {
      id: outcome.order.id,
      number: outcome.order.number,
      paymentIntentId: outcome.paymentIntentId,
    });
  }
  return outcome;
}

/**
 * The refund of a payment that came too late for its works (its order is already 'refunded' and
 * its refund pending, from the event's transaction): the whole payment, with the key
 * `refund-<order id>` and the same parameters on every attempt, so a retry gets the first refund
 * back rather than a second. Made, it is recorded on the order (amount, Stripe's id, date) and no
 * longer pending; refused or out of reach, it stays pending and reconciliation tries it again
 * (docs/decisions/033). Returns whether the money is back with the buyer.
 */
export async function refundLatePayment(
  deps: FulfilmentDeps,
  order: { id: string; number: string; paymentIntentId: string },
  now: Date = systemClock(),
): Promise<boolean> {
  await faultPoint('fulfil-refund');
  let made: { id: string | null; amount: number | null };
  try {
    const refund = await deps.payments.stripe.refunds.create(
      { payment_intent: order.paymentIntentId, metadata: { order_id: order.id } },
      { idempotencyKey: `refund-${order.id}` },
    );
    made = { id: refund.id, amount: refund.amount };
  } catch (error) {
    // Refunded already: by an attempt older than Stripe's 24-hour key, or by the owner from
    // the dashboard after the failures logged below.
    if ((error as { code?: unknown }).code === 'charge_already_refunded')
      made = { id: null, amount: null };
    else {
      log.error(
        { err: error },
        `Order ${order.number}: REFUND FAILED for ${order.paymentIntentId}; it is tried again every five minutes, or refund it from the Stripe dashboard.`,
      );
      return false;
    }
  }
  await deps.db
    .updateTable('orders')
    .set((eb) => ({
      refund_pending_at: null,
      refunded_cents: made.amount ?? eb.ref('total_cents'),
      stripe_refund_id: made.id,
      refunded_at: now,
    }))
    .where('id', '=', order.id)
    .where('refund_pending_at', 'is not', null)
    .execute();
  return true;
}

/**
 * The mails of a paid order: the buyer's confirmation and the gallery's notification. The payment's
 * transaction marked them pending (orders.mails_pending_at); they are no longer once sent. A
 * process that stops in between leaves them pending, and reconciliation sends them: at least once
 * (stopped between a mail and that mark, it is sent again), never lost.
 */
export async function sendPaidOrderMails(deps: FulfilmentDeps, order: OrderSummary): Promise<void> {
  const settings = await liveSettings(deps.db);
  // The invoice goes with the confirmation, attached and as a signed link (issue 26); without
  // it the confirmation still goes.
  const invoice = await mailedInvoice(deps.db, order.id, 'invoice').catch((error: unknown) => {
    log.error({ err: error }, `Order ${order.number}: the invoice could not join the mail`);
    return null;
  });
  // Its certificates of authenticity, as signed links (decision 046); without them it still goes.
  const certificates = await mailedCertificates(deps.db, order.id).catch((error: unknown) => {
    log.error({ err: error }, `Order ${order.number}: the certificates could not join the mail`);
    return [];
  });
  // The order is paid whatever happens to the mail; a failure is logged for the owner.
  for (const message of [
    orderConfirmationMail(order, settings, { invoice, certificates }),
    galleryOrderNotification(order, settings),
  ]) {
    try {
      await deps.mailer.send(message);
    } catch (error) {
      log.error({ err: error }, `Order ${order.number}: a mail could not be sent`);
    }
  }
  await deps.db
    .updateTable('orders')
    .set({ mails_pending_at: null })
    .where('id', '=', order.id)
    .execute();
}
