// Serving: built files go out precompressed with the right caching, and our server's throughput on
// a static page compared with nginx-light serving the same file in the same run (wrk, loopback,
// server and load generator pinned to different cores).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Budgets } from './budgets.ts';
import { findExecutable, pin, run, startNginx, type Running } from './processes.ts';
import { type Check, errorMessage, kb, median, printChecks, printTable, rawGet } from './util.ts';

/** What Chromium sends. */
const BROWSER_ACCEPT = 'gzip, deflate, br, zstd';
const SECTION = 'serving';

export interface HeaderResult {
  url: string;
  status: number;
  contentEncoding: string | null;
  cacheControl: string | null;
  bytes: number;
}

async function headers(url: string, acceptEncoding: string): Promise<HeaderResult> {
  const res = await rawGet(url, { 'accept-encoding': acceptEncoding });
  return {
    url,
    status: res.status,
    contentEncoding: res.headers['content-encoding'] ?? null,
    cacheControl: res.headers['cache-control'] ?? null,
    bytes: res.body.length,
  };
}

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString();
  return body.toString();
}

/**
 * The largest /_astro/ asset of a kind that the page links to (or, when it links to none, in the
 * whole build): the one whose compression matters most. Files under 256 bytes are never
 * precompressed (api/build/precompress.ts), so they do not count.
 */
async function pickAsset(clientDir: string, html: string, ext: '.css' | '.js') {
  const linked = [...html.matchAll(/(?:href|src)="(\/_astro\/[^"]+)"/g)]
    .map((m) => m[1] ?? '')
    .filter((p) => p.endsWith(ext));
  const all = await fs
    .readdir(path.join(clientDir, '_astro'))
    .then((names) => names.filter((n) => n.endsWith(ext)).map((n) => `/_astro/${n}`))
    .catch(() => [] as string[]);
  const candidates = linked.length ? [...new Set(linked)] : all;
  const sized = await Promise.all(
    candidates.map(async (p) => ({
      path: p,
      size: (await fs.stat(path.join(clientDir, p)).catch(() => null))?.size ?? 0,
    })),
  );
  return sized.filter((a) => a.size >= 256).sort((a, b) => b.size - a.size)[0] ?? null;
}

export interface HeaderChecks {
  checks: Check[];
  page: HeaderResult | null;
  css: HeaderResult | null;
  js: HeaderResult | null;
}

export async function checkHeaders(
  baseUrl: string,
  clientDir: string,
  budgets: Budgets,
): Promise<HeaderChecks> {
  const checks: Check[] = [];
  const wanted = budgets.serving.assetCacheControl;
  const page = await headers(`${baseUrl}${budgets.serving.page}`, BROWSER_ACCEPT);
  const encodingCheck = (item: string, r: HeaderResult | null, why?: string): Check => ({
    section: SECTION,
    item,
    figure: r ? (r.contentEncoding ?? 'none') : 'n/a',
    budget: 'br',
    status: r ? (r.contentEncoding === 'br' ? 'pass' : 'fail') : 'n/a',
    value: r ? r.bytes : null,
    ...(why ? { note: why } : {}),
  });
  if (page.status === 404) {
    checks.push({
      section: SECTION,
      item: `page ${budgets.serving.page}: Content-Encoding`,
      figure: 'missing',
      budget: 'br',
      status: 'missing',
      value: null,
    });
    return { checks, page: null, css: null, js: null };
  }
  checks.push(encodingCheck(`page ${budgets.serving.page}: Content-Encoding`, page));
  const res = await rawGet(page.url, { 'accept-encoding': BROWSER_ACCEPT });
  const html = decode(res.body, res.headers['content-encoding']);
  const found: Partial<Record<'css' | 'js', HeaderResult>> = {};
  for (const [kind, ext] of [
    ['css', '.css'],
    ['js', '.js'],
  ] as const) {
    const asset = await pickAsset(clientDir, html, ext);
    const result = asset ? await headers(`${baseUrl}${asset.path}`, BROWSER_ACCEPT) : null;
    if (result) found[kind] = result;
    const label = kind.toUpperCase();
    const why = asset ? `${asset.path} (${kb(asset.size)} raw)` : 'no asset of 256 bytes or more';
    checks.push(encodingCheck(`${label} asset: Content-Encoding`, result, why));
    checks.push({
      section: SECTION,
      item: `${label} asset: Cache-Control`,
      figure: result ? (result.cacheControl ?? 'none') : 'n/a',
      budget: wanted,
      status: result ? (result.cacheControl === wanted ? 'pass' : 'fail') : 'n/a',
      value: null,
    });
  }
  return { checks, page, css: found.css ?? null, js: found.js ?? null };
}

