// Storefront bench (`npm run bench:storefront [-- --quick]`): builds and serves the site as
// production does, measures what browsers download, Lighthouse, images and serving, and prints
// each figure next to its budget (bench/budgets.json). Exits 1 when a budget is missed; pages that
// do not exist yet are reported as missing. Figures also go to bench/results/storefront-latest.json.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import * as prettier from 'prettier';
import {
  javascriptChecks,
  launchBrowser,
  measureFirstView,
  measurePage,
  type FirstView,
  type PageWeight,
} from './lib/browser.ts';
import { BUDGETS_FILE, bothLanguages, loadBudgets } from './lib/budgets.ts';
import { cardCheck, measureCardImages, type CardImages } from './lib/images.ts';
import {
  lighthouseChecks,
  measureLighthouse,
  printLighthouse,
  type LighthousePage,
} from './lib/lighthouse.ts';
import { clockTicks, startGalerie, waitIdle, type GalerieServer } from './lib/processes.ts';
import {
  checkHeaders,
  measureThroughput,
  printServing,
  type HeaderChecks,
  type Throughput,
} from './lib/serving.ts';
import {
  type Check,
  cleanupAll,
  errorMessage,
  kb,
  MARK,
  onCleanup,
  printChecks,
  printTable,
} from './lib/util.ts';
import { distDirOf, readCurrent, versionDir } from '#api/build/versions.ts';

const USAGE = `usage: npm run bench:storefront [-- --quick]
  --quick  Lighthouse once per page, on / and /gallery in both languages only, and one wrk round`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.some((a) => a !== '--quick')) {
  console.log(USAGE);
  process.exit(args.includes('--help') ? 0 : 2);
}
const quick = args.includes('--quick');
const root = path.resolve(import.meta.dirname, '..');
// The version the server serves (api/build/versions.ts), read once it has started.
const servedDir = () => {
  const dist = distDirOf(root);
  const id = readCurrent(dist);
  if (!id) throw new Error(`no built version in ${dist}`);
  return versionDir(dist, id);
};
const resultsFile = path.join(import.meta.dirname, 'results', 'storefront-latest.json');
const started = performance.now();

const clock = () => {
  const s = Math.round((performance.now() - started) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
const log = (line: string) => console.log(`[${clock()}] ${line}`);
const duration = (seconds: number) =>
  seconds >= 60 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds} s`;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping the processes the bench started…`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

const budgets = await loadBudgets();
const pages = bothLanguages(budgets, budgets.pages);
const lighthousePages = quick ? bothLanguages(budgets, budgets.lighthouse.quickPages) : pages;
const lighthouseRuns = quick ? 1 : budgets.lighthouse.runsPerPage;
const wrkRounds = quick ? budgets.serving.wrk.quickRounds : budgets.serving.wrk.rounds;
const seconds: Record<string, number> = {};
// Other work on this machine slows both servers and Lighthouse's simulated CPU: keep it on record.
const loadAverage: Record<string, number> = {};
const noteLoad = (moment: string) => {
  const load = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
  loadAverage[moment] = load;
  const cpus = os.availableParallelism();
  if (load > cpus) {
    log(
      `load average ${load} on ${cpus} cores: the machine is busy, figures will be less reliable`,
    );
  }
};
const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  try {
    return await work();
  } finally {
    seconds[name] = Math.round((performance.now() - t) / 100) / 10;
  }
};

let server: GalerieServer | null = null;
let browserVersion: string | null = null;
let javascript: PageWeight[] = [];
let cards: CardImages | null = null;
const firstViews: FirstView[] = [];
let headers: HeaderChecks | null = null;
let throughput: Throughput | null = null;
let lighthouseResults: LighthousePage[] = [];
const checks: Check[] = [];
let fatal: string | null = null;

