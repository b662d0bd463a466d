// Issue 24, break 3: with four clients posting, three pg_terminate_backend of the database's
// connections ended the process (`Unhandled 'error' event … 57P01`): a connection in use had no
// error listener. Now a dropped connection costs only the requests in flight — each answered 503
// with Retry-After and `database_unavailable` — and the next requests succeed once PostgreSQL
// accepts connections again. Drops are made one after another, each once the server answered
// again: an event, not a pace.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#api/db/index.ts';
import { dropAndRecover, startLoad, type Drop } from '../helpers/connection-loss.ts';
import { testDbKind } from '../helpers/db.ts';
import { until } from '../helpers/wait.ts';
import { makeUser } from '../helpers/factories.ts';
import { freshShop, startServer, type FreshShop, type RunningServer } from '../helpers/server.ts';
import {
  cloneDatabase,
  dropDatabase,
  ensureGoldenShop,
  GOLDEN_SITE_URL,
  makeGoldenTemplate,
} from '../setup/golden.ts';

const adminUrl = process.env['DATABASE_URL'] ?? '';

function unexpectedErrors(output: string): string {
  return output
    .split('\n')
    .filter((line) => line.includes('"level":"error"'))
    .join('\n')
    .slice(0, 4000);
}

describe.skipIf(testDbKind() !== 'postgres')(
  'PostgreSQL dropping the server’s connections under load',
  { tags: ['pg-driver'] },
  () => {
    let shop: FreshShop;
    let server: RunningServer;
    let template: string;
    const database = `galerie_t_loss_${process.pid}`;
    let cookie: string;

    beforeAll(async () => {
      shop = await freshShop('pg-connection-loss');
      const golden = await ensureGoldenShop(GOLDEN_SITE_URL);
      template = await makeGoldenTemplate(adminUrl, golden, process.pid);
      const url = await cloneDatabase(adminUrl, template, database);
      const handle = await openDatabase({ databaseUrl: url, maxConnections: 1 });
      ({ secureCookie: cookie } = await makeUser(handle.db));
      await handle.close();
      server = await startServer({ ...shop, env: { DATABASE_URL: url } });
    });

    afterAll(async () => {
      await server?.stop();
      await dropDatabase(adminUrl, database).catch(() => {});
      if (template) await dropDatabase(adminUrl, template).catch(() => {});
      shop?.remove();
    });

    it('stays up: requests in flight get 503 with Retry-After, the next ones succeed', async () => {
      const load = startLoad(server.base, ['/api/auth/session', '/api/account/orders'], cookie);
      const drops: Drop[] = [];
      try {
        for (let i = 0; i < 3; i++) drops.push(await dropAndRecover(load, adminUrl, database));
      } finally {
        await load.stop();
      }
      // The drops did end connections the server was using.
      expect(drops.reduce((n, drop) => n + drop.ended, 0)).toBeGreaterThan(0);
      expect(server.child.exitCode).toBeNull();
      expect(server.child.signalCode).toBeNull();
      // On failure, the server's own account of each unexpected error says which one slipped by.
      expect(load.wrong(), unexpectedErrors(server.output())).toEqual([]);
      expect(load.answers.filter((a) => a.status === 200).length).toBeGreaterThan(3);
      // Healthy again, polled: in one CI run on a loaded host (29 Nov 2026) the first health
      // check after the drops said 503, its cause not kept. A failure now says what the last
      // answer was and what the server logged; a server that stays unhealthy still fails here.
      let lastHealth = '';
      let firstHealth = '';
      await until('a healthy server after the drops', async () => {
        const health = await fetch(`${server.base}/api/health`);
        lastHealth = `${health.status} ${await health.text()}`;
        firstHealth ||= lastHealth;
        return health.status === 200;
      }).catch((error: unknown) => {
        throw new Error(
          `${String(error)}: last ${lastHealth}\n${unexpectedErrors(server.output())}`,
        );
      });
      if (firstHealth !== lastHealth) console.warn(`first health after the drops: ${firstHealth}`);
      expect(server.output()).not.toMatch(/Unhandled|uncaughtException|"level":"fatal"/);
    });
  },
);

describe.skipIf(testDbKind() !== 'postgres')(
  'a connection PostgreSQL ended is never handed out again',
  { tags: ['pg-driver'] },
  () => {
    // The pool takes a released client back unless it knows the connection is finished, and pg
    // learns that from the socket's end — which Node reads after the promise callbacks of the
    // query that got the server's FATAL error have run. A query made right after that failure
    // was handed the dead connection and failed as well: one more 503 (api/db/index.ts
    // `PreparingClient.retire`). One connection in the pool makes the next query take the same
    // client unless it was dropped.
    it('the query right after a terminated one gets a new connection', async () => {
      const handle = await openDatabase({ databaseUrl: adminUrl, maxConnections: 1 });
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(
          handle.db,
        );
        const pid = rows[0]!.pid;
        const sleeping = sql`select pg_sleep(60)`.execute(handle.db).then(
          () => null,
          (error: unknown) => error,
        );
        await until('the query running on its backend', async () => {
          const active = await admin.query(
            `select 1 from pg_stat_activity where pid = $1 and query like '%pg_sleep%'`,
            [pid],
          );
          return active.rowCount === 1;
        });
        await admin.query('select pg_terminate_backend($1)', [pid]);
        const failure = await sleeping;
        expect(String(failure)).toMatch(/terminating connection/);
        // At once, in the same turn of the event loop as the failure.
        const next = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
        expect(next.rows[0]!.pid).not.toBe(pid);
      } finally {
        await admin.end();
        await handle.close();
      }
    });
  },
);
