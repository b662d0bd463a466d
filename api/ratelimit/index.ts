// Fixed-window rate limits kept in PostgreSQL (rate_limits), so every app server shares them.
// One atomic upsert per hit counts correctly under concurrency; old windows are pruned now and then.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { systemClock } from '../clock.ts';

export interface RateLimitRule {
  /** Hits allowed per window. */
  limit: number;
  /** Window length; at most a day, since pruning drops windows older than that. */
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the current window ends (0 when allowed). */
  retryAfterSeconds: number;
  hits: number;
}

const MAX_WINDOW_SECONDS = 86_400;
/** Chance that a hit opening a new window also prunes expired windows of every key. */
const PRUNE_PROBABILITY = 0.05;

/** A key that does not store the raw identifier (an e-mail or IP address) in rate_limits. */
export function rateLimitKey(scope: string, identifier: string): string {
  const digest = createHash('sha256').update(identifier).digest('base64url').slice(0, 32);
  return `${scope}:${digest}`;
}

/** Counts one hit on `key` in the current window and says whether it is within the limit. */
export async function hit(
  db: Database,
  key: string,
  rule: RateLimitRule,
  now: Date = systemClock(),
): Promise<RateLimitResult> {
  if (!(rule.windowSeconds > 0 && rule.windowSeconds <= MAX_WINDOW_SECONDS))
    throw new RangeError(`windowSeconds must be between 1 and ${MAX_WINDOW_SECONDS}`);
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql<number>`rate_limits.hits + 1` }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  if (row.hits === 1 && Math.random() < PRUNE_PROBABILITY) await pruneRateLimits(db, now);
  const allowed = row.hits <= rule.limit;
  const retryAfterSeconds = allowed
    ? 0
    : Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed, retryAfterSeconds, hits: row.hits };
}

/**
 * Takes back a hit counted at `now` on `key`: for limits on failures, where every attempt is
 * counted first (atomically, so a burst cannot slip past the limit) and a success is given back.
 */
export async function unhit(
  db: Database,
  key: string,
  rule: RateLimitRule,
  now: Date = systemClock(),
): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  await db
    .updateTable('rate_limits')
    .set({ hits: sql<number>`greatest(rate_limits.hits - 1, 0)` })
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .execute();
}

/** Deletes windows that ended before `now` for any rule (windows last at most a day). */
export async function pruneRateLimits(db: Database, now: Date = systemClock()): Promise<number> {
  const cutoff = new Date(now.getTime() - MAX_WINDOW_SECONDS * 1000);
  const result = await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
