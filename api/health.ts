// Health: the site is healthy only when the database answers a query in time.
import { sql } from 'kysely';
import type { Database } from './db/index.ts';

export interface Health {
  status: 'ok' | 'error';
  db: 'ok' | 'error';
}

export async function checkHealth(db: Database, timeoutMs = 2000): Promise<Health> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database timeout')), timeoutMs);
  });
  try {
    await Promise.race([sql`SELECT 1`.execute(db), timeout]);
    return { status: 'ok', db: 'ok' };
  } catch {
    return { status: 'error', db: 'error' };
  } finally {
    clearTimeout(timer);
  }
}
