// Back-office bench (`npm run bench:admin`), issue 11:
//  1. JavaScript per admin screen (gzip, first load, every script the browser fetched) — budget
//     ≤ 120 KB, ≤ 160 KB for the analytics screen and its chart.js — and no admin code on any
//     public page (no public script mentions `/api/admin`).
//  2. GET /api/admin/artworks with 1 000 works: p50 / p95 of 200 sequential requests through the
//     real server, on PostgreSQL when one answers (else on the embedded database, said so) —
//     budget p95 ≤ 50 ms.
//  3. Upload to visible: a 12-megapixel JPEG sent to /api/admin/uploads, the work created, until
//     /gallery shows it (publish included) — budget ≤ 20 s on 2 cores.
//  4. GET /api/admin/analytics for each period with 100 000 orders (issue 12): p50 / p95 of 60
//     sequential requests each through the real server — budget p95 ≤ 150 ms on PostgreSQL.
//  5. Issue 13: GET /api/admin/orders and /api/admin/customers with 100 000 orders and 20 000
//     customers, each request with a search and a sort — budget p95 ≤ 50 ms on PostgreSQL — and
//     an invoice PDF from request to last byte.
//  6. Static-page throughput with visit counting off and on (bench/visits.ts, run as its own
//     process so its servers have the machine to themselves) — budget: on ÷ off ≥ 0.95.
// Figures go to bench/results/admin-latest.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { openDatabase } from '#api/db/index.ts';
import { issueInvoice } from '#api/invoices/index.ts';
import { databaseUrlFor, quoteIdent } from '../tests/helpers/pg-admin.ts';
import { ANALYTICS_PERIODS } from '../src/schemas/analytics.ts';
import { benchCatalogue } from './lib/catalogue.ts';
import {
  measureScreens,
  printScreens,
  SCREEN_JS_BYTES,
  screensFailed,
} from './lib/admin-screens.ts';
import { benchCustomers } from './lib/customers.ts';
import { benchOrders } from './lib/orders.ts';
import { startGalerie } from './lib/processes.ts';
import { cleanupAll, onCleanup, printTable, sleep, writeResults } from './lib/util.ts';

const root = path.resolve(import.meta.dirname, '..');
const resultsFile = path.join(import.meta.dirname, 'results', 'admin-latest.json');
const BUDGETS = {
  ...SCREEN_JS_BYTES,
  listP95Ms: 50,
  uploadToVisibleMs: 20_000,
  analyticsP95Ms: 150,
  ordersListP95Ms: 50,
  customersListP95Ms: 50,
};
const CUSTOMERS = 20_000;
const ORDERS = 100_000;
const log = (line: string) => console.log(`  ${line}`);

async function pgUrl(): Promise<string | null> {
  const url = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const name = 'galerie_bench_admin';
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
    onCleanup(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await c.end();
    });
    return databaseUrlFor(url, name);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

