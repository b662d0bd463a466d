import { describe, expect, it } from 'vitest';
import { formatMoney, formatWholeMoney } from './money.ts';

/** Intl writes narrow no-break and thin spaces; the tests read plain ones. */
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('formatMoney (to the cent, in the reader’s locale)', () => {
  it.each([
    [123_450, 'EUR', 'fr', '1 234,50 €'],
    [35_000, 'EUR', 'fr', '350,00 €'],
    [-2_500, 'EUR', 'fr', '-25,00 €'],
    [1_999, 'USD', 'fr', '19,99 $US'],
    [1_200, 'GBP', 'fr', '12,00 £GB'],
    [123_450, 'EUR', 'en', '€1,234.50'],
    [35_000, 'GBP', 'en', '£350.00'],
  ] as const)('%i cents in %s (%s) → %s', (cents, currency, locale, expected) => {
    expect(plain(formatMoney(cents, currency, locale))).toBe(expected);
  });

  it('is French and in euros unless told otherwise', () => {
    expect(plain(formatMoney(185_000))).toBe('1 850,00 €');
  });

  it('keeps the locales apart for one currency', () => {
    expect(plain(formatMoney(100, 'EUR', 'fr'))).toBe('1,00 €');
    expect(formatMoney(100, 'EUR', 'en')).toBe('€1.00');
  });

  it('refuses a malformed currency code as Intl does', () => {
    expect(() => formatMoney(100, 'EURO')).toThrow(RangeError);
  });
});

describe('formatWholeMoney (back office §9: French format, no decimals)', () => {
  it.each([
    [123_456, 'EUR', '1 235 €'],
    [0, 'EUR', '0 €'],
    [4_200_000, 'EUR', '42 000 €'],
    [99_950, 'USD', '1 000 $US'],
    [1_200, 'GBP', '12 £GB'],
  ])('%i cents in %s → %s', (cents, currency, expected) => {
    expect(plain(formatWholeMoney(cents, currency))).toBe(expected);
  });

  it('does not share a format with formatMoney', () => {
    expect(plain(formatMoney(123_456, 'EUR'))).toBe('1 234,56 €');
    expect(plain(formatWholeMoney(123_456, 'EUR'))).toBe('1 235 €');
  });
});
