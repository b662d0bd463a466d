import { describe, expect, it } from 'vitest';
import { centsToField, fieldToCents, frenchDate, frenchHour } from './format.ts';

describe('back office formats', () => {
  it('writes dates in Paris time whatever the machine’s zone', () => {
    // 04:19 UTC is 05:19 in Paris in winter, 06:19 in summer.
    expect(frenchDate('2026-11-26T04:19:00Z')).toBe('26/11/2026 05:19');
    expect(frenchHour('2026-07-01T04:19:00Z')).toBe('06:19');
  });

  it('shows amounts in French and reads them back', () => {
    expect(centsToField(940000)).toBe('9 400,00');
    expect(centsToField(50000, false)).toBe('500');
    expect(centsToField(1550, false)).toBe('15,50');
    for (const cents of [0, 5, 940000, 123456789])
      expect(fieldToCents(centsToField(cents))).toBe(cents);
  });

  it('reads what an owner types', () => {
    expect(fieldToCents('9400.00')).toBe(940000);
    expect(fieldToCents('9 400,5')).toBe(940050);
    expect(fieldToCents('9\u202f400 €')).toBe(940000);
    expect(fieldToCents('0,07')).toBe(7);
    expect(fieldToCents('')).toBeNaN();
    expect(fieldToCents('12,345')).toBeNaN();
    expect(fieldToCents('abc')).toBeNaN();
  });
});
