// Commerce bench (`npm run bench:commerce`), issue 14 §2: the dynamic calls a buyer waits on, on
// the embedded PGlite and on PostgreSQL, each printed next to the static /gallery page and a bare
// Node handler measured in the same run, as ratios.
//  - The server (`node api/server.ts`, built as production) is pinned to core 1 and autocannon (in
//    this process) to core 0, as issue 14 measured; for the PostgreSQL figures, PostgreSQL's
//    postmaster and backends are pinned to core 1 too (issue 28 §3: away from the load generator,
//    beside the server that waits on them) and put back afterwards. The bare Node handler is a
//    child process pinned to core 1 as well.
//  1. POST /api/cart: each request is a first add (no cookie): a new cart and its line, then the
//     priced cart — the full path. Target on PostgreSQL: ≥ 1 000 req/s with p99 ≤ 25 ms.
//  2. GET /api/availability, answered from memory by the HTTP layer. Target: ≥ 10 000 req/s.
//  3. GET /api/cart/count (no cart) and GET /gallery (static), for scale.
//  4. Checkout-session creation against the payment emulator: the code behind POST /api/checkout
//     (api/checkout: prices re-read, hold, pending order, Stripe SDK → emulator session) served by
//     a minimal HTTP wrapper in this process, over its own embedded database whose print stock is
//     raised so every request can hold one print (the real server's seeded stock is 1–3).
// PostgreSQL: BENCH_DATABASE_URL, else the local postgres://postgres@127.0.0.1:5432/test; the bench
// creates its own database there (galerie_bench_commerce) and drops it. Figures go to
// bench/results/commerce-latest.json.
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import pg from 'pg';
import autocannon from 'autocannon';
import { addToCart, newCartId } from '#api/cart/index.ts';
import { createCheckout, type CheckoutRequest } from '#api/checkout/index.ts';
import { seedDemo } from '#api/catalog/seed.ts';
import { openDatabase } from '#api/db/index.ts';
import { migrateToLatest } from '#api/db/migrate.ts';
import { createStripeEmulator } from '#api/emulator/index.ts';
import { diskStorage } from '#api/media/storage.ts';
import { createEmulatedPayments } from '#api/payments/index.ts';
import { databaseUrlFor, quoteIdent } from '../tests/helpers/pg-admin.ts';
import { findExecutable, pin, pinNamed, startGalerie } from './lib/processes.ts';
import { cleanupAll, freePort, onCleanup, printTable, sleep, writeResults } from './lib/util.ts';

const root = path.resolve(import.meta.dirname, '..');
const resultsFile = path.join(import.meta.dirname, 'results', 'commerce-latest.json');
const quick = process.argv.includes('--quick');
const DURATION_S = quick ? 5 : 15;
const CONNECTIONS = 10;