export interface WrkResult {
  label: string;
  url: string;
  acceptEncoding: string;
  contentEncoding: string | null;
  responseBytes: number;
  /** Median over the rounds. */
  requestsPerSecond: number;
  roundsRequestsPerSecond: number[];
  requests: number;
  latencyAvgMs: number | null;
  latencyP99Ms: number | null;
  errors: string | null;
}

const UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** Reads the figures out of wrk's report (with --latency). */
export function parseWrk(
  output: string,
): Pick<WrkResult, 'requestsPerSecond' | 'requests' | 'latencyAvgMs' | 'latencyP99Ms' | 'errors'> {
  const duration = (text: string | undefined) => {
    const m = text?.match(/^([\d.]+)(us|ms|s|m)$/);
    return m ? Number(m[1]) * (UNITS[m[2] ?? 'ms'] ?? 1) : null;
  };
  const rps = output.match(/Requests\/sec:\s+([\d.]+)/);
  if (!rps) throw new Error(`unexpected wrk output:\n${output}`);
  const errors = [
    output.match(/Socket errors:[^\n]*/)?.[0],
    output.match(/Non-2xx or 3xx responses: \d+/)?.[0],
  ].filter(Boolean);
  return {
    requestsPerSecond: Number(rps[1]),
    requests: Number(output.match(/(\d+) requests in/)?.[1] ?? 0),
    latencyAvgMs: duration(output.match(/Latency\s+(\S+)/)?.[1]),
    latencyP99Ms: duration(output.match(/\n\s*99%\s+(\S+)/)?.[1]),
    errors: errors.length ? errors.join('; ') : null,
  };
}

export interface Throughput {
  checks: Check[];
  runs: WrkResult[];
  /** Medians of the per-round ratios. */
  ratioGzip: number | null;
  ratioBr: number | null;
  rounds: number;
  note?: string;
}

async function wrk(
  wrkPath: string,
  taskset: string,
  url: string,
  acceptEncoding: string,
  seconds: number,
  budgets: Budgets,
): Promise<string> {
  const { threads, connections } = budgets.serving.wrk;
  const { stdout } = await run(
    taskset,
    [
      '-c',
      '0',
      wrkPath,
      `-t${threads}`,
      `-c${connections}`,
      `-d${seconds}s`,
      '--latency',
      '-H',
      `Accept-Encoding: ${acceptEncoding}`,
      url,
    ],
    { timeout: (seconds + 30) * 1000 },
  );
  return stdout;
}

