import { describe, expect, it } from 'vitest';
import { hashToken, isTokenShaped, randomToken, tokenMatches } from './tokens.ts';

describe('tokens', () => {
  it('are 160 random bits in lowercase base32, never repeated', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const token = randomToken();
      expect(isTokenShaped(token)).toBe(true);
      expect(token).toMatch(/^[a-z2-7]{32}$/);
      seen.add(token);
    }
    expect(seen.size).toBe(1000);
  });

  it('are stored as their SHA-256 digest and compared to it', () => {
    const token = randomToken();
    const stored = hashToken(token);
    expect(stored.byteLength).toBe(32);
    expect(stored.toString('hex')).not.toContain(Buffer.from(token).toString('hex'));
    expect(tokenMatches(token, stored)).toBe(true);
    const altered = (token[0] === 'a' ? 'b' : 'a') + token.slice(1);
    expect(tokenMatches(altered, stored)).toBe(false);
    expect(tokenMatches(token, stored.subarray(0, 16))).toBe(false);
  });

  it('refuses shapes that cannot be ours before any lookup', () => {
    for (const value of [
      undefined,
      '',
      'A'.repeat(32),
      'a'.repeat(31),
      'a'.repeat(33),
      '1'.repeat(32),
    ])
      expect(isTokenShaped(value)).toBe(false);
  });
});
