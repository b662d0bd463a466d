// PostgreSQL dropping the server's connections under load (issue 24, break 3): how many requests
// fail, and how long until the server answers again. `npm run bench:db-loss` (needs DATABASE_URL,
// a role that may create databases and terminate backends). A shop is copied from the golden one
// (tests/setup/golden.ts) into a database of its own; 16 clients ask for data pages that each need
// the database (the session, the account's orders); every database connection is
// terminated five times, each once the server answered again, and optionally the PostgreSQL
// service restarted (`--restart`, as root: pg_ctlcluster). Prints a table, writes
// results/db-loss-latest.json.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '#api/db/index.ts';
import {
  dropAndRecover,
  startLoad,
  type Drop,
  type Load,
} from '../tests/helpers/connection-loss.ts';
import { makeUser } from '../tests/helpers/factories.ts';
import { freshShop, startServer } from '../tests/helpers/server.ts';
import { until } from '../tests/helpers/wait.ts';
import {
  cloneDatabase,
  dropDatabase,
  ensureGoldenShop,
  GOLDEN_SITE_URL,
  makeGoldenTemplate,
} from '../tests/setup/golden.ts';
import { writeResults } from './lib/util.ts';

const adminUrl = process.env['DATABASE_URL'];
if (!adminUrl) {
  console.error(
    'bench:db-loss needs DATABASE_URL (a PostgreSQL server it may create databases on)',
  );
  process.exit(2);
}
const restart = process.argv.includes('--restart');
const CLIENTS = 16;
const DROPS = 5;

/** Restarts the local PostgreSQL service; waits for the server to answer again under `load`. */
async function restartPostgres(load: Load): Promise<Drop> {
  const version = fs.readdirSync('/etc/postgresql')[0];
  const from = load.answers.length;
  const started = performance.now();
  // Not spawnSync: the clients run in this process and must keep asking meanwhile.
  await promisify(execFile)('pg_ctlcluster', [
    '--skip-systemctl-redirect',
    version!,
    'main',
    'restart',
    '-m',
    'fast',
  ]);
  const recovered = await until('a successful answer after the restart', () =>
    load.answers.slice(from).find((a) => a.status === 200 && a.at > started),
  );
  const between = load.answers.slice(from).filter((a) => a.at <= recovered.at);
  return {
    at: started,
    ended: -1,
    failed: between.filter((a) => a.status !== 200).length,
    recoveredMs: recovered.at - started,
  };
}

const shop = await freshShop('bench-db-loss');
const golden = await ensureGoldenShop(GOLDEN_SITE_URL);
const template = await makeGoldenTemplate(adminUrl, golden, process.pid);
const database = `galerie_bench_loss_${process.pid}`;
const url = await cloneDatabase(adminUrl, template, database);
const handle = await openDatabase({ databaseUrl: url, maxConnections: 1 });
// The server is built for the https golden site: its session cookie is `__Host-session`.
const { secureCookie: cookie } = await makeUser(handle.db);
await handle.close();
const server = await startServer({ ...shop, env: { DATABASE_URL: url } });
const load = startLoad(server.base, ['/api/auth/session', '/api/account/orders'], cookie, CLIENTS);
const drops: (Drop & { what: string })[] = [];
try {
  await until('the first answers', () => load.answers.filter((a) => a.status === 200).length > 50);
  for (let i = 0; i < DROPS; i++)
    drops.push({
      what: 'pg_terminate_backend',
      ...(await dropAndRecover(load, adminUrl, database)),
    });
  if (restart) drops.push({ what: 'service restart', ...(await restartPostgres(load)) });
} finally {
  await load.stop();
}
const alive = server.child.exitCode === null && server.child.signalCode === null;
await server.stop();
await dropDatabase(adminUrl, database).catch(() => {});
await dropDatabase(adminUrl, template).catch(() => {});
shop.remove();

// Every failure from one event to the next is that event's: in flight when it struck, or sent
// before the server had its connections back.
// The outage: from its first failed answer to the first success after its last one.
for (const [i, drop] of drops.entries()) {
  const next = drops[i + 1]?.at ?? Infinity;
  const window = load.answers.filter((a) => a.at >= drop.at && a.at < next);
  const failures = window.filter((a) => a.status !== 200);
  drop.failed = failures.length;
  const last = failures.at(-1);
  const back = last && window.find((a) => a.status === 200 && a.at > last.at);
  drop.recoveredMs = last ? (back ?? last).at - failures[0]!.at : 0;
}
const wrong = load.wrong();
const total = load.answers.length;
const failed = load.answers.filter((a) => a.status !== 200).length;
console.log(`\nPostgreSQL dropping connections under load (${CLIENTS} clients)\n`);
console.log('  event                   connections ended   failed requests   outage');
for (const drop of drops)
  console.log(
    `  ${drop.what.padEnd(22)}  ${String(drop.ended < 0 ? 'all' : drop.ended).padStart(17)}   ${String(drop.failed).padStart(15)}   ${`${Math.round(drop.recoveredMs)} ms`.padStart(10)}`,
  );
console.log(
  `\n  ${total} requests, ${failed} failed — each a 503 with Retry-After (database_unavailable): ${wrong.length === 0 ? 'yes' : `no, ${wrong.length} other answers`}`,
);
console.log(`  the server ${alive ? 'stayed up' : 'DIED'}\n`);
const results = path.join(import.meta.dirname, 'results', 'db-loss-latest.json');
await writeResults(results, {
  when: new Date().toISOString(),
  clients: CLIENTS,
  drops,
  total,
  failed,
  otherAnswers: wrong.length,
  stayedUp: alive,
});
process.exit(alive && wrong.length === 0 ? 0 : 1);
