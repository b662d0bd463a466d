// The amounts of a refund of some lines (issue 27), from the order's own lines: the lines less
// their share of the promo code's discount, rounded down; the rest gives back exactly what is left.
import { describe, expect, it } from 'vitest';
import { linesPart, linesRefusal, remainderPart, type RefundableOrder } from './refund-amounts.ts';

/** An original at 1 000 €, two prints at 350 €, 10 % off (170 €), 15 € shipping. */
const kitchenSink = (refunded: number[] = [], refundedCents = 0): RefundableOrder => ({
  subtotalCents: 170_000,
  discountCents: 17_000,
  shippingCents: 1_500,
  totalCents: 154_500,
  refundedCents,
  lines: [
    { id: 11, lineCents: 100_000, refunded: refunded.includes(11) },
    { id: 12, lineCents: 70_000, refunded: refunded.includes(12) },
  ],
});

describe('refund amounts', () => {
  it('refunds the lines less their share of the discount, never the shipping', () => {
    expect(linesPart(kitchenSink(), [12])).toEqual({
      lineIndexes: [1],
      discountCents: 7_000,
      shippingCents: 0,
      totalCents: 63_000,
    });
  });

  it('rounds the discount share down', () => {
    const order = { ...kitchenSink(), discountCents: 1_001 };
    expect(linesPart(order, [12]).discountCents).toBe(412);
  });

  it('then gives back exactly what is left: the other lines, the rest of the discount, shipping', () => {
    const rest = remainderPart(kitchenSink([12], 63_000));
    expect(rest).toEqual({
      lineIndexes: [0],
      discountCents: 10_000,
      shippingCents: 1_500,
      totalCents: 91_500,
    });
    expect(63_000 + rest.totalCents).toBe(154_500);
  });

  it('refuses nothing chosen, a line of another order, a refunded line, and every line left', () => {
    expect(linesRefusal(kitchenSink(), [])).toBe('none');
    expect(linesRefusal(kitchenSink(), [99])).toBe('unknown');
    expect(linesRefusal(kitchenSink([12], 63_000), [12])).toBe('already');
    expect(linesRefusal(kitchenSink(), [11, 12])).toBe('all');
    expect(linesRefusal(kitchenSink([12], 63_000), [11])).toBe('all');
    expect(linesRefusal(kitchenSink(), [11])).toBeNull();
  });
});
