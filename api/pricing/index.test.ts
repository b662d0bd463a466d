import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../settings/index.ts';
import {
  activePromoCodes,
  applyPromo,
  computeTotals,
  discountFor,
  findPromo,
  shippingRule,
} from './index.ts';

const codes = activePromoCodes(DEFAULT_SETTINGS);
const rule = shippingRule(DEFAULT_SETTINGS);

describe('promo codes', () => {
  it('come from the settings, active ones only, case-insensitive', () => {
    expect(codes).toEqual([
      { code: 'WELCOME10', percent: 10 },
      { code: 'ART20', percent: 20 },
      { code: 'SASHA25', percent: 15 },
    ]);
    expect(findPromo(codes, ' sasha25 ')).toEqual({ code: 'SASHA25', percent: 15 });
    const inactive = activePromoCodes({
      promo_codes: [{ code: 'OLD5', discount: 5, active: false }],
    });
    expect(inactive).toEqual([]);
    expect(findPromo(inactive, 'OLD5')).toBeNull();
  });

  it('answer in the spec order: already applied, then empty, then invalid', () => {
    expect(applyPromo('ART20', '', codes)).toEqual({ ok: false, reason: 'promo_already_applied' });
    expect(applyPromo('ART20', 'NOPE', codes)).toEqual({
      ok: false,
      reason: 'promo_already_applied',
    });
    expect(applyPromo(null, '   ', codes)).toEqual({ ok: false, reason: 'promo_empty' });
    expect(applyPromo(null, 'NOPE', codes)).toEqual({ ok: false, reason: 'promo_invalid' });
    expect(applyPromo(null, 'welcome10', codes)).toEqual({
      ok: true,
      promo: { code: 'WELCOME10', percent: 10 },
    });
  });
});

describe('totals', () => {
  it('round the discount to the cent, half up', () => {
    expect(discountFor(35_000, 15)).toBe(5_250);
    expect(discountFor(333, 15)).toBe(50); // 49.95 → 50
    expect(discountFor(329, 15)).toBe(49); // 49.35 → 49
    expect(discountFor(10, 25)).toBe(3); // 2.5 → 3
  });

  it('charge 15 € below 500 € after discount and nothing from 500 €', () => {
    const below = computeTotals([{ unitPriceCents: 49_999, quantity: 1 }], null, rule);
    expect(below).toEqual({
      subtotalCents: 49_999,
      discountCents: 0,
      shippingCents: 1_500,
      totalCents: 51_499,
    });
    const at = computeTotals([{ unitPriceCents: 50_000, quantity: 1 }], null, rule);
    expect(at).toEqual({
      subtotalCents: 50_000,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 50_000,
    });
  });

  it('apply the threshold after the discount (499.99 / 500.00 edges)', () => {
    // 2 prints at 350 € with SASHA25 (15 %): 700 − 105 = 595 → free shipping.
    expect(
      computeTotals(
        [{ unitPriceCents: 35_000, quantity: 2 }],
        { code: 'SASHA25', percent: 15 },
        rule,
      ),
    ).toEqual({
      subtotalCents: 70_000,
      discountCents: 10_500,
      shippingCents: 0,
      totalCents: 59_500,
    });
    // 555.55 € − 10 % = 499.995 → discount 55.56 (half up) → 499.99 after discount: shipping due.
    expect(
      computeTotals([{ unitPriceCents: 55_555, quantity: 1 }], { code: 'W', percent: 10 }, rule),
    ).toEqual({
      subtotalCents: 55_555,
      discountCents: 5_556,
      shippingCents: 1_500,
      totalCents: 51_499,
    });
    // 625 € − 20 % = 500.00 exactly: free.
    expect(
      computeTotals(
        [{ unitPriceCents: 62_500, quantity: 1 }],
        { code: 'ART20', percent: 20 },
        rule,
      ),
    ).toEqual({
      subtotalCents: 62_500,
      discountCents: 12_500,
      shippingCents: 0,
      totalCents: 50_000,
    });
    // One print at 420 € with WELCOME10: 378 € → 15 € shipping, total 393 €.
    expect(
      computeTotals(
        [{ unitPriceCents: 42_000, quantity: 1 }],
        { code: 'WELCOME10', percent: 10 },
        rule,
      ),
    ).toEqual({
      subtotalCents: 42_000,
      discountCents: 4_200,
      shippingCents: 1_500,
      totalCents: 39_300,
    });
  });

  it('charge nothing for an empty cart and refuse impossible lines', () => {
    expect(computeTotals([], null, rule)).toEqual({
      subtotalCents: 0,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 0,
    });
    expect(() => computeTotals([{ unitPriceCents: 0, quantity: 1 }], null, rule)).toThrow(
      RangeError,
    );
    expect(() => computeTotals([{ unitPriceCents: 100, quantity: 0 }], null, rule)).toThrow(
      RangeError,
    );
    expect(() => computeTotals([{ unitPriceCents: 1.5, quantity: 1 }], null, rule)).toThrow(
      RangeError,
    );
  });

  it('follow a changed shipping setting', () => {
    const custom = { defaultCents: 2_000, freeThresholdCents: 100_000 };
    expect(
      computeTotals([{ unitPriceCents: 60_000, quantity: 1 }], null, custom).shippingCents,
    ).toBe(2_000);
  });
});
