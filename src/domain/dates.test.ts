import { describe, expect, it } from 'vitest';
import { formatLongDate, frenchFirstOfMonth } from './dates.ts';

describe('frenchFirstOfMonth', () => {
  it('writes the first of a month as an ordinal, in a date and a date with its time', () => {
    expect(frenchFirstOfMonth('1 juin 2025')).toBe('1er juin 2025');
    expect(frenchFirstOfMonth('1 août 2026 à 09:05')).toBe('1er août 2026 à 09:05');
    expect(frenchFirstOfMonth('Mis à jour le 1 décembre 2026')).toBe(
      'Mis à jour le 1er décembre 2026',
    );
  });

  it('leaves other days, other numbers and English alone', () => {
    expect(frenchFirstOfMonth('11 juin 2025')).toBe('11 juin 2025');
    expect(frenchFirstOfMonth('21 mai 2025')).toBe('21 mai 2025');
    expect(frenchFirstOfMonth('31 janvier 2026')).toBe('31 janvier 2026');
    expect(frenchFirstOfMonth('1 June 2025')).toBe('1 June 2025');
    expect(frenchFirstOfMonth('1er juin 2025')).toBe('1er juin 2025');
  });

  it('agrees with Intl’s French long dates', () => {
    const long = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'UTC' });
    expect(frenchFirstOfMonth(long.format(new Date('2026-03-01T12:00:00Z')))).toBe('1er mars 2026');
    expect(frenchFirstOfMonth(long.format(new Date('2026-03-10T12:00:00Z')))).toBe('10 mars 2026');
  });
});

describe('formatLongDate', () => {
  it('prints Paris time by default, the time when asked, the first of a month as an ordinal', () => {
    // 23:30 UTC on 31 May is already 1 June in Paris.
    expect(formatLongDate('fr', '2026-05-31T23:30:00Z')).toBe('1er juin 2026');
    expect(formatLongDate('en', '2026-05-31T23:30:00Z')).toBe('1 June 2026');
    expect(formatLongDate('fr', '2026-05-31T23:30:00Z', { time: true })).toBe(
      '1er juin 2026 à 01:30',
    );
    expect(formatLongDate('fr', new Date('2025-06-01T00:00:00Z'), { timeZone: 'UTC' })).toBe(
      '1er juin 2025',
    );
  });
});
