// Lighthouse (default config: mobile, simulated throttling) on system Chromium, one fresh browser
// per run, pages one after the other; the median of each figure over the runs is what counts.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import lighthouse, { type Result } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';
import { type Budgets, CATEGORIES, type Category } from './budgets.ts';
import { type Check, errorMessage, MARK, median, printTable, rawGet } from './util.ts';

export interface LighthouseRun {
  scores: Record<Category, number | null>;
  lcpMs: number | null;
  cls: number | null;
  fcpMs: number | null;
  tbtMs: number | null;
  /** Weighted audits scoring under 1 in a category under its budget, e.g. `color-contrast`. */
  failingAudits: string[];
  /** Where LCP comes from: the element and its subparts (time to first byte, load delay…). */
  lcpElement: string | null;
  lcpSubpartsMs: Record<string, number>;
  /** Elements that shifted, with their summed layout-shift score. */
  layoutShifts: { element: string; score: number }[];
  /** Lighthouse's CPU benchmark of this machine at the time (lower: slower or busier). */
  benchmarkIndex: number | null;
  warnings: string[];
  error?: string;
}

export interface LighthousePage {
  page: string;
  status: 'ok' | 'missing' | 'error';
  runs: LighthouseRun[];
  median: Pick<
    LighthouseRun,
    'scores' | 'lcpMs' | 'cls' | 'fcpMs' | 'tbtMs' | 'benchmarkIndex'
  > | null;
  failingAudits: string[];
}

