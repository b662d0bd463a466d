// PostgreSQL dropping a running server's connections under load (issue 24, break 3): shared by
// tests/integration/pg-connection-loss.test.ts, which asserts, and bench/pg-connection-loss.ts,
// which prints the figures. Clients keep asking for pages of data that each need the database;
// the database's connections are terminated, and we watch what the clients see meanwhile.
import pg from 'pg';
import { until } from './wait.ts';

export interface Answer {
  status: number;
  retryAfter: string | null;
  code: string | null;
  at: number;
}

export interface Load {
  answers: Answer[];
  /** Answers that were neither a success nor a 503 with Retry-After and `database_unavailable`. */
  wrong(): Answer[];
  stop(): Promise<void>;
}

/** `clients` loops asking `paths` of `base` in turn, each with `cookie`, until stopped. */
export function startLoad(base: string, paths: string[], cookie: string, clients = 4): Load {
  const answers: Answer[] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let i = client; running; i++) {
      const pathname = paths[i % paths.length]!;
      try {
        const response = await fetch(`${base}${pathname}`, { headers: { cookie } });
        const text = await response.text();
        let code: string | null = null;
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
        } catch {
          // not JSON
        }
        answers.push({
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          code,
          at: performance.now(),
        });
      } catch {
        // The connection itself failed: the server is gone.
        answers.push({ status: 0, retryAfter: null, code: null, at: performance.now() });
      }
    }
  });
  return {
    answers,
    wrong: () =>
      answers.filter(
        (a) =>
          a.status !== 200 &&
          !(a.status === 503 && a.retryAfter !== null && a.code === 'database_unavailable'),
      ),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Ends every connection to `database` but the caller's; how many it ended. */
export async function terminateConnections(adminUrl: string, database: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    return result.rows.filter((row: { ended: boolean }) => row.ended).length;
  } finally {
    await client.end();
  }
}

export interface Drop {
  /** performance.now() when the connections were dropped. */
  at: number;
  ended: number;
  /** Answers that failed between the drop and the first success after it. */
  failed: number;
  /** From the drop to the first success after it. */
  recoveredMs: number;
}

/** Drops `database`'s connections under `load`; waits for the first success after it. */
export async function dropAndRecover(
  load: Load,
  adminUrl: string,
  database: string,
): Promise<Drop> {
  const from = load.answers.length;
  const droppedAt = performance.now();
  const ended = await terminateConnections(adminUrl, database);
  const recovered = await until('a successful answer after the connections were dropped', () => {
    const since = load.answers.slice(from);
    if (since.some((a) => a.status === 0))
      throw new Error('the server stopped answering (connection refused): it died');
    return since.find((a) => a.status === 200 && a.at > droppedAt);
  });
  const between = load.answers.slice(from).filter((a) => a.at <= recovered.at);
  return {
    at: droppedAt,
    ended,
    failed: between.filter((a) => a.status !== 200).length,
    recoveredMs: recovered.at - droppedAt,
  };
}