try {
  console.log(`Back-office bench on ${os.cpus().length} cores`);
  const databaseUrl = await pgUrl();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-bench-admin-'));
  onCleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const handle = await openDatabase(
    databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pgdata') },
  );
  const cookie = await benchCatalogue(handle, dataDir, 1000);
  const seeded = performance.now();
  await benchCustomers(handle.db, CUSTOMERS);
  await benchOrders(handle.db, ORDERS);
  // One bench order gets its invoice as the webhook would issue it, to time the PDF.
  const invoiced = await handle.db
    .selectFrom('orders')
    .select('id')
    .where('payment_status', '=', 'paid')
    .orderBy('order_number')
    .executeTakeFirstOrThrow();
  await handle.db.transaction().execute((trx) => issueInvoice(trx, invoiced.id, new Date()));
  await handle.close();
  log(
    `1 000 works and ${ORDERS.toLocaleString('en')} orders (${((performance.now() - seeded) / 1000).toFixed(1)} s) on ${databaseUrl ? 'PostgreSQL' : 'the embedded database (no PostgreSQL answered)'}`,
  );
  const dist = path.join(root, '.cache', 'bench-admin-dist');
  onCleanup(() => fs.rm(dist, { recursive: true, force: true }));
  const galerie = await startGalerie(root, log, {
    dataDir,
    env: { GALERIE_DIST_DIR: dist, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  const base = galerie.url;

  // 1. JavaScript per screen, and none of the back office's on public pages.
  const { screens, leaks } = await measureScreens(base, cookie);

  // 2. The list endpoint.
  const timings: number[] = [];
  for (let i = 0; i < 220; i++) {
    const started = performance.now();
    const response = await fetch(`${base}/api/admin/artworks?q=${i % 2 ? 'lumiere' : ''}`, {
      headers: { cookie },
    });
    await response.arrayBuffer();
    if (i >= 20) timings.push(performance.now() - started);
  }
  const list = { p50: percentile(timings, 50), p95: percentile(timings, 95) };

  // 4. The analytics endpoint, each period, 100 000 orders.
  const analytics: { period: string; p50: number; p95: number }[] = [];
  for (const period of ANALYTICS_PERIODS) {
    const times: number[] = [];
    for (let i = 0; i < 65; i++) {
      const started = performance.now();
      const response = await fetch(`${base}/api/admin/analytics?period=${period}`, {
        headers: { cookie },
      });
      if (response.status !== 200) throw new Error(`analytics answered ${response.status}`);
      await response.arrayBuffer();
      if (i >= 5) times.push(performance.now() - started);
    }
    analytics.push({ period, p50: percentile(times, 50), p95: percentile(times, 95) });
  }

  // 5. The orders and customers lists (search + sort + page), and an invoice PDF.
  const timed = async (urls: string[]) => {
    const times: number[] = [];
    for (let i = 0; i < urls.length + 5; i++) {
      const started = performance.now();
      const response = await fetch(`${base}${urls[i % urls.length]}`, { headers: { cookie } });
      if (response.status !== 200)
        throw new Error(`${urls[i % urls.length]} answered ${response.status}`);
      await response.arrayBuffer();
      if (i >= 5) times.push(performance.now() - started);
    }
    return { p50: percentile(times, 50), p95: percentile(times, 95) };
  };
  const searches = ['acheteur 12', 'buyer77', 'bench-4', '', 'kovač', 'cs_bench_99'];
  const ordersList = await timed(
    Array.from({ length: 60 }, (_, i) => {
      const sort = ['date', 'total', 'customer', 'number'][i % 4];
      return `/api/admin/orders?q=${encodeURIComponent(searches[i % searches.length]!)}&status=${i % 3 ? 'all' : 'delivered'}&sort=${sort}&dir=${i % 2 ? 'asc' : 'desc'}&page=${1 + (i % 3)}`;
    }),
  );
  const customersList = await timed(
    Array.from({ length: 60 }, (_, i) => {
      const sort = ['name', 'registered', 'lastSignIn', 'orders', 'spent', 'lastOrder'][i % 6];
      return `/api/admin/customers?q=${encodeURIComponent(['hélène', 'buyer1', 'kovac', '', 'müller'][i % 5]!)}&sort=${sort}&dir=${i % 2 ? 'asc' : 'desc'}&page=${1 + (i % 4)}`;
    }),
  );
  const invoicePdf = await timed(
    Array.from({ length: 30 }, () => `/api/admin/orders/${invoiced.id}/invoice`),
  );

  // 3. Upload to visible, publish included.
  const noise = Buffer.alloc(4000 * 3000 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const photo = await sharp(noise, { raw: { width: 4000, height: 3000, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
  const title = `Banc ${Date.now().toString(36)}`;
  const started = performance.now();
  const upload = await fetch(`${base}/api/admin/uploads`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'image/jpeg' },
    body: new Uint8Array(photo),
  });
  const image = (await upload.json()) as { sha256: string };
  const created = await fetch(`${base}/api/admin/artworks`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'print',
      title: { fr: title, en: title },
      description: { fr: '', en: '' },
      technique: { fr: 'Giclée print sur toile', en: 'Giclée print' },
      category: 'peinture',
      collection: '',
      year: 2026,
      dimensions: '100 x 80 cm',
      priceCents: 42000,
      stock: 10,
      editionSize: null,
      isAvailable: true,
      isSold: false,
      originalId: null,
      imageSha256: image.sha256,
    }),
  });
  if (created.status !== 201) throw new Error(`creating the work answered ${created.status}`);
  let visibleMs = -1;
  while (performance.now() - started < 300_000) {
    if ((await (await fetch(`${base}/gallery`)).text()).includes(title)) {
      visibleMs = Math.round(performance.now() - started);
      break;
    }
    await sleep(200);
  }
  await galerie.stop();

  printScreens(screens, leaks);
  printTable(
    `GET /api/admin/artworks, 1 000 works (${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'})`,
    ['p50', 'p95', 'budget'],
    [
      [
        `${list.p50.toFixed(1)} ms`,
        `${list.p95.toFixed(1)} ms`,
        `p95 ≤ ${BUDGETS.listP95Ms} ms ${list.p95 <= BUDGETS.listP95Ms ? '✓' : '✗'}`,
      ],
    ],
    'rrl',
  );
  printTable(
    'A 12-MP JPEG from upload to the public gallery (publish included)',
    ['bytes', 'visible after', 'budget'],
    [
      [
        `${(photo.length / 1024 / 1024).toFixed(1)} MB`,
        visibleMs < 0 ? 'never' : `${(visibleMs / 1000).toFixed(2)} s`,
        `≤ ${BUDGETS.uploadToVisibleMs / 1000} s ${visibleMs >= 0 && visibleMs <= BUDGETS.uploadToVisibleMs ? '✓' : '✗'}`,
      ],
    ],
    'rrl',
  );
  printTable(
    `GET /api/admin/analytics, ${ORDERS.toLocaleString('en')} orders (${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'})`,
    ['period', 'p50', 'p95', 'budget'],
    analytics.map((a) => [
      a.period,
      `${a.p50.toFixed(1)} ms`,
      `${a.p95.toFixed(1)} ms`,
      `p95 ≤ ${BUDGETS.analyticsP95Ms} ms ${a.p95 <= BUDGETS.analyticsP95Ms ? '✓' : '✗'}`,
    ]),
    'lrrl',
  );
  printTable(
    `Lists with a search and a sort, ${ORDERS.toLocaleString('en')} orders / ${CUSTOMERS.toLocaleString('en')} customers (${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'})`,
    ['list', 'p50', 'p95', 'budget'],
    [
      ['GET /api/admin/orders', ordersList, BUDGETS.ordersListP95Ms] as const,
      ['GET /api/admin/customers', customersList, BUDGETS.customersListP95Ms] as const,
    ].map(([name, t, budget]) => [
      name,
      `${t.p50.toFixed(1)} ms`,
      `${t.p95.toFixed(1)} ms`,
      `p95 ≤ ${budget} ms ${t.p95 <= budget ? '✓' : '✗'}`,
    ]),
    'lrrl',
  );
  printTable(
    'An invoice PDF, request to last byte',
    ['p50', 'p95'],
    [[`${invoicePdf.p50.toFixed(1)} ms`, `${invoicePdf.p95.toFixed(1)} ms`]],
    'rr',
  );
  await fs.mkdir(path.dirname(resultsFile), { recursive: true });
  await writeResults(resultsFile, {
    date: new Date().toISOString(),
    cores: os.cpus().length,
    database: databaseUrl ? 'postgresql' : 'pglite',
    budgets: BUDGETS,
    screens,
    publicPagesWithAdminCode: leaks,
    list,
    uploadToVisibleMs: visibleMs,
    orders: ORDERS,
    customers: CUSTOMERS,
    analytics,
    ordersList,
    customersList,
    invoicePdf,
  });
  console.log(`\nFigures written to ${path.relative(root, resultsFile)}`);
  const failed =
    screensFailed(screens, leaks) ||
    list.p95 > BUDGETS.listP95Ms ||
    visibleMs < 0 ||
    visibleMs > BUDGETS.uploadToVisibleMs ||
    (databaseUrl !== null &&
      (analytics.some((a) => a.p95 > BUDGETS.analyticsP95Ms) ||
        ordersList.p95 > BUDGETS.ordersListP95Ms ||
        customersList.p95 > BUDGETS.customersListP95Ms));
  if (failed) process.exitCode = 1;
} finally {
  await cleanupAll();
}

// 6. Visit counting on vs off, after everything above has stopped.
console.log('\nStatic pages with visit counting off and on (bench/visits.ts)');
const visits = spawnSync(process.execPath, [path.join(import.meta.dirname, 'visits.ts')], {
  stdio: 'inherit',
});
if (visits.status !== 0) process.exitCode = 1;
