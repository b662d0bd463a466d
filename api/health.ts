// Health: ok only when the database answers a query in time and the server can render its pages
// (a version of the built site is loaded whole: api/http/site.ts).
import { sql } from 'kysely';
import type { Database } from './db/index.ts';

export interface Health {
  status: 'ok' | 'error';
  db: 'ok' | 'error';
  pages: 'ok' | 'error';
}

export async function checkHealth(
  db: Database,
  canRender: () => boolean = () => true,
  timeoutMs = 2000,
): Promise<Health> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database timeout')), timeoutMs);
  });
  const pages = canRender() ? 'ok' : 'error';
  try {
    await Promise.race([sql`SELECT 1`.execute(db), timeout]);
    return { status: pages, db: 'ok', pages };
  } catch {
    return { status: 'error', db: 'error', pages };
  } finally {
    clearTimeout(timer);
  }
}
