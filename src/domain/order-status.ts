// The one order-status model (docs/decisions/016): an order's fulfilment (what the gallery does
// with it) and its payment (what Stripe says), with their French labels (back office §3) and the
// allowed changes. Cart, checkout, webhook and back office use these names, never bare strings.
// Plain constants, no zod: the islands import it and stay small.

export const FULFILMENT_STATUSES = [
  'pending',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];
/** Named values: `Fulfilment.shipped`, never `'shipped'`. */
export const Fulfilment = named(FULFILMENT_STATUSES);

export const PAYMENT_STATUSES = ['unpaid', 'paid', 'refunded', 'failed', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const Payment = named(PAYMENT_STATUSES);

function named<const T extends readonly string[]>(values: T): { readonly [K in T[number]]: K } {
  return Object.freeze(Object.fromEntries(values.map((v) => [v, v]))) as {
    readonly [K in T[number]]: K;
  };
}

/** back office §3 "Standard order status". */
export const FULFILMENT_LABELS: Record<FulfilmentStatus, string> = {
  pending: 'En attente',
  confirmed: 'Confirmée',
  shipped: 'Expédiée',
  delivered: 'Livrée',
  cancelled: 'Annulée',
};

/** back office §3: 'paid' is 'Payée'; an unknown value is shown raw (paymentLabel). */
export const PAYMENT_LABELS: Record<PaymentStatus, string> = {
  unpaid: 'En attente de paiement',
  paid: 'Payée',
  refunded: 'Remboursée',
  failed: 'Échouée',
  expired: 'Expirée',
};

export function isPaymentStatus(value: string): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value);
}

/** The French label of a payment status, or the raw value when it is not one we know. */
export function paymentLabel(value: string): { text: string; known: boolean } {
  return isPaymentStatus(value)
    ? { text: PAYMENT_LABELS[value], known: true }
    : { text: value, known: false };
}

/** Whether a payment settled: the order is a sale (counted, fulfilled, invoiced). */
export function isSettled(payment: PaymentStatus): boolean {
  return payment === Payment.paid;
}

/**
 * The allowed fulfilment changes. The owner may move a paid order to any status (back office §3:
 * no ordering restriction), except out of 'cancelled' — a cancelled order may have been refunded
 * and its works put back on sale. An unpaid, failed or expired checkout is not an order to fulfil.
 */
export function canChangeFulfilment(
  order: { fulfilment: FulfilmentStatus; payment: PaymentStatus },
  to: FulfilmentStatus,
): boolean {
  if (order.fulfilment === to) return false;
  if (order.payment !== Payment.paid && order.payment !== Payment.refunded) return false;
  if (order.fulfilment === Fulfilment.cancelled) return false;
  if (order.payment === Payment.refunded) return to === Fulfilment.cancelled;
  return true;
}