interface Figures {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(
  name: string,
  options: { url: string; method: 'GET' | 'POST'; body?: string; headers?: Record<string, string> },
): Promise<Figures> {
  // A short warm-up (JIT, connection pools), then the measured run.
  await autocannon({ ...options, connections: CONNECTIONS, duration: 1 });
  const r = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  return {
    name,
    requests: r.requests.total,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** The floor: a bare Node handler that reads a small JSON body and answers a small JSON one. */
const BARE_SERVER = `
const http = require('node:http');
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : null;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ ok: true, echo: body }));
  });
}).listen(Number(process.argv[1]), '127.0.0.1', () => console.log('listening'));`;

/** The bare handler in a process of its own (pinned like the server). */
async function bareNode(): Promise<{ url: string; pid: number; close: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the bare Node handler exited (${code})`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  onCleanup(close);
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid ?? 0, close };
}

/** CPU seconds a process has used so far (Linux /proc), or null elsewhere. */
async function cpuSeconds(pid: number): Promise<number | null> {
  try {
    const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ');
    return fields ? (Number(fields[11]) + Number(fields[12])) / 100 : null;
  } catch {
    return null;
  }
}

/**
 * Waits until a freshly started server is idle: after start it encodes the catalogue's image
 * variants in the background, which would otherwise be measured as slowness (at most 3 minutes).
 */
async function untilIdle(pid: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  let last = await cpuSeconds(pid);
  while (last !== null && Date.now() < deadline) {
    await sleep(2000);
    const now = await cpuSeconds(pid);
    if (now === null || now - last < 0.1) return;
    last = now;
  }
}

/** A fresh database on the bench's PostgreSQL, dropped at the end; null when none answers. */
async function postgresDatabase(): Promise<string | null> {
  const url = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = 'galerie_bench_commerce';
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end().catch(() => {});
    }
  };
  try {
    await admin(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${quoteIdent(name)}`);
  } catch {
    return null;
  }
  onCleanup(() => admin(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
  return databaseUrlFor(url, name);
}

/** createCheckout behind a tiny HTTP wrapper, with the emulator on the same server. */
async function checkoutHarness(log: (line: string) => void) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-bench-checkout-'));
  onCleanup(() => fs.rm(dir, { recursive: true, force: true }));
  const handle = await openDatabase({ pgliteDir: path.join(dir, 'pgdata') });
  onCleanup(() => handle.close());
  await migrateToLatest(handle.db);
  await seedDemo(handle.db, diskStorage(path.join(dir, 'media')));
  const print = await handle.db
    .updateTable('artworks')
    .set({ stock: 1_000_000 })
    .where('artwork_type', '=', 'print')
    .returning('id')
    .executeTakeFirstOrThrow();
  log(`checkout harness: embedded database ready, print #${print.id} stock raised`);
  const port = await freePort();
  const secret = `whsec_${randomBytes(16).toString('hex')}`;
  const siteUrl = `http://127.0.0.1:${port}`;
  const emulator = createStripeEmulator({
    // Webhooks are not part of this measurement: they go to a path that answers 204.
    webhookUrl: `${siteUrl}/webhook-sink`,
    webhookSecret: secret,
    publicBaseUrl: siteUrl,
  });
  const payments = createEmulatedPayments(port, secret, emulator.secretKey);
  onCleanup(() => emulator.close());
  const body: CheckoutRequest = {
    locale: 'fr',
    items: [{ artworkId: print.id, quantity: 1 }],
    customer: { name: 'Bench Buyer', email: 'bench@example.test' },
    shippingAddress: {
      street: '1 rue de la Paix',
      city: 'Paris',
      postalCode: '75002',
      country: 'FR',
    },
    billingSameAsShipping: true,
    acceptTerms: true,
    promoCode: 'SASHA25',
  };
  let buyers = 0;
  // Checkouts still running when a measurement ends: awaited before the database closes.
  const inFlight = new Set<Promise<unknown>>();
  const server = http.createServer((req, res) => {
    if (emulator.handle(req, res)) return;
    if (req.url === '/webhook-sink') {
      req.resume();
      res.writeHead(204).end();
      return;
    }
    req.resume();
    // Each request is a buyer of its own: a cart holding the print, an address of its own
    // (checkout comes from a cart, within per-cart and per-address limits: issue 14).
    buyers += 1;
    const cartId = newCartId();
    const ip = `10.${(buyers >> 16) & 255}.${(buyers >> 8) & 255}.${buyers & 255}`;
    const work = addToCart(handle.db, cartId, print.id, 1)
      .then(() => createCheckout({ db: handle.db, payments }, body, { cartId, ip, siteUrl }))
      .then((result) =>
        res
          .writeHead(201, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ url: result.url })),
      )
      .catch((error: unknown) => {
        console.error(error);
        res.writeHead(500).end();
      })
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((r) => server.close(() => r())));
  onCleanup(async () => {
    await Promise.allSettled([...inFlight]);
  });
  return { url: `${siteUrl}/checkout` };
}

const log = (line: string) => console.log(`  ${line}`);

interface Row extends Figures {
  database: 'pglite' | 'postgres' | null;
}

/** Issue 14 §2's targets. */
const TARGETS = {
  availabilityRps: 10_000,
  cartAddRps: 1_000,
  cartAddP99Ms: 25,
};

const results: Row[] = [];
const notes: string[] = [];
try {
  const taskset = await findExecutable('taskset');
  const pinned = taskset !== null && os.availableParallelism() >= 2;
  const pinTo = async (pid: number, core: string) => {
    if (pinned) await pin(taskset, pid, core);
  };
  if (pinned) await pinTo(process.pid, '0');
  else notes.push('not pinned: needs taskset and two cores');
  const load = os.loadavg()[0] ?? 0;
  console.log(
    `Commerce bench${quick ? ' (--quick)' : ''}: ${CONNECTIONS} connections, ${DURATION_S} s per figure, ${pinned ? 'server on core 1, autocannon on core 0' : 'unpinned'}; load average ${load.toFixed(2)}`,
  );
  if (load > 0.7) notes.push(`load average ${load.toFixed(2)} at start: other work was running`);

  const bare = await bareNode();
  await pinTo(bare.pid, '1');
  results.push({
    database: null,
    ...(await measure('bare Node handler (POST, JSON)', {
      url: bare.url,
      method: 'POST',
      body: JSON.stringify({ artworkId: 1, quantity: 1 }),
      headers: { 'Content-Type': 'application/json' },
    })),
  });
  await bare.close();

  const postgresUrl = await postgresDatabase();
  if (!postgresUrl) notes.push('PostgreSQL did not answer: its rows are missing');
  const kinds = postgresUrl ? (['pglite', 'postgres'] as const) : (['pglite'] as const);
  for (const database of kinds) {
    log(`— ${database} —`);
    const galerie = await startGalerie(root, log, {
      env: database === 'postgres' && postgresUrl ? { DATABASE_URL: postgresUrl } : {},
    });
    await pinTo(galerie.pid, '1');
    // PostgreSQL's own processes (a system service) away from autocannon on core 0, beside the
    // server; put back when this pass ends.
    const postgresPin =
      database === 'postgres' && pinned && taskset
        ? await pinNamed(taskset, 'postgres', '1')
        : null;
    if (postgresPin) {
      log(`PostgreSQL: ${postgresPin.pinned} processes pinned to core 1`);
      if (postgresPin.pinned === 0 || postgresPin.refused > 0) {
        notes.push(
          `PostgreSQL only partly pinned: ${postgresPin.pinned} processes pinned, ${postgresPin.refused} refused (run as root or as the postgres user)`,
        );
      }
    }
    await untilIdle(galerie.pid);
    const { works } = (await (await fetch(`${galerie.url}/api/availability`)).json()) as {
      works: Array<{ id: number; available: boolean; isSold: boolean; stock: number }>;
    };
    const print = works.find((w) => w.available && !w.isSold && w.stock > 0 && w.stock < 100);
    if (!print) throw new Error('no print in stock in the seeded catalogue');
    const add = (figures: Figures) => results.push({ database, ...figures });
    add(
      await measure('POST /api/cart (first add: new cart)', {
        url: `${galerie.url}/api/cart`,
        method: 'POST',
        body: JSON.stringify({ artworkId: print.id, quantity: 1 }),
        headers: { 'Content-Type': 'application/json', Origin: galerie.url },
      }),
    );
    add(
      await measure('GET /api/cart/count (no cart)', {
        url: `${galerie.url}/api/cart/count`,
        method: 'GET',
      }),
    );
    add(
      await measure('GET /api/availability (from memory)', {
        url: `${galerie.url}/api/availability`,
        method: 'GET',
        headers: { 'Accept-Encoding': 'br' },
      }),
    );
    add(
      await measure('GET /gallery (static page)', {
        url: `${galerie.url}/gallery`,
        method: 'GET',
        headers: { 'Accept-Encoding': 'br' },
      }),
    );
    await galerie.stop();
    await postgresPin?.restore();
  }

  const harness = await checkoutHarness(log);
  results.push({
    database: 'pglite',
    ...(await measure('checkout session (hold + order + emulator session)', {
      url: harness.url,
      method: 'POST',
      body: '{}',
    })),
  });

  const bareRps = results.find((r) => r.database === null)?.rps ?? 0;
  const staticRps = (database: Row['database']) =>
    results.find((r) => r.database === database && r.name.startsWith('GET /gallery'))?.rps ?? 0;
  const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(3)}×` : '—');
  printTable(
    'Latency and throughput (autocannon, loopback; ratios from this run)',
    ['database', 'call', 'req/s', 'p50', 'p99', 'errors', '÷ static page', '÷ bare Node'],
    results.map((r) => [
      r.database ?? '—',
      r.name,
      String(r.rps),
      `${r.p50} ms`,
      `${r.p99} ms`,
      String(r.errors + r.non2xx),
      r.database && !r.name.startsWith('checkout') ? ratio(r.rps, staticRps(r.database)) : '—',
      ratio(r.rps, bareRps),
    ]),
    'llrrrrrr',
  );

  // Issue 14 §2's targets: met, or the distance.
  const targetRows: string[][] = [];
  const verdict = (ok: boolean) => (ok ? '✓' : '✗');
  let missed = false;
  for (const database of kinds) {
    const availability = results.find(
      (r) => r.database === database && r.name.startsWith('GET /api/availability'),
    );
    if (availability) {
      const ok = availability.rps >= TARGETS.availabilityRps;
      missed ||= !ok;
      targetRows.push([
        database,
        'GET /api/availability',
        `${availability.rps} req/s`,
        `≥ ${TARGETS.availabilityRps} req/s`,
        ok ? verdict(ok) : `${verdict(ok)} (${ratio(availability.rps, TARGETS.availabilityRps)})`,
      ]);
    }
  }
  const cart = results.find(
    (r) => r.database === 'postgres' && r.name.startsWith('POST /api/cart'),
  );
  if (cart) {
    const rpsOk = cart.rps >= TARGETS.cartAddRps;
    const p99Ok = cart.p99 <= TARGETS.cartAddP99Ms;
    missed ||= !rpsOk || !p99Ok;
    targetRows.push(
      [
        'postgres',
        'POST /api/cart, throughput',
        `${cart.rps} req/s`,
        `≥ ${TARGETS.cartAddRps} req/s`,
        rpsOk ? '✓' : `✗ (${ratio(cart.rps, TARGETS.cartAddRps)} of the target)`,
      ],
      [
        'postgres',
        'POST /api/cart, p99',
        `${cart.p99} ms`,
        `≤ ${TARGETS.cartAddP99Ms} ms`,
        p99Ok ? '✓' : `✗ (${cart.p99 - TARGETS.cartAddP99Ms} ms over)`,
      ],
    );
  } else {
    notes.push('cart add on PostgreSQL not measured');
  }
  printTable(
    'Issue 14 §2 targets',
    ['database', 'figure', 'measured', 'target', ''],
    targetRows,
    'llrrl',
  );
  for (const note of notes) console.log(`note: ${note}`);

  await fs.mkdir(path.dirname(resultsFile), { recursive: true });
  await writeResults(resultsFile, {
    measuredAt: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      node: process.version,
      loadAverageAtStart: Number(load.toFixed(2)),
    },
    pinned,
    connections: CONNECTIONS,
    durationSeconds: DURATION_S,
    targets: TARGETS,
    targetsMet: !missed,
    notes,
    results,
  });
  console.log(`figures written to ${path.relative(root, resultsFile)}`);
  const failed = results.some((r) => r.errors > 0 || r.non2xx > 0);
  if (failed) console.log('some requests failed: see the errors column');
  await cleanupAll();
  process.exit(failed || missed ? 1 : 0);
} catch (error) {
  console.error('Commerce bench failed:', error);
  await cleanupAll();
  process.exit(1);
}
