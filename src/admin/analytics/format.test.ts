import { describe, expect, it } from 'vitest';
import { MONTH_LABELS, percentChange, type Bucket } from '../../schemas/analytics.ts';
import {
  bestBucket,
  conversionText,
  CONVERSION_MIN_VISITORS,
  currencySymbol,
  formatChange,
  formatRate,
  frenchDay,
  frenchDays,
  zeroAnalytics,
} from './format.ts';

/** Intl writes narrow no-break and thin spaces; the tests read plain ones. */
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('zeroAnalytics (§4: every figure to zero after a failed load)', () => {
  it('zeroes the summary, the products and the customers, with 12 months of zeros', () => {
    const zero = zeroAnalytics('90d', { currency: 'GBP', year: 2026 });
    expect(zero.period).toBe('90d');
    expect(zero.currency).toBe('GBP');
    expect(zero.summary).toEqual({ revenueCents: 0, orders: 0, averageCents: 0 });
    expect(zero.previous).toEqual({ revenueCents: 0, orders: 0, averageCents: 0 });
    expect(zero.change).toEqual({ revenue: 0, orders: 0, average: 0 });
    expect(zero.monthly).toEqual({
      labels: [...MONTH_LABELS],
      thisYear: Array<number>(12).fill(0),
      lastYear: Array<number>(12).fill(0),
      year: 2026,
    });
    expect(zero.sales).toEqual([]);
    expect(zero.byType).toEqual({ originalCents: 0, printCents: 0 });
    expect(zero.top).toEqual([]);
    expect(zero.mostViewed).toEqual([]);
    expect(Object.values(zero.customers).every((value) => value === 0)).toBe(true);
  });

  it('defaults to euros and this year, and shares no array between two calls', () => {
    const a = zeroAnalytics('30d');
    const b = zeroAnalytics('30d');
    expect(a.currency).toBe('EUR');
    expect(a.monthly.year).toBe(new Date().getFullYear());
    a.monthly.thisYear[0] = 5;
    expect(b.monthly.thisYear[0]).toBe(0);
  });
});

describe('currencySymbol', () => {
  it('names the currency for the chart’s dataset', () => {
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol('USD')).toBe('$US');
  });
});

describe('formatChange (§5 percent change on a card)', () => {
  it.each([
    [12.5, '+12,5 %', 'up'],
    [-3, '−3,0 %', 'down'],
    [0, '0,0 %', 'flat'],
    [100, '+100,0 %', 'up'],
    [-100, '−100,0 %', 'down'],
    [33.333, '+33,3 %', 'up'],
    [1234.56, '+1 234,6 %', 'up'],
    // Rounds to 0,0 %: shown as steady, not red.
    [-0.04, '0,0 %', 'flat'],
  ] as const)('%d → %s (%s)', (percent, text, trend) => {
    const shown = formatChange(percent);
    expect(plain(shown.text)).toBe(text);
    expect(shown.trend).toBe(trend);
  });

  it('follows the §5 rule at 0 → 0, 0 → x and x → 0', () => {
    expect(plain(formatChange(percentChange(0, 0)).text)).toBe('0,0 %');
    expect(plain(formatChange(percentChange(500, 0)).text)).toBe('+100,0 %');
    expect(plain(formatChange(percentChange(0, 500)).text)).toBe('−100,0 %');
    expect(formatChange(percentChange(0, 500)).trend).toBe('down');
  });
});

describe('formatRate (§2: conversion with one decimal)', () => {
  it.each([
    [2.4, '2,4 %'],
    [0, '0,0 %'],
    [12.345, '12,3 %'],
    [100, '100,0 %'],
  ])('%d → %s', (rate, expected) => {
    expect(plain(formatRate(rate))).toBe(expected);
  });
});

describe('conversionText (issue 27 §6: a rate only with enough visitors)', () => {
  it("shows '—' rather than '100,0 %' for one buyer and no counted visitor", () => {
    expect(conversionText({ conversionRate: 100, visitors: 0 })).toBe('—');
    expect(conversionText({ conversionRate: 66.7, visitors: 3 })).toBe('—');
    expect(CONVERSION_MIN_VISITORS).toBe(100);
    expect(plain(conversionText({ conversionRate: 2.4, visitors: 100 }))).toBe('2,4 %');
  });
});

describe('dates of the period', () => {
  it('reads YYYY-MM-DD as a calendar day, whatever the machine’s zone', () => {
    expect(frenchDay('2026-10-25')).toBe('25 oct. 2026');
    expect(frenchDay('2026-01-01')).toBe('1 janv. 2026');
  });

  it('writes a bucket’s days as one range', () => {
    expect(plain(frenchDays('2026-11-23', '2026-11-23'))).toBe('23 nov. 2026');
    expect(plain(frenchDays('2026-09-01', '2026-09-07'))).toBe('1–7 sept. 2026');
    expect(plain(frenchDays('2026-12-29', '2027-01-04'))).toBe('29 déc. 2026 – 4 janv. 2027');
  });
});

describe('bestBucket', () => {
  const bucket = (label: string, revenueCents: number): Bucket => ({
    label,
    from: '2026-11-01',
    to: '2026-11-01',
    revenueCents,
    orders: revenueCents > 0 ? 1 : 0,
  });

  it('is the highest revenue, the first on a tie, none when nothing sold', () => {
    expect(bestBucket([bucket('Lun', 10), bucket('Mar', 30), bucket('Mer', 30)])?.label).toBe(
      'Mar',
    );
    expect(bestBucket([bucket('Lun', 0), bucket('Mar', 0)])).toBeNull();
    expect(bestBucket([])).toBeNull();
  });
});
