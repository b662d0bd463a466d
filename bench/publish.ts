// Publishing bench (`npm run bench:publish`): how long a change made in the back office takes to
// show on the public page, and what a build running beside the shop costs its visitors.
//  1. change → visible: a work's title is changed through PATCH /api/admin/artworks/:id on the
//     real server (`node api/server.ts`), then /gallery is fetched every 100 ms until it shows the
//     new title; the median of 5, on the 25-work demo catalogue and on 250 and 1 000 works (the
//     demo's works repeated under new slugs, sharing their images).
//  2. static latency: p99 of GET / (autocannon, 10 connections) while idle and while a publish
//     runs, on the 25-work catalogue.
// Target (issue 27 §7): change → visible ≤ 8 s at 25 works on 2 cores while the machine is
// otherwise idle: the bench prints the load average first, the figure with its target, and exits
// 1 when it is missed. Figures go to bench/results/publish-latest.json. `--quick` measures 25 and
// 250 works, 3 changes each; `--sizes 25` (comma-separated) chooses the catalogue sizes.
//  3. `--heap N` (issue 28 §4) instead: N publishes on the 25-work catalogue, each a title change
//     that changes the public pages, each followed by a visit to the on-demand cart pages; the
//     server's heap after a full GC (the soak bench's probe, bench/lib/memory-probe.ts) after the
//     first publish and after the last, printed with their difference. Target: ≤ 10 MB. Figures
//     go to bench/results/publish-heap-latest.json.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '#api/db/index.ts';
import { benchCatalogue } from './lib/catalogue.ts';
import { startGalerie } from './lib/processes.ts';
import {
  cleanupAll,
  freePort,
  median,
  onCleanup,
  printTable,
  sleep,
  writeResults,
} from './lib/util.ts';

const root = path.resolve(import.meta.dirname, '..');
const resultsFile = path.join(import.meta.dirname, 'results', 'publish-latest.json');
const quick = process.argv.includes('--quick');
const sizesArg = process.argv[process.argv.indexOf('--sizes') + 1];
const SIZES =
  process.argv.includes('--sizes') && sizesArg
    ? sizesArg.split(',').map(Number)
    : quick
      ? [25, 250]
      : [25, 250, 1000];
const CHANGES = quick ? 3 : 5;
const heapArg = process.argv[process.argv.indexOf('--heap') + 1];
const HEAP_PUBLISHES = process.argv.includes('--heap') ? Number(heapArg ?? 200) || 200 : 0;
const HEAP_BUDGET_BYTES = 10 * 1024 * 1024;
const heapFile = path.join(import.meta.dirname, 'results', 'publish-heap-latest.json');
const probeModule = path.join(import.meta.dirname, 'lib', 'memory-probe.ts');
const BUDGET_MS = 8_000;
const log = (line: string) => console.log(`  ${line}`);

interface SizeResult {
  works: number;
  changes: number[];
  medianMs: number | null;
  buildMs: number | null;
}

/** A data directory holding `works` works and an administrator, with the owner's cookie. */
async function prepare(works: number): Promise<{ dataDir: string; cookie: string }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-bench-publish-'));
  onCleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  try {
    return { dataDir, cookie: await benchCatalogue(handle, dataDir, works) };
  } finally {
    await handle.close();
  }
}

async function firstWorkId(url: string): Promise<number> {
  const html = await (await fetch(`${url}/gallery`)).text();
  return Number(/data-artwork-id="(\d+)"/.exec(html)?.[1]);
}

async function changeAndWait(url: string, cookie: string, id: number, n: number): Promise<number> {
  const title = `Publication ${n} ${Date.now().toString(36)}`;
  const started = performance.now();
  const response = await fetch(`${url}/api/admin/artworks/${id}`, {
    method: 'PATCH',
    headers: { cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ title: { fr: title, en: title } }),
  });
  if (response.status !== 200) throw new Error(`PATCH answered ${response.status}`);
  for (;;) {
    if ((await (await fetch(`${url}/gallery`)).text()).includes(title))
      return Math.round(performance.now() - started);
    if (performance.now() - started > 300_000) throw new Error('the change never showed');
    await sleep(100);
  }
}