log(
  `Storefront bench${quick ? ' (--quick)' : ''}: ${pages.length} pages, Lighthouse ×${lighthouseRuns} on ${lighthousePages.length}`,
);
noteLoad('start');
try {
  log('starting the Galerie server (it builds the site first when needed; allow 5 minutes)…');
  const galerie = await timed('startup', () => startGalerie(root, (line) => log(`  ${line}`)));
  server = galerie;
  log(`server ready at ${galerie.url} in ${(galerie.startupMs / 1000).toFixed(1)} s`);
  // Nothing is measured while the server still encodes the catalogue's image variants.
  seconds['variants'] = await waitIdle(galerie.pid, await clockTicks());
  log(`server idle (image variants prepared) after ${seconds['variants']} s more`);

  const browser: Browser = await launchBrowser();
  onCleanup(() => browser.close());
  browserVersion = browser.version();

  javascript = await timed('javascript', async () => {
    const weights: PageWeight[] = [];
    for (const page of pages) {
      const w = await measurePage(browser, galerie.url, page, budgets);
      log(
        `JS ${page}: ${w.status === 'ok' && w.totalGzipBytes !== null ? kb(w.totalGzipBytes) : w.status}`,
      );
      weights.push(w);
    }
    return weights;
  });
  const jsChecks = javascriptChecks(javascript);
  checks.push(...jsChecks);
  printTable(
    'JavaScript and HTML per page (gzip; scripts as Chromium downloads them with Accept-Encoding: gzip)',
    ['page', 'scripts', 'external', 'inline', 'JS total', 'budget', '', 'HTML', 'HTML gzip'],
    javascript.map((w, i) => {
      const c = jsChecks[i];
      if (w.status === 'missing') return [w.page, 'missing', '', '', '', c?.budget ?? '', '–'];
      const n = (v: number | null) => (v === null ? 'n/a' : kb(v));
      return [
        w.page,
        String(w.scripts.length),
        n(w.externalGzipBytes),
        `${n(w.inlineGzipBytes)} (${w.inlineScriptCount})`,
        c?.figure ?? '',
        c?.budget ?? '',
        `${c ? MARK[c.status] : ''}${c?.note ? ` ${c.note}` : ''}`,
        n(w.htmlBytes),
        n(w.htmlGzipBytes),
      ];
    }),
    'lrrrrrlrr',
  );

  const imageChecks: Check[] = [];
  cards = await timed('cards', () => measureCardImages(galerie.url, budgets));
  imageChecks.push(cardCheck(cards, budgets));
  await timed('firstView', async () => {
    for (const viewport of budgets.images.viewports) {
      const view = await measureFirstView(
        browser,
        galerie.url,
        budgets.images.galleryPage,
        viewport,
      );
      firstViews.push(view);
      const label = `${budgets.images.galleryPage} first view, ${viewport.name} ${viewport.width}×${viewport.height} @${viewport.deviceScaleFactor}x`;
      const images = view.byType['image'];
      imageChecks.push({
        section: 'images',
        item: label,
        figure: view.totalBytes === null ? view.status : kb(view.totalBytes),
        budget: `≤ ${kb(budgets.images.firstViewBytes)}`,
        status:
          view.status === 'missing'
            ? 'missing'
            : view.totalBytes === null
              ? 'fail'
              : view.totalBytes <= budgets.images.firstViewBytes
                ? 'pass'
                : 'fail',
        value: view.totalBytes,
        ...(view.totalBytes !== null
          ? {
              note: `${view.requests} responses, images ${images ? `${images.requests} = ${kb(images.bytes)}` : '0'}`,
            }
          : view.error
            ? { note: view.error }
            : {}),
      });
    }
  });
  await browser.close();
  checks.push(...imageChecks);
  printChecks('Images', imageChecks);

  noteLoad('throughput');
  headers = await timed('headers', () =>
    checkHeaders(galerie.url, path.join(servedDir(), 'client'), budgets),
  );
  throughput = await timed('throughput', () =>
    measureThroughput(galerie, path.join(servedDir(), 'client'), budgets, wrkRounds, log),
  );
  checks.push(...headers.checks, ...throughput.checks);
  printServing(headers, throughput);

  noteLoad('lighthouse');
  log(
    `Lighthouse: ${lighthousePages.length} pages × ${lighthouseRuns} run(s), one after the other (about 7 s per run here)…`,
  );
  lighthouseResults = await timed('lighthouse', () =>
    measureLighthouse(galerie.url, lighthousePages, lighthouseRuns, budgets, log),
  );
  const lhChecks = lighthouseChecks(lighthouseResults, budgets);
  checks.push(...lhChecks);
  printLighthouse(lighthouseResults, lhChecks, budgets);
} catch (error) {
  fatal = errorMessage(error);
  console.error(`\nThe bench could not finish: ${fatal}`);
} finally {
  await cleanupAll();
}

// ── summary ───────────────────────────────────────────────────────────────────────────────────
const total = Math.round((performance.now() - started) / 1000);
const count = (status: Check['status']) => checks.filter((c) => c.status === status).length;
const failed = checks.filter((c) => c.status === 'fail');
const missingPages = javascript.filter((w) => w.status === 'missing').map((w) => w.page);
const notMeasured = checks.filter((c) => c.status === 'n/a');

console.log(`\nSummary (${quick ? '--quick' : 'full run'}, ${duration(total)})`);
console.log(
  `  ${MARK.pass} ${count('pass')} within budget   ${MARK.fail} ${failed.length} over budget   ` +
    `– ${count('missing')} on missing pages, ${notMeasured.length} not measurable`,
);
if (missingPages.length) console.log(`  missing pages (404): ${missingPages.join(', ')}`);
for (const c of notMeasured)
  console.log(`  not measured: ${c.item}${c.note ? ` (${c.note})` : ''}`);
if (failed.length) {
  console.log('  over budget:');
  for (const c of failed)
    console.log(`    ${c.section} ${c.item}: ${c.figure} (budget ${c.budget})`);
}
if (fatal) console.log(`  the run stopped early: ${fatal.split('\n')[0]}`);

const buildInfo = await fs
  .readFile(path.join(servedDir(), 'build-info.json'), 'utf8')
  .then((text) => JSON.parse(text) as unknown)
  .catch(() => null);
const lighthouseVersion = await fs
  .readFile(path.join(root, 'node_modules', 'lighthouse', 'package.json'), 'utf8')
  .then((text) => (JSON.parse(text) as { version: string }).version)
  .catch(() => null);
const report = {
  measuredAt: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  durationSeconds: { total, ...seconds },
  machine: {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? null,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    chromium: browserVersion,
    lighthouse: lighthouseVersion,
    loadAverage,
  },
  server: server ? { startupSeconds: server.startupMs / 1000, build: server.buildLine } : null,
  build: buildInfo,
  budgets: { file: path.relative(root, BUDGETS_FILE), ...budgets },
  summary: {
    pass: count('pass'),
    fail: failed.length,
    missing: count('missing'),
    notMeasured: notMeasured.length,
    missingPages,
    fatal,
  },
  checks,
  javascript,
  images: { cards, firstView: firstViews },
  serving: { headers, throughput },
  lighthouse: lighthouseResults,
};
await fs.mkdir(path.dirname(resultsFile), { recursive: true });
// Formatted as `npm run format:check` expects, since the file is committed.
const prettierOptions = (await prettier.resolveConfig(resultsFile)) ?? {};
await fs.writeFile(
  resultsFile,
  await prettier.format(JSON.stringify(report), { ...prettierOptions, filepath: resultsFile }),
);
console.log(`  figures written to ${path.relative(root, resultsFile)}`);
process.exit(failed.length || fatal ? 1 : 0);
