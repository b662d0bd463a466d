// Login throttling kept in PostgreSQL (login_throttle), so every app server shares it. An attempt
// is counted *before* the password is checked: parallel guesses cannot slip through while Argon2
// runs. From the Nth failure on, each one locks the key for a delay that doubles; while locked,
// every attempt is refused, the right password included. The strict lock is per (account, client
// address): guessing from one address never locks the owner out from another (issue 14).
import { sql } from 'kysely';
import type { Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { rateLimitKey } from '../ratelimit/index.ts';
import { systemClock } from '../clock.ts';

export interface ThrottleRule {
  /** Failures allowed before the first lock (the lock starts with this one). */
  freeFailures: number;
  /** Lock after the Nth failure; doubles with each further one. */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** Failures older than this are forgotten: the count starts again. */
  forgetAfterSeconds: number;
}

/**
 * - `accountAddress`: 5 failures on one account from one client address (IPv4, or IPv6 /64) lock
 *   that pair 30 s, then 1 min, 2 min… up to 1 h. Only that address is refused.
 * - `account`: the account itself locks only after 100 failures with no 30-minute pause between
 *   them (1 min, doubling up to 15 min). One address cannot get there: its growing locks spread
 *   its failures more than 30 min apart after at most 11 of them (throttle.test.ts proves it
 *   from these numbers), so it takes ten addresses or more acting together — a distributed
 *   attack, which this slows to about 4 guesses an hour once reached. The owner can still reset
 *   the password, which clears every lock of the account.
 * - `ip`: a shared address (an office, a mobile carrier) carries many people, so it gets 20
 *   failures across all accounts before the same growing delay: spraying one password over many
 *   accounts from one address stops there.
 */
export const LOGIN_THROTTLE: {
  accountAddress: ThrottleRule;
  account: ThrottleRule;
  ip: ThrottleRule;
} = {
  accountAddress: {
    freeFailures: 5,
    baseDelaySeconds: 30,
    maxDelaySeconds: 3600,
    forgetAfterSeconds: 86_400,
  },
  account: {
    freeFailures: 100,
    baseDelaySeconds: 60,
    maxDelaySeconds: 900,
    forgetAfterSeconds: 1800,
  },
  ip: { freeFailures: 20, baseDelaySeconds: 30, maxDelaySeconds: 3600, forgetAfterSeconds: 86_400 },
};

/** Doublings past which the delay is the maximum anyway (keeps power() far from overflow). */
const MAX_DOUBLINGS = 20;
const PRUNE_PROBABILITY = 0.02;

export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

/** The account-wide key; its (account, address) keys extend it (clearAccountThrottle). */
export function accountThrottleKey(email: string): ThrottleKey {
  return {
    key: rateLimitKey('login:account', email.trim().toLowerCase()),
    rule: LOGIN_THROTTLE.account,
  };
}

/** One account from one address bucket ('' when the address is unknown: one shared bucket). */
export function accountAddressThrottleKey(email: string, ipBucket: string): ThrottleKey {
  return {
    key: rateLimitKey(`${accountThrottleKey(email).key}:ip`, ipBucket),
    rule: LOGIN_THROTTLE.accountAddress,
  };
}

export function ipThrottleKey(ipBucket: string): ThrottleKey {
  return { key: rateLimitKey('login:ip', ipBucket), rule: LOGIN_THROTTLE.ip };
}

/** Every key one login attempt counts on. */
export interface LoginThrottleKeys {
  accountAddress: ThrottleKey;
  account: ThrottleKey;
  /** Absent when the client address is unknown. */
  ip: ThrottleKey | undefined;
}

export function loginThrottleKeys(email: string, ipBucket: string): LoginThrottleKeys {
  return {
    accountAddress: accountAddressThrottleKey(email, ipBucket),
    account: accountThrottleKey(email),
    ip: ipBucket ? ipThrottleKey(ipBucket) : undefined,
  };
}

export function throttleKeyList(keys: LoginThrottleKeys): ThrottleKey[] {
  return keys.ip
    ? [keys.accountAddress, keys.account, keys.ip]
    : [keys.accountAddress, keys.account];
}

/** The lock that follows the `failures`-th failure, in seconds (0: not locked). */
export function lockDelaySeconds(rule: ThrottleRule, failures: number): number {
  if (failures < rule.freeFailures) return 0;
  const doublings = Math.min(failures - rule.freeFailures, MAX_DOUBLINGS);
  return Math.min(rule.maxDelaySeconds, rule.baseDelaySeconds * 2 ** doublings);
}

function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

/**
 * Admits one attempt on every key, counting it as a failure until `attemptSucceeded` says
 * otherwise, or throws `rate_limited` with the longest remaining lock as Retry-After.
 */
export async function beginAttempt(
  db: Executor,
  keys: readonly ThrottleKey[],
  now: Date = systemClock(),
): Promise<void> {
  const locked = await db
    .selectFrom('login_throttle')
    .select('locked_until')
    .where(
      'key',
      'in',
      keys.map((k) => k.key),
    )
    .where('locked_until', '>', now)
    .execute();
  refuseIfLocked(locked, now);
  for (const { key, rule } of keys) {
    const forgetBefore = new Date(now.getTime() - rule.forgetAfterSeconds * 1000);
    const failures = sql<number>`(CASE WHEN login_throttle.last_failure_at < ${forgetBefore} THEN 1 ELSE login_throttle.failures + 1 END)`;
    const delay = sql<number>`LEAST(${rule.maxDelaySeconds}, ${rule.baseDelaySeconds} * power(2, LEAST(${failures} - ${rule.freeFailures}, ${MAX_DOUBLINGS})))`;
    const firstLock = lockDelaySeconds(rule, 1);
    const { rows } = await sql<{ failures: number }>`
      INSERT INTO login_throttle (key, failures, last_failure_at, locked_until)
      VALUES (${key}, 1, ${now}, ${firstLock > 0 ? new Date(now.getTime() + firstLock * 1000) : null})
      ON CONFLICT (key) DO UPDATE SET
        failures = ${failures},
        last_failure_at = ${now},
        locked_until = CASE WHEN ${failures} >= ${rule.freeFailures}
          THEN ${now}::timestamptz + ${delay} * interval '1 second' ELSE NULL END
      WHERE login_throttle.locked_until IS NULL OR login_throttle.locked_until <= ${now}
      RETURNING failures`.execute(db);
    if (rows.length === 0) {
      // Locked by a concurrent failure between our look and our count.
      const row = await db
        .selectFrom('login_throttle')
        .select('locked_until')
        .where('key', '=', key)
        .executeTakeFirst();
      refuseIfLocked(row ? [row] : [], now);
    }
  }
  if (Math.random() < PRUNE_PROBABILITY) await pruneLoginThrottle(db, now);
}

function refuseIfLocked(rows: readonly { locked_until: Date | null }[], now: Date): void {
  const until = rows
    .map((r) => r.locked_until)
    .filter((d): d is Date => d !== null && d.getTime() > now.getTime())
    .sort((a, b) => b.getTime() - a.getTime())[0];
  if (until) throw new AppError('rate_limited', { retryAfterSeconds: secondsUntil(until, now) });
}

/**
 * The attempt was right: the failures of this account from this address are forgotten (its owner
 * proved themselves there); the account-wide and address-wide counts only get this attempt back,
 * so a successful login neither wipes a distributed attack's progress nor washes a spraying
 * address clean.
 */
export async function attemptSucceeded(db: Executor, keys: LoginThrottleKeys): Promise<void> {
  await clearThrottle(db, keys.accountAddress);
  await giveBackAttempt(db, keys.account);
  if (keys.ip) await giveBackAttempt(db, keys.ip);
}

/** Uncounts one attempt counted by beginAttempt, lifting the lock if it no longer applies. */
async function giveBackAttempt(db: Executor, { key, rule }: ThrottleKey): Promise<void> {
  await sql`
    UPDATE login_throttle SET
      failures = GREATEST(failures - 1, 0),
      locked_until = CASE WHEN failures - 1 >= ${rule.freeFailures} THEN locked_until ELSE NULL END
    WHERE key = ${key}`.execute(db);
}

/** Forgets every failure of a key. */
export async function clearThrottle(db: Executor, key: ThrottleKey): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key.key).execute();
}

/**
 * Forgets every failure of an account, account-wide and from every address (a password reset:
 * whoever holds the mailbox is the owner; a customer erased).
 */
export async function clearAccountThrottle(db: Executor, email: string): Promise<void> {
  const { key } = accountThrottleKey(email);
  await db
    .deleteFrom('login_throttle')
    .where((eb) => eb.or([eb('key', '=', key), sql<boolean>`starts_with(key, ${`${key}:ip:`})`]))
    .execute();
}

/** Drops rows whose failures are all forgotten and whose lock is over. */
export async function pruneLoginThrottle(db: Executor, now: Date = systemClock()): Promise<number> {
  const longest = Math.max(...Object.values(LOGIN_THROTTLE).map((r) => r.forgetAfterSeconds));
  const result = await db
    .deleteFrom('login_throttle')
    .where('last_failure_at', '<', new Date(now.getTime() - longest * 1000))
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
