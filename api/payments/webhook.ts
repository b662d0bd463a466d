// POST /api/stripe/webhook, framework-free: verify the raw body's signature, apply the event
// (api/orders, one transaction, idempotent), then the side effects that must follow a commit —
// the buyer's confirmation, the gallery's notification, or the refund of a payment that came too
// late for its works.
import type Stripe from 'stripe';
import { z } from 'zod';
import { singleLine } from '../../src/schemas/text.ts';
import { requestPublish } from '../build/publish.ts';
import type { Database } from '../db/index.ts';
import { faultPoint } from '../faults.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import { galleryOrderNotification, orderConfirmationMail } from '../mail/orders.ts';
import { applyStripeEvent, type FulfilmentOutcome, type OrderSummary } from '../orders/index.ts';
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
    try {
      await deps.payments.stripe.refunds.create(
        { payment_intent: outcome.paymentIntentId, metadata: { order_id: outcome.order.id } },
        { idempotencyKey: `refund-${outcome.order.id}` },
      );
    } catch (error) {
      // The event is recorded, so a retry would not come back here: the owner must act.
      log.error(
        { err: error },
        `Order ${outcome.order.number}: REFUND FAILED for ${outcome.paymentIntentId}; refund it from the Stripe dashboard.`,
      );
    }
  }
  return outcome;
}

/**
 * The mails of a paid order: the buyer's confirmation and the gallery's notification. The payment's
 * transaction marked them pending (orders.mails_pending_at); they are no longer once sent. A
 * process that stops in between leaves them pending, and reconciliation sends them: at least once
 * (stopped between a mail and that mark, it is sent again), never lost.
 */
export async function sendPaidOrderMails(deps: FulfilmentDeps, order: OrderSummary): Promise<void> {
  const settings = await liveSettings(deps.db);
  // The order is paid whatever happens to the mail; a failure is logged for the owner.
  for (const message of [
    orderConfirmationMail(order, settings),
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
