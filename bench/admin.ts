// Back-office bench (`npm run bench:admin`), issue 11:
//  1. JavaScript per admin screen (gzip, first load, every script the browser fetched) — budget
//     ≤ 120 KB — and no admin code on any public page (no public script mentions `/api/admin`).
//  2. GET /api/admin/artworks with 1 000 works: p50 / p95 of 200 sequential requests through the
//     real server, on PostgreSQL when one answers (else on the embedded database, said so) —
//     budget p95 ≤ 50 ms.
//  3. Upload to visible: a 12-megapixel JPEG sent to /api/admin/uploads, the work created, until
//     /gallery shows it (publish included) — budget ≤ 20 s on 2 cores.
// Figures go to bench/results/admin-latest.json.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { chromium } from '@playwright/test';
import { openDatabase } from '#api/db/index.ts';
import { databaseUrlFor, quoteIdent } from '../tests/helpers/pg-admin.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/browser.ts';
import { benchCatalogue } from './lib/catalogue.ts';
import { startGalerie } from './lib/processes.ts';
import { cleanupAll, onCleanup, printTable, rawGet, sleep } from './lib/util.ts';

const root = path.resolve(import.meta.dirname, '..');
const resultsFile = path.join(import.meta.dirname, 'results', 'admin-latest.json');
const BUDGETS = { screenJsBytes: 120 * 1024, listP95Ms: 50, uploadToVisibleMs: 20_000 };
const SCREENS = ['/admin/dashboard', '/admin/artworks', '/admin/orders', '/admin/settings'];
const PUBLIC = [
  '/',
  '/gallery',
  '/about',
  '/contact',
  '/panier',
  '/commande',
  '/login',
  '/signup',
  '/account',
];
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

async function scriptBytes(base: string, urls: Set<string>): Promise<number> {
  let total = 0;
  for (const url of urls) {
    const response = await rawGet(url.startsWith('http') ? url : `${base}${url}`, {
      'accept-encoding': 'gzip',
    });
    total += response.body.length;
  }
  return total;
}

async function scriptsOf(
  base: string,
  page: string,
  cookie: string | null,
): Promise<{ urls: Set<string>; inlineGzip: number; texts: string[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    if (cookie) {
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: base }]);
    }
    const tab = await context.newPage();
    const urls = new Set<string>();
    tab.on('response', (r) => {
      if (r.request().resourceType() === 'script') urls.add(r.url());
    });
    await tab.goto(`${base}${page}`, { waitUntil: 'networkidle' });
    const texts: string[] = [];
    for (const url of urls) texts.push((await rawGet(url)).body.toString());
    const inline = await tab.$$eval('script:not([src])', (s) => s.map((e) => e.textContent ?? ''));
    texts.push(...inline);
    const { gzipSync } = await import('node:zlib');
    return { urls, inlineGzip: gzipSync(inline.join('\n')).length, texts };
  } finally {
    await browser.close();
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
  await handle.close();
  log(
    `1 000 works on ${databaseUrl ? 'PostgreSQL' : 'the embedded database (no PostgreSQL answered)'}`,
  );
  const dist = path.join(root, '.cache', 'bench-admin-dist');
  onCleanup(() => fs.rm(dist, { recursive: true, force: true }));
  const galerie = await startGalerie(root, log, {
    dataDir,
    env: { GALERIE_DIST_DIR: dist, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  const base = galerie.url;

  // 1. JavaScript per screen, and none of the back office's on public pages.
  const screens: { page: string; gzipBytes: number }[] = [];
  for (const page of SCREENS) {
    const { urls, inlineGzip } = await scriptsOf(base, page, cookie);
    screens.push({ page, gzipBytes: (await scriptBytes(base, urls)) + inlineGzip });
  }
  const leaks: string[] = [];
  for (const page of PUBLIC) {
    const { texts } = await scriptsOf(base, page, null);
    if (texts.some((text) => text.includes('/api/admin'))) leaks.push(page);
  }

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

  printTable(
    'JavaScript per admin screen (gzip, first load)',
    ['screen', 'JS', 'budget'],
    screens.map((s) => [
      s.page,
      `${(s.gzipBytes / 1024).toFixed(1)} KB`,
      `≤ ${BUDGETS.screenJsBytes / 1024} KB ${s.gzipBytes <= BUDGETS.screenJsBytes ? '✓' : '✗'}`,
    ]),
    'lrl',
  );
  console.log(
    leaks.length
      ? `\nAdmin code found on public pages: ${leaks.join(', ')} ✗`
      : `\nNo admin code on the ${PUBLIC.length} public pages checked ✓`,
  );
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
  await fs.mkdir(path.dirname(resultsFile), { recursive: true });
  await fs.writeFile(
    resultsFile,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        cores: os.cpus().length,
        database: databaseUrl ? 'postgresql' : 'pglite',
        budgets: BUDGETS,
        screens,
        publicPagesWithAdminCode: leaks,
        list,
        uploadToVisibleMs: visibleMs,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nFigures written to ${path.relative(root, resultsFile)}`);
  const failed =
    screens.some((s) => s.gzipBytes > BUDGETS.screenJsBytes) ||
    leaks.length > 0 ||
    list.p95 > BUDGETS.listP95Ms ||
    visibleMs < 0 ||
    visibleMs > BUDGETS.uploadToVisibleMs;
  if (failed) process.exitCode = 1;
} finally {
  await cleanupAll();
}
