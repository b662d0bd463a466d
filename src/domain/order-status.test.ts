import { describe, expect, it } from 'vitest';
import {
  canChangeFulfilment,
  FULFILMENT_LABELS,
  FULFILMENT_STATUSES,
  Fulfilment,
  Payment,
  paymentLabel,
} from './order-status.ts';

describe('the order-status model', () => {
  it('labels every fulfilment status in the back office’s French', () => {
    expect(FULFILMENT_STATUSES.map((s) => FULFILMENT_LABELS[s])).toEqual([
      'En attente',
      'Confirmée',
      'Expédiée',
      'Livrée',
      'Annulée',
    ]);
  });

  it('shows a known payment status in French and an unknown one raw', () => {
    expect(paymentLabel('paid')).toEqual({ text: 'Payée', known: true });
    expect(paymentLabel('requires_capture')).toEqual({ text: 'requires_capture', known: false });
  });

  it('lets the owner move a paid order freely, never out of cancelled', () => {
    const paid = { payment: Payment.paid, fulfilment: Fulfilment.confirmed };
    expect(canChangeFulfilment(paid, Fulfilment.shipped)).toBe(true);
    expect(canChangeFulfilment(paid, Fulfilment.pending)).toBe(true);
    expect(canChangeFulfilment(paid, Fulfilment.confirmed)).toBe(false);
    const cancelled = { payment: Payment.paid, fulfilment: Fulfilment.cancelled };
    expect(canChangeFulfilment(cancelled, Fulfilment.confirmed)).toBe(false);
  });

  it('does not fulfil a checkout that was never paid', () => {
    for (const payment of [Payment.unpaid, Payment.expired, Payment.failed])
      expect(
        canChangeFulfilment({ payment, fulfilment: Fulfilment.pending }, Fulfilment.shipped),
      ).toBe(false);
  });

  it('only cancels a refunded order', () => {
    const refunded = { payment: Payment.refunded, fulfilment: Fulfilment.confirmed };
    expect(canChangeFulfilment(refunded, Fulfilment.cancelled)).toBe(true);
    expect(canChangeFulfilment(refunded, Fulfilment.shipped)).toBe(false);
  });
});