/** A headless Chromium with a DevTools port and a profile of its own, as Lighthouse's CLI uses. */
async function debuggableChromium(): Promise<{ port: number; stop: () => Promise<void> }> {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-bench-lh-'));
  const child = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_ARGS,
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-extensions',
      '--disable-default-apps',
      '--mute-audio',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await fs.rm(profile, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Chromium did not open DevTools')), 30_000);
      if (child.stderr) {
        readline.createInterface({ input: child.stderr }).on('line', (line) => {
          const m = line.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//);
          if (m) {
            clearTimeout(timer);
            resolve(Number(m[1]));
          }
        });
      }
      child.once('exit', (code) => reject(new Error(`Chromium exited (${code})`)));
    });
    return { port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface DetailNode {
  type?: string;
  selector?: string;
  snippet?: string;
}
interface DetailItem extends DetailNode {
  items?: { subpart?: string; duration?: number }[];
  node?: DetailNode;
  score?: number;
}

const detailItems = (lhr: Result, id: string): DetailItem[] =>
  ((lhr.audits[id]?.details as { items?: DetailItem[] } | undefined)?.items ?? []).filter(
    (item) => typeof item === 'object',
  );

/** The LCP element and subparts, from the `lcp-breakdown-insight` audit. */
function lcpBreakdown(lhr: Result): Pick<LighthouseRun, 'lcpElement' | 'lcpSubpartsMs'> {
  let lcpElement: string | null = null;
  const lcpSubpartsMs: Record<string, number> = {};
  for (const item of detailItems(lhr, 'lcp-breakdown-insight')) {
    if (item.type === 'node') lcpElement = item.selector ?? item.snippet ?? null;
    for (const row of item.type === 'table' ? (item.items ?? []) : []) {
      if (row.subpart && typeof row.duration === 'number') {
        lcpSubpartsMs[row.subpart] = Math.round(row.duration);
      }
    }
  }
  return { lcpElement, lcpSubpartsMs };
}

/** Shifted elements from the `layout-shifts` audit, scores summed per element. */
function layoutShifts(lhr: Result): LighthouseRun['layoutShifts'] {
  const byElement = new Map<string, number>();
  for (const item of detailItems(lhr, 'layout-shifts')) {
    const element = item.node?.selector ?? item.node?.snippet ?? 'unknown element';
    byElement.set(element, (byElement.get(element) ?? 0) + (item.score ?? 0));
  }
  return [...byElement].map(([element, score]) => ({
    element,
    score: Math.round(score * 1000) / 1000,
  }));
}

function summarize(lhr: Result, budgets: Budgets): LighthouseRun {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? null;
  const scores = {} as Record<Category, number | null>;
  const failingAudits: string[] = [];
  for (const category of CATEGORIES) {
    const c = lhr.categories[category];
    const score = c?.score === null || c?.score === undefined ? null : Math.round(c.score * 100);
    scores[category] = score;
    if (c && (score ?? 0) < budgets.lighthouse.minScores[category]) {
      for (const ref of c.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
          failingAudits.push(`${category}:${ref.id}`);
        }
      }
    }
  }
  return {
    scores,
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    fcpMs: numeric('first-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    failingAudits,
    ...lcpBreakdown(lhr),
    layoutShifts: layoutShifts(lhr),
    benchmarkIndex: lhr.environment.benchmarkIndex ?? null,
    warnings: lhr.runWarnings.map(String),
    ...(lhr.runtimeError ? { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
  };
}

async function runOnce(url: string, budgets: Budgets): Promise<LighthouseRun> {
  const chrome = await debuggableChromium();
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    return summarize(result.lhr, budgets);
  } finally {
    await chrome.stop();
  }
}

const medianOf = (runs: LighthouseRun[], pick: (r: LighthouseRun) => number | null) =>
  median(runs.map(pick).filter((v): v is number => v !== null));

export async function measureLighthouse(
  baseUrl: string,
  pages: string[],
  runs: number,
  budgets: Budgets,
  log: (line: string) => void,
): Promise<LighthousePage[]> {
  const results: LighthousePage[] = [];
  for (const [index, page] of pages.entries()) {
    const url = `${baseUrl}${page}`;
    const prefix = `Lighthouse ${index + 1}/${pages.length} ${page}`;
    if ((await rawGet(url)).status === 404) {
      log(`${prefix}: missing`);
      results.push({ page, status: 'missing', runs: [], median: null, failingAudits: [] });
      continue;
    }
    const done: LighthouseRun[] = [];
    for (let n = 1; n <= runs; n++) {
      const started = performance.now();
      let run: LighthouseRun;
      try {
        run = await runOnce(url, budgets);
      } catch (error) {
        run = {
          scores: { performance: null, accessibility: null, 'best-practices': null, seo: null },
          lcpMs: null,
          cls: null,
          fcpMs: null,
          tbtMs: null,
          failingAudits: [],
          lcpElement: null,
          lcpSubpartsMs: {},
          layoutShifts: [],
          benchmarkIndex: null,
          warnings: [],
          error: errorMessage(error),
        };
      }
      done.push(run);
      const s = run.scores;
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      log(
        `${prefix} run ${n}/${runs}: ` +
          (run.error
            ? `error ${run.error}`
            : `perf ${s.performance} a11y ${s.accessibility} bp ${s['best-practices']} seo ${s.seo} ` +
              `LCP ${((run.lcpMs ?? 0) / 1000).toFixed(2)} s CLS ${(run.cls ?? 0).toFixed(3)}`) +
          ` (${seconds} s)`,
      );
    }
    const ok = done.filter((r) => !r.error);
    results.push({
      page,
      status: ok.length ? 'ok' : 'error',
      runs: done,
      median: ok.length
        ? {
            scores: Object.fromEntries(
              CATEGORIES.map((c) => [c, medianOf(ok, (r) => r.scores[c])]),
            ) as Record<Category, number | null>,
            lcpMs: medianOf(ok, (r) => r.lcpMs),
            cls: medianOf(ok, (r) => r.cls),
            fcpMs: medianOf(ok, (r) => r.fcpMs),
            tbtMs: medianOf(ok, (r) => r.tbtMs),
            benchmarkIndex: medianOf(ok, (r) => r.benchmarkIndex),
          }
        : null,
      failingAudits: [...new Set(done.flatMap((r) => r.failingAudits))],
    });
  }
  return results;
}

const LABELS: Record<Category, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};

const SUBPARTS: Record<string, string> = {
  timeToFirstByte: 'TTFB',
  resourceLoadDelay: 'load delay',
  resourceLoadDuration: 'load',
  elementRenderDelay: 'render delay',
};

/** CLS as Lighthouse displays it (3 decimals): "0" means no visible shift. */
const roundCls = (cls: number) => Math.round(cls * 1000) / 1000;

export function lighthouseChecks(pages: LighthousePage[], budgets: Budgets): Check[] {
  const { minScores, maxLcpMs, maxCls } = budgets.lighthouse;
  return pages.flatMap((p) => {
    const m = p.median;
    const figures: {
      item: string;
      value: number | null;
      figure: string;
      budget: string;
      ok: (v: number) => boolean;
    }[] = [
      ...CATEGORIES.map((c) => ({
        item: LABELS[c],
        value: m?.scores[c] ?? null,
        figure: String(m?.scores[c] ?? 'n/a'),
        budget: `≥ ${minScores[c]}`,
        ok: (v: number) => v >= minScores[c],
      })),
      {
        item: 'LCP',
        value: m?.lcpMs ?? null,
        figure:
          m?.lcpMs === null || m?.lcpMs === undefined ? 'n/a' : `${(m.lcpMs / 1000).toFixed(2)} s`,
        budget: `≤ ${(maxLcpMs / 1000).toFixed(2)} s`,
        ok: (v: number) => v <= maxLcpMs,
      },
      {
        item: 'CLS',
        value: m?.cls ?? null,
        figure: m?.cls === null || m?.cls === undefined ? 'n/a' : String(roundCls(m.cls)),
        budget: `≤ ${maxCls}`,
        ok: (v: number) => roundCls(v) <= maxCls,
      },
    ];
    return figures.map((f): Check => ({
      section: 'lighthouse',
      item: `${p.page} ${f.item}`,
      figure: p.status === 'missing' ? 'missing' : f.figure,
      budget: f.budget,
      status:
        p.status === 'missing'
          ? 'missing'
          : f.value === null
            ? 'fail'
            : f.ok(f.value)
              ? 'pass'
              : 'fail',
      value: f.value,
    }));
  });
}

export function printLighthouse(pages: LighthousePage[], checks: Check[], budgets: Budgets): void {
  const { minScores, maxLcpMs, maxCls } = budgets.lighthouse;
  const header = ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP', 'CLS'];
  const rows = [
    [
      'budget',
      ...CATEGORIES.map((c) => `≥ ${minScores[c]}`),
      `≤ ${(maxLcpMs / 1000).toFixed(2)} s`,
      `≤ ${maxCls}`,
    ],
    ...pages.map((p) => {
      const mine = checks.filter((c) => c.item.startsWith(`${p.page} `));
      if (p.status === 'missing') return [p.page, 'missing', '', '', '', '', ''];
      return [p.page, ...mine.map((c) => `${c.figure} ${MARK[c.status]}`)];
    }),
  ];
  const runs = pages.find((p) => p.runs.length)?.runs.length ?? 0;
  printTable(
    `Lighthouse (mobile, simulated throttling; median of ${runs} run${runs === 1 ? '' : 's'} per page)`,
    header,
    rows,
    'lrrrrrr',
  );
  // What to look at when a page misses a budget: failing audits, the LCP element, what shifted.
  for (const p of pages) {
    const over = (metric: string) =>
      checks.some((c) => c.item === `${p.page} ${metric}` && c.status === 'fail');
    const last = p.runs.findLast((r) => !r.error);
    if (p.failingAudits.length) {
      console.log(`  ${p.page}: audits under 1: ${p.failingAudits.join(', ')}`);
    }
    if (last && over('LCP')) {
      // The subparts come from the unthrottled trace: they show where the time goes, not the
      // simulated figure itself.
      const parts = Object.entries(last.lcpSubpartsMs)
        .map(([name, value]) => `${SUBPARTS[name] ?? name} ${value} ms`)
        .join(', ');
      console.log(
        `  ${p.page}: LCP element ${last.lcpElement ?? '?'}${parts ? `; unthrottled: ${parts}` : ''}`,
      );
    }
    if (last && over('CLS')) {
      const shifts = last.layoutShifts.map((s) => `${s.element} ${s.score}`).join('; ');
      console.log(`  ${p.page}: layout shifts ${shifts}`);
    }
    const errors = p.runs.filter((r) => r.error).map((r) => r.error);
    if (errors.length) console.log(`  ${p.page}: ${errors.length} run(s) failed: ${errors[0]}`);
  }
  const benchmark = median(
    pages
      .flatMap((p) => p.runs.map((r) => r.benchmarkIndex))
      .filter((v): v is number => v !== null),
  );
  if (benchmark !== null)
    console.log(`  Lighthouse CPU benchmark index (median): ${Math.round(benchmark)}`);
  const warnings = [...new Set(pages.flatMap((p) => p.runs.flatMap((r) => r.warnings)))];
  for (const w of warnings) console.log(`  Lighthouse warning: ${w}`);
}