async function p99(url: string, seconds: number): Promise<{ p99: number; rps: number }> {
  const result = await autocannon({ url: `${url}/`, connections: 10, duration: seconds });
  return { p99: result.latency.p99, rps: Math.round(result.requests.average) };
}

async function publishStatus(url: string, cookie: string) {
  const response = await fetch(`${url}/api/admin/publish`, { headers: { cookie } });
  return (await response.json()) as { state: string; version: string | null };
}

/** The server's heap after a full GC, from the probe. */
async function heapAfterGc(probe: string): Promise<number> {
  const response = await fetch(`${probe}/memory?gc=1`);
  return ((await response.json()) as { heapUsed: number }).heapUsed;
}

/** Issue 28 §4: N publishes, the heap after the first and after the last. */
async function heapRun(publishes: number): Promise<void> {
  console.log(`Publishing and memory: ${publishes} publishes on 25 works`);
  const { dataDir, cookie } = await prepare(25);
  const dist = path.join(root, '.cache', 'bench-publish-heap');
  onCleanup(() => fs.rm(dist, { recursive: true, force: true }));
  const probePort = await freePort();
  const galerie = await startGalerie(root, log, {
    dataDir,
    nodeArgs: ['--expose-gc', '--import', probeModule],
    env: { GALERIE_DIST_DIR: dist, BACKUPS: 'off', GALERIE_BENCH_PROBE_PORT: String(probePort) },
  });
  const probe = `http://127.0.0.1:${probePort}`;
  const id = await firstWorkId(galerie.url);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const samples: { publish: number; heapUsed: number }[] = [];
  const started = performance.now();
  for (let n = 1; n <= publishes; n++) {
    await changeAndWait(galerie.url, cookie, id, n);
    while ((await publishStatus(galerie.url, cookie)).state !== 'idle') await sleep(200);
    // The on-demand pages render with the new version's catalogue.
    for (const page of ['/panier', '/en/cart']) {
      const response = await fetch(`${galerie.url}${page}`);
      if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
      await response.arrayBuffer();
    }
    if (n === 1 || n === publishes || n % 25 === 0) {
      const heapUsed = await heapAfterGc(probe);
      samples.push({ publish: n, heapUsed });
      log(
        `publish ${n}: heap after full GC ${mb(heapUsed)} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
  }
  await galerie.stop();
  const first = samples[0]!.heapUsed;
  const last = samples[samples.length - 1]!.heapUsed;
  const met = last - first <= HEAP_BUDGET_BYTES;
  printTable(
    'Heap after a full GC, after the first publish and after the last',
    ['after publish', 'heap used', 'since the first'],
    samples.map((s) => [String(s.publish), mb(s.heapUsed), mb(s.heapUsed - first)]),
    'rrr',
  );
  console.log(
    `\nHeap after ${publishes} publishes: ${mb(last)} against ${mb(first)} after the first, ${mb(last - first)} more (target ≤ ${mb(HEAP_BUDGET_BYTES)}) ${met ? '✓' : '✗ missed'}`,
  );
  await fs.mkdir(path.dirname(heapFile), { recursive: true });
  await writeResults(heapFile, {
    date: new Date().toISOString(),
    cores: os.cpus().length,
    loadAverage: os.loadavg()[0],
    publishes,
    budgetBytes: HEAP_BUDGET_BYTES,
    samples,
    met,
  });
  console.log(`Figures written to ${path.relative(root, heapFile)}`);
  if (!met) process.exitCode = 1;
}

const results: SizeResult[] = [];
let latency: { idle: { p99: number; rps: number }; building: { p99: number; rps: number } } | null =
  null;
try {
  if (HEAP_PUBLISHES > 0) {
    await heapRun(HEAP_PUBLISHES);
  } else {
    console.log(`Publishing bench on ${os.cpus().length} cores (${quick ? 'quick' : 'full'} run)`);
    const load = os.loadavg()[0]!;
    console.log(
      `Load average (1 min): ${load.toFixed(2)}${load > 0.5 ? ' — the machine is busy: the target assumes it otherwise idle' : ''}`,
    );
    for (const works of SIZES) {
      console.log(`\n${works} works`);
      const { dataDir, cookie } = await prepare(works);
      const dist = path.join(root, '.cache', `bench-publish-${works}`);
      const galerie = await startGalerie(root, log, {
        dataDir,
        env: { GALERIE_DIST_DIR: dist },
      });
      const id = await firstWorkId(galerie.url);
      const changes: number[] = [];
      for (let n = 1; n <= CHANGES; n++) {
        const ms = await changeAndWait(galerie.url, cookie, id, n);
        changes.push(ms);
        log(`change ${n}: visible after ${(ms / 1000).toFixed(2)} s`);
        while ((await publishStatus(galerie.url, cookie)).state !== 'idle') await sleep(200);
      }
      if (works === SIZES[0]) {
        const idle = await p99(galerie.url, 8);
        const before = (await publishStatus(galerie.url, cookie)).version;
        await fetch(`${galerie.url}/api/admin/publish`, {
          method: 'POST',
          headers: { cookie, origin: galerie.url },
        });
        await sleep(500); // the queue's debounce (300 ms): measure while the build itself runs
        const building = await p99(galerie.url, 4);
        let after = await publishStatus(galerie.url, cookie);
        while (after.state !== 'idle') {
          await sleep(200);
          after = await publishStatus(galerie.url, cookie);
        }
        if (after.version === before) log('warning: the publish did not produce a new version');
        latency = { idle, building };
      }
      results.push({
        works,
        changes,
        medianMs: median(changes),
        buildMs: Number(/in ([\d.]+) s/.exec(galerie.buildLine ?? '')?.[1] ?? NaN) * 1000 || null,
      });
      await galerie.stop();
      await fs.rm(dist, { recursive: true, force: true });
    }

    printTable(
      'Change → visible on the public gallery (median)',
      ['works', 'median', 'runs', 'budget'],
      results.map((r) => [
        String(r.works),
        r.medianMs === null ? '—' : `${(r.medianMs / 1000).toFixed(2)} s`,
        r.changes.map((c) => (c / 1000).toFixed(1)).join(' / '),
        r.works === 25
          ? `≤ ${BUDGET_MS / 1000} s ${r.medianMs !== null && r.medianMs <= BUDGET_MS ? '✓' : '✗'}`
          : '',
      ]),
      'rrlr',
    );
    if (latency)
      printTable(
        'Static page (GET /) while idle and while a build runs',
        ['', 'p99', 'req/s'],
        [
          ['idle', `${latency.idle.p99} ms`, String(latency.idle.rps)],
          ['building', `${latency.building.p99} ms`, String(latency.building.rps)],
        ],
        'lrr',
      );
    await fs.mkdir(path.dirname(resultsFile), { recursive: true });
    await writeResults(resultsFile, {
      date: new Date().toISOString(),
      cores: os.cpus().length,
      loadAverage: load,
      quick,
      budgetMs: BUDGET_MS,
      sizes: results,
      staticLatency: latency,
    });
    console.log(`\nFigures written to ${path.relative(root, resultsFile)}`);
    const at25 = results.find((r) => r.works === 25);
    if (at25) {
      const met = at25.medianMs !== null && at25.medianMs <= BUDGET_MS;
      console.log(
        `\nChange → visible at 25 works: ${at25.medianMs === null ? '—' : `${(at25.medianMs / 1000).toFixed(2)} s`} (target ≤ ${BUDGET_MS / 1000} s on ${os.cpus().length} cores, load ${load.toFixed(2)}) ${met ? '✓' : '✗ missed'}`,
      );
      if (!met) process.exitCode = 1;
    }
  }
} finally {
  await cleanupAll();
}
