import { describe, expect, it } from 'vitest';
import {
  accountAddressThrottleKey,
  accountThrottleKey,
  LOGIN_THROTTLE,
  lockDelaySeconds,
  type ThrottleRule,
} from './throttle.ts';

/**
 * The most failures one client can make in a row on one account without a pause longer than
 * `forgetAfterSeconds` (after which the account-wide count starts again): each failure is
 * followed by at least the lock the per-(account, address) rule imposes.
 */
function longestChain(perAddress: ThrottleRule, forgetAfterSeconds: number): number {
  let failures = 1;
  while (lockDelaySeconds(perAddress, failures) <= forgetAfterSeconds) {
    failures++;
    if (failures > 10_000) return Infinity;
  }
  return failures;
}

describe('login throttle delays', () => {
  const rule = LOGIN_THROTTLE.accountAddress;

  it('lets one address make four failures on an account, then locks it for a delay that doubles up to a cap', () => {
    expect([1, 2, 3, 4].map((n) => lockDelaySeconds(rule, n))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => lockDelaySeconds(rule, n))).toEqual([30, 60, 120, 240]);
    expect(lockDelaySeconds(rule, 12)).toBe(3600);
    expect(lockDelaySeconds(rule, 10_000)).toBe(3600);
  });

  it('gives a shared address more room than one account from it', () => {
    expect(lockDelaySeconds(LOGIN_THROTTLE.ip, 19)).toBe(0);
    expect(lockDelaySeconds(LOGIN_THROTTLE.ip, 20)).toBe(30);
  });

  it('never lets one address reach the account-wide lock (issue 14: lockout as a weapon)', () => {
    const { account } = LOGIN_THROTTLE;
    const chain = longestChain(LOGIN_THROTTLE.accountAddress, account.forgetAfterSeconds);
    expect(chain).toBe(11);
    // Ten addresses or more must act together to lock the account for its owner.
    expect(Math.ceil(account.freeFailures / chain)).toBeGreaterThanOrEqual(10);
    // Once locked, the account's own lock never outlasts its memory, so waiting it out does not
    // hand a distributed attacker a fresh 100 guesses.
    expect(account.maxDelaySeconds).toBeLessThan(account.forgetAfterSeconds);
  });

  it('keys (account, address) pairs under their account, whatever the case of the address', () => {
    const account = accountThrottleKey('Owner@Example.test').key;
    expect(accountThrottleKey('owner@example.test').key).toBe(account);
    const fromA = accountAddressThrottleKey('owner@example.test', '192.0.2.1').key;
    const fromB = accountAddressThrottleKey('OWNER@example.test', '192.0.2.2').key;
    expect(fromA.startsWith(`${account}:ip:`)).toBe(true);
    expect(fromB.startsWith(`${account}:ip:`)).toBe(true);
    expect(fromA).not.toBe(fromB);
    expect(fromA).not.toContain('192.0.2.1');
  });
});
