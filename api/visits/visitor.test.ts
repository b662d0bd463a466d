import { describe, expect, it } from 'vitest';
import { DailySalt, parisDay, visitorHash } from './visitor.ts';

describe('the Europe/Paris day', () => {
  it('changes at midnight in Paris, summer and winter', () => {
    expect(parisDay(new Date('2026-07-14T21:59:59Z'))).toBe('2026-07-14');
    expect(parisDay(new Date('2026-07-14T22:00:00Z'))).toBe('2026-07-15');
    expect(parisDay(new Date('2026-12-31T22:59:59Z'))).toBe('2026-12-31');
    expect(parisDay(new Date('2026-12-31T23:00:00Z'))).toBe('2027-01-01');
  });
});

describe('the daily salt', () => {
  it('stays the same all day and is replaced when the day changes', () => {
    const salt = new DailySalt();
    const monday = salt.for('2026-11-23');
    expect(monday).toHaveLength(32);
    expect(salt.for('2026-11-23')).toBe(monday);
    const tuesday = salt.for('2026-11-24');
    expect(tuesday.equals(monday)).toBe(false);
  });

  it('is forgotten after midnight even before anyone asks for the new one', () => {
    let calls = 0;
    const salt = new DailySalt((size) => Buffer.alloc(size, ++calls));
    salt.for('2026-11-23');
    salt.retire('2026-11-23');
    expect(salt.for('2026-11-23')[0]).toBe(1);
    salt.retire('2026-11-24');
    expect(salt.for('2026-11-23')[0]).toBe(2);
  });
});

describe('the visitor hash', () => {
  const ua = 'Mozilla/5.0 Firefox/133.0';
  it('is 16 bytes, the same for the same visitor and salt', () => {
    const salt = Buffer.alloc(32, 1);
    const hash = visitorHash(salt, '203.0.113.7', ua);
    expect(hash).toHaveLength(16);
    expect(visitorHash(salt, '203.0.113.7', ua).equals(hash)).toBe(true);
    expect(visitorHash(salt, '203.0.113.8', ua).equals(hash)).toBe(false);
    expect(visitorHash(salt, '203.0.113.7', `${ua} x`).equals(hash)).toBe(false);
  });

  it('cannot be linked to the same visitor under another salt', () => {
    const a = visitorHash(Buffer.alloc(32, 1), '203.0.113.7', ua);
    const b = visitorHash(Buffer.alloc(32, 2), '203.0.113.7', ua);
    expect(a.equals(b)).toBe(false);
  });

  it('does not confuse where the address ends and the user agent starts', () => {
    const salt = Buffer.alloc(32, 1);
    expect(visitorHash(salt, '10.0.0.1', '1x').equals(visitorHash(salt, '10.0.0.11', 'x'))).toBe(
      false,
    );
  });
});