export async function measureThroughput(
  ours: { url: string; pid: number },
  clientDir: string,
  budgets: Budgets,
  rounds: number,
  log: (line: string) => void,
): Promise<Throughput> {
  const min = budgets.serving.minThroughputRatioGzip;
  const ratioCheck = (item: string, ratio: number | null, budgeted: boolean): Check => ({
    section: SECTION,
    item,
    figure: ratio === null ? 'n/a' : `${ratio.toFixed(2)}×`,
    budget: budgeted ? `≥ ${min.toFixed(2)}×` : '(info)',
    status: ratio === null ? 'n/a' : !budgeted ? 'info' : ratio >= min ? 'pass' : 'fail',
    value: ratio,
  });
  const notMeasured = (note: string): Throughput => ({
    checks: [
      { ...ratioCheck('throughput, ours gzip / nginx gzip', null, true), note },
      ratioCheck('throughput, ours br / nginx gzip', null, false),
    ],
    runs: [],
    ratioGzip: null,
    ratioBr: null,
    rounds,
    note,
  });
  const [wrkPath, nginx, taskset] = await Promise.all(
    ['wrk', 'nginx', 'taskset'].map(findExecutable),
  );
  if (!wrkPath || !nginx || !taskset) {
    return notMeasured('needs wrk, nginx and taskset: apt-get install wrk nginx-light');
  }
  const page = budgets.serving.page;
  let reference: Running | null = null;
  try {
    reference = await startNginx(nginx, taskset, clientDir, 1);
    await pin(taskset, ours.pid, '1');
    const targets = [
      { label: 'nginx-light', base: reference.url, accept: 'gzip' },
      { label: 'Galerie', base: ours.url, accept: 'gzip' },
      { label: 'Galerie', base: ours.url, accept: 'br' },
    ];
    const { durationSeconds, warmupSeconds } = budgets.serving.wrk;
    const probes = [];
    for (const target of targets) {
      const url = `${target.base}${page}`;
      const probe = await rawGet(url, { 'accept-encoding': target.accept });
      if (probe.status === 404) return notMeasured(`${page} is missing`);
      if (probe.status !== 200) throw new Error(`GET ${url} answered ${probe.status}`);
      probes.push({ ...target, url, probe });
      if (warmupSeconds > 0)
        await wrk(wrkPath, taskset, url, target.accept, warmupSeconds, budgets);
    }
    // Interleaved rounds: load from other work on the machine then weighs on every server alike,
    // and each round's ratio compares runs made seconds apart.
    const outputs: ReturnType<typeof parseWrk>[][] = probes.map(() => []);
    for (let round = 1; round <= rounds; round++) {
      log(
        `wrk round ${round}/${rounds}: nginx gzip, Galerie gzip, Galerie br (${durationSeconds} s each)…`,
      );
      for (const [i, p] of probes.entries()) {
        outputs[i]?.push(
          parseWrk(await wrk(wrkPath, taskset, p.url, p.accept, durationSeconds, budgets)),
        );
      }
    }
    const mid = (values: (number | null)[]) =>
      median(values.filter((v): v is number => v !== null));
    const runs: WrkResult[] = probes.map((p, i) => {
      const out = outputs[i] ?? [];
      const errors = [...new Set(out.map((o) => o.errors).filter((e) => e !== null))];
      return {
        label: p.label,
        url: p.url,
        acceptEncoding: p.accept,
        contentEncoding: p.probe.headers['content-encoding'] ?? null,
        responseBytes: p.probe.body.length,
        requestsPerSecond: mid(out.map((o) => o.requestsPerSecond)) ?? 0,
        roundsRequestsPerSecond: out.map((o) => Math.round(o.requestsPerSecond)),
        requests: out.reduce((sum, o) => sum + o.requests, 0),
        latencyAvgMs: mid(out.map((o) => o.latencyAvgMs)),
        latencyP99Ms: mid(out.map((o) => o.latencyP99Ms)),
        errors: errors.length ? errors.join('; ') : null,
      };
    });
    const [ref, gz, br] = outputs;
    const ratio = (mine?: ReturnType<typeof parseWrk>[]) =>
      mid(
        (mine ?? []).map((o, r) => {
          const base = ref?.[r]?.requestsPerSecond ?? 0;
          return base > 0 ? o.requestsPerSecond / base : null;
        }),
      );
    const ratioGzip = ratio(gz);
    const ratioBr = ratio(br);
    const checks = [
      ratioCheck('throughput, ours gzip / nginx gzip', ratioGzip, true),
      ratioCheck('throughput, ours br / nginx gzip', ratioBr, false),
    ];
    const maxP99 = budgets.serving.maxP99Ms;
    for (const r of runs.filter((run) => run.label === 'Galerie')) {
      checks.push({
        section: SECTION,
        item: `p99 latency, ours ${r.acceptEncoding} (${budgets.serving.wrk.connections} connections)`,
        figure: r.latencyP99Ms === null ? 'n/a' : `${r.latencyP99Ms.toFixed(2)} ms`,
        budget: `≤ ${maxP99} ms`,
        status: r.latencyP99Ms === null ? 'n/a' : r.latencyP99Ms <= maxP99 ? 'pass' : 'fail',
        value: r.latencyP99Ms,
      });
    }
    // A comparison of unequal responses (errors, or no compression) would mean nothing.
    for (const r of runs) {
      const expected = r.acceptEncoding;
      if (r.errors || r.contentEncoding !== expected) {
        checks.push({
          section: SECTION,
          item: `wrk ${r.label} ${expected}`,
          figure: r.errors ?? `Content-Encoding: ${r.contentEncoding ?? 'none'}`,
          budget: `no errors, ${expected}`,
          status: 'fail',
          value: null,
        });
      }
    }
    return { checks, runs, ratioGzip, ratioBr, rounds };
  } catch (error) {
    return notMeasured(`failed: ${errorMessage(error)}`);
  } finally {
    await reference?.stop();
    await pin(taskset, ours.pid, `0-${os.availableParallelism() - 1}`).catch(() => {});
  }
}

export function printServing(headerChecks: HeaderChecks, throughput: Throughput): void {
  printChecks('Serving: precompression and caching', headerChecks.checks);
  if (throughput.runs.length) {
    printTable(
      `Serving: throughput on a static page (wrk, server on core 1, wrk on core 0; median of ${throughput.rounds} interleaved round${throughput.rounds === 1 ? '' : 's'})`,
      ['server', 'encoding', 'bytes/response', 'req/s', 'rounds', 'avg latency', 'p99 latency'],
      throughput.runs.map((r) => [
        r.label,
        r.contentEncoding ?? 'none',
        String(r.responseBytes),
        Math.round(r.requestsPerSecond).toLocaleString('en'),
        r.roundsRequestsPerSecond.map((v) => v.toLocaleString('en')).join(' / '),
        r.latencyAvgMs === null ? '?' : `${r.latencyAvgMs.toFixed(2)} ms`,
        r.latencyP99Ms === null ? '?' : `${r.latencyP99Ms.toFixed(2)} ms`,
      ]),
      'llrrrrr',
    );
  }
  printChecks('Serving: throughput compared with nginx-light', throughput.checks);
}
