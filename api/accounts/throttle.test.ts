import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE, lockDelaySeconds } from './throttle.ts';

describe('login throttle delays', () => {
  const rule = LOGIN_THROTTLE.account;

  it('lets the first four failures pass, then locks for a delay that doubles up to a cap', () => {
    expect([1, 2, 3, 4].map((n) => lockDelaySeconds(rule, n))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => lockDelaySeconds(rule, n))).toEqual([30, 60, 120, 240]);
    expect(lockDelaySeconds(rule, 12)).toBe(3600);
    expect(lockDelaySeconds(rule, 10_000)).toBe(3600);
  });

  it('gives a shared address more room than one account', () => {
    expect(lockDelaySeconds(LOGIN_THROTTLE.ip, 19)).toBe(0);
    expect(lockDelaySeconds(LOGIN_THROTTLE.ip, 20)).toBe(30);
  });
});
