// Cluster-wide mutual exclusion for the jobs several nodes of one PostgreSQL database must not run
// at the same time (docs/decisions/028): session-level advisory locks, held on one pooled
// connection for as long as the job runs, so a node that dies releases its lock with its
// connection. Reconciliation (api/payments/reconcile.ts) and the daily backup
// (api/backup/schedule.ts) take their own keys through tryClusterLock too.
//
// Only on PostgreSQL: PGlite is one process's database, and Kysely gives it a single connection
// that holding a lock would keep from the job itself.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** pg_advisory_lock keys, the same on every node ("G008", "G012", "G028" in ASCII: the decisions). */
export const CLUSTER_LOCKS = {
  /** Migrations and the first start's demo catalogue (nodes starting together). */
  prepare: '1194340920',
  /** The hold sweeper (docs/decisions/008). */
  sweep: '1194340408',
  /** Start-up builds and publish builds (docs/decisions/012). */
  publish: '1194340658',
} as const;

export type ClusterLockKey = (typeof CLUSTER_LOCKS)[keyof typeof CLUSTER_LOCKS];

/**
 * Runs `fn` holding the lock `key`; resolves null at once, without running it, when another
 * session (another node) holds it.
 */
export function tryClusterLock<T>(
  // Any schema: the lock needs only a connection (the backup runs on an untyped handle).
  db: Pick<Database, 'connection'> | Pick<Kysely<unknown>, 'connection'>,
  key: string,
  fn: () => Promise<T>,
): Promise<T | null> {
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`SELECT pg_try_advisory_lock(${key}::bigint) AS locked`.execute(connection);
    if (!rows[0]?.locked) return null;
    try {
      return await fn();
    } finally {
      await sql`SELECT pg_advisory_unlock(${key}::bigint)`.execute(connection);
    }
  });
}

export interface WaitOptions {
  /** Stops waiting (server shutdown): rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** How often a waiting node asks again (no connection is held while it waits). */
  pollMs?: number;
}

/**
 * Runs `fn` holding the lock `key`, waiting first for as long as another node holds it. The wait
 * asks again every `pollMs` rather than blocking in `pg_advisory_lock`, so it keeps no pooled
 * connection and a shutdown can end it.
 */
export async function withClusterLock<T>(
  db: Database,
  key: string,
  fn: () => Promise<T>,
  options: WaitOptions = {},
): Promise<T> {
  const pollMs = options.pollMs ?? 500;
  for (;;) {
    options.signal?.throwIfAborted();
    let ran = false;
    const result = await tryClusterLock(db, key, async () => {
      ran = true;
      return fn();
    });
    if (ran) return result as T;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(options.signal?.reason as Error);
      };
      const timer = setTimeout(() => {
        options.signal?.removeEventListener('abort', onAbort);
        resolve();
      }, pollMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
