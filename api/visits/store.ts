// Where visit counts go: visit_counts, work_views, visitor_hashes and visitor_days (migration
// 20261123_0400_analytics). Repository functions take `db | trx`; `databaseStore` writes one
// batch in one transaction, and looks up whether a session is an administrator's.
import { sql } from 'kysely';
import { parseSessionToken } from '../accounts/sessions.ts';
import { tokenMatches } from '../accounts/tokens.ts';
import type { Database, Executor } from '../db/index.ts';

export interface VisitBatch {
  visits: { day: string; path: string; visits: number }[];
  works: { day: string; work: string; views: number }[];
  /** Hashes seen for the first time by this process, per day (they may already be stored). */
  visitors: { day: string; hashes: Buffer[] }[];
}

/** What the counter needs from the outside world (a fake in unit tests). */
export interface VisitStore {
  /** Adds a batch; hashes of days before `today` are then deleted. All or nothing. */
  save(batch: VisitBatch, today: string): Promise<void>;
  /** Whether a `session` cookie value belongs to a live administrator's session. */
  isAdminSession(token: string, now: Date): Promise<boolean>;
}

// Few enough rows per statement to stay far below PostgreSQL's 65 535 parameters.
const CHUNK = 1000;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

export async function addVisits(db: Executor, rows: VisitBatch['visits']): Promise<void> {
  for (const part of chunks(rows))
    await db
      .insertInto('visit_counts')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['day', 'path'])
          .doUpdateSet({ visits: sql<number>`visit_counts.visits + excluded.visits` }),
      )
      .execute();
}

export async function addWorkViews(db: Executor, rows: VisitBatch['works']): Promise<void> {
  for (const part of chunks(rows))
    await db
      .insertInto('work_views')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['day', 'work'])
          .doUpdateSet({ views: sql<number>`work_views.views + excluded.views` }),
      )
      .execute();
}

/** Stores the day's new hashes and adds the number actually new to that day's visitors. */
export async function addVisitors(db: Executor, day: string, hashes: Buffer[]): Promise<number> {
  let added = 0;
  for (const part of chunks(hashes)) {
    const inserted = await db
      .insertInto('visitor_hashes')
      .values(part.map((hash) => ({ day, hash })))
      .onConflict((oc) => oc.columns(['day', 'hash']).doNothing())
      .returning('day')
      .execute();
    added += inserted.length;
  }
  if (added > 0)
    await db
      .insertInto('visitor_days')
      .values({ day, visitors: added })
      .onConflict((oc) =>
        oc
          .column('day')
          .doUpdateSet({ visitors: sql<number>`visitor_days.visitors + excluded.visitors` }),
      )
      .execute();
  return added;
}

/** Only the per-day count outlives its day: the hashes of earlier days are deleted. */
export async function deleteHashesBefore(db: Executor, today: string): Promise<number> {
  const result = await db.deleteFrom('visitor_hashes').where('day', '<', today).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Read-only on purpose: unlike validateSessionToken (api/accounts/sessions.ts) it neither extends
 * nor deletes the session, since the counter runs after the response and sets no cookie.
 */
export async function isAdminSession(db: Executor, token: string, now: Date): Promise<boolean> {
  const parts = parseSessionToken(token);
  if (!parts) return false;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.secret_hash', 'sessions.expires_at', 'users.role'])
    .where('sessions.id', '=', parts.id)
    .executeTakeFirst();
  return (
    row !== undefined &&
    row.role === 'admin' &&
    row.expires_at.getTime() > now.getTime() &&
    tokenMatches(parts.secret, row.secret_hash)
  );
}

export function databaseStore(db: Database): VisitStore {
  return {
    async save(batch, today) {
      await db.transaction().execute(async (trx) => {
        await addVisits(trx, batch.visits);
        await addWorkViews(trx, batch.works);
        for (const { day, hashes } of batch.visitors) await addVisitors(trx, day, hashes);
        await deleteHashesBefore(trx, today);
      });
    },
    isAdminSession: (token, now) => isAdminSession(db, token, now),
  };
}
