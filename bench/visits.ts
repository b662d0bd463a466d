// Visit-counting bench (`npm run bench:visits`), issue 12 item 9: what private visit counts cost
// static pages. Two real servers (`node api/server.ts`, fresh embedded databases, the same built
// version) run side by side, one with VISIT_COUNTING=off and one with it on; autocannon (10
// keep-alive connections, a browser's user agent, so every page is a countable view) cycles
// through public pages on one, then the other, alternating off / on for ROUNDS pairs of
// SECONDS each. Both servers are pinned to core 1 and the bench to core 0 when taskset exists.
// Afterwards the "on" server is stopped (its shutdown writes the last counts) and its database is
// read back to check the views were really counted. Budget: on ÷ off ≥ 0.95 (no loss beyond
// noise; the spread between the "off" rounds is printed as the noise). The servers' CPU time per
// request (from /proc) is printed beside it: it moves far less with the machine's other load.
// Figures go to bench/results/visits-latest.json. `--quick`: one pair of 5-second rounds;
// `--rounds N` pairs, `--seconds S` each.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '#api/db/index.ts';
import {
  clockTicks,
  cpuSeconds,
  findExecutable,
  pin,
  startGalerie,
  waitIdle,
  type GalerieServer,
} from './lib/processes.ts';
import { cleanupAll, onCleanup, printTable, rawGet, writeResults } from './lib/util.ts';

const root = path.resolve(import.meta.dirname, '..');
const resultsFile = path.join(import.meta.dirname, 'results', 'visits-latest.json');
const quick = process.argv.includes('--quick');
const numberArg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  const value = at > 0 ? Number(process.argv[at + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const ROUNDS = numberArg('--rounds', quick ? 1 : 2);
const SECONDS = numberArg('--seconds', quick ? 5 : 10);
const WARMUP_SECONDS = 2;
const CONNECTIONS = 10;
const BUDGET_RATIO = 0.95;
const PAGES = [
  '/',
  '/gallery',
  '/about',
  '/contact',
  '/en/',
  '/en/gallery',
  '/en/about',
  '/oeuvres/seuil',
];
const HEADERS = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8',
};
const log = (line: string) => console.log(`  ${line}`);

interface Round {
  mode: 'off' | 'on';
  rps: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  /** The server's CPU time (user + system) per answered request, from /proc; null elsewhere. */
  cpuUsPerRequest: number | null;
}

/** CPU seconds a process has used so far (Linux /proc), or null. */
async function load(url: string, seconds: number) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: HEADERS,
    requests: PAGES.map((page) => ({ method: 'GET' as const, path: page })),
  });
  return {
    rps: result.requests.average,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
  };
}

/** Both servers build for (and serve) this address, so they can share one built version. */
const SITE_URL = 'http://127.0.0.1:4321';

async function start(mode: 'off' | 'on', dist: string, reuse?: string) {
  const dataDir =
    reuse ?? (await fs.mkdtemp(path.join(os.tmpdir(), `galerie-bench-visits-${mode}-`)));
  if (!reuse) onCleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const server = await startGalerie(root, (line) => log(`${mode}: ${line}`), {
    dataDir,
    env: { GALERIE_DIST_DIR: dist, VISIT_COUNTING: mode, PUBLIC_SITE_URL: SITE_URL },
  });
  return { server, dataDir };
}

/** Whether two servers answer every measured page with the same bytes (the same build). */
async function sameBuild(a: string, b: string): Promise<boolean> {
  for (const page of PAGES) {
    const [x, y] = await Promise.all([rawGet(`${a}${page}`), rawGet(`${b}${page}`)]);
    if (x.status !== 200 || !x.body.equals(y.body)) return false;
  }
  return true;
}

/** What a stopped server's embedded database holds. */
async function counted(dataDir: string) {
  const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  try {
    const views = await handle.db
      .selectFrom('visit_counts')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('visits'), eb.lit(0)).as('n'))
      .executeTakeFirstOrThrow();
    const works = await handle.db
      .selectFrom('work_views')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('views'), eb.lit(0)).as('n'))
      .executeTakeFirstOrThrow();
    const visitors = await handle.db
      .selectFrom('visitor_days')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('visitors'), eb.lit(0)).as('n'))
      .executeTakeFirstOrThrow();
    return { views: Number(views.n), workViews: Number(works.n), visitors: Number(visitors.n) };
  } finally {
    await handle.close();
  }
}

/** Until the process uses less than 5 % of a core for two seconds in a row (at most 3 minutes). */

const loadAtStart = Number(os.loadavg()[0]?.toFixed(2));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

try {
  console.log(
    `Visit-counting bench on ${os.cpus().length} cores (${quick ? 'quick' : 'full'} run): ${ROUNDS} × (off, on), ${SECONDS} s each`,
  );
  const dist = path.join(root, '.cache', 'bench-visits-dist');
  onCleanup(() => fs.rm(dist, { recursive: true, force: true }));
  let off = await start('off', dist);
  const on = await start('on', dist);
  // The second server rebuilds when the sources changed meanwhile (others at work in the
  // checkout): the first is restarted on that build, so both serve the same pages.
  let same = await sameBuild(off.server.url, on.server.url);
  for (let attempt = 1; !same && attempt <= 3; attempt++) {
    log('the two servers serve different builds: restarting "off" on the newest');
    await off.server.stop();
    off = await start('off', dist, off.dataDir);
    same = await sameBuild(off.server.url, on.server.url);
  }
  if (!same) log('warning: the two servers still serve different builds');
  const servers: Record<'off' | 'on', GalerieServer> = { off: off.server, on: on.server };

  const taskset = os.cpus().length >= 2 ? await findExecutable('taskset') : null;
  if (taskset) {
    await pin(taskset, off.server.pid, '1');
    await pin(taskset, on.server.pid, '1');
    await pin(taskset, process.pid, '0');
    log('servers on core 1, autocannon on core 0');
  } else log('no taskset (or one core): nothing pinned');

  // Throughput moves with whatever else the machine runs; the server's CPU time per request
  // does much less, so it is measured too.
  const tick = await clockTicks();
  for (const mode of ['off', 'on'] as const)
    log(`${mode}: idle after ${await waitIdle(servers[mode].pid, tick)} s`);
  for (const mode of ['off', 'on'] as const) await load(servers[mode].url, WARMUP_SECONDS);
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++)
    for (const mode of ['off', 'on'] as const) {
      const before = await cpuSeconds(servers[mode].pid, tick);
      const r = await load(servers[mode].url, SECONDS);
      const after = await cpuSeconds(servers[mode].pid, tick);
      const cpuUsPerRequest =
        before === null || after === null || r.requests === 0
          ? null
          : ((after - before) / r.requests) * 1e6;
      rounds.push({ mode, ...r, cpuUsPerRequest });
      log(
        `round ${i + 1} ${mode}: ${Math.round(r.rps)} req/s, p99 ${r.p99Ms} ms${cpuUsPerRequest === null ? '' : `, ${Math.round(cpuUsPerRequest)} µs CPU/request`}`,
      );
    }
  const onRequests = rounds.filter((r) => r.mode === 'on').reduce((n, r) => n + r.requests, 0);

  // Stopping writes the last counts (graceful shutdown flushes before closing the database).
  await off.server.stop();
  await on.server.stop();
  const offCounts = await counted(off.dataDir);
  const onCounts = await counted(on.dataDir);

  const rps = (mode: 'off' | 'on') => rounds.filter((r) => r.mode === mode).map((r) => r.rps);
  const offMean = mean(rps('off'));
  const onMean = mean(rps('on'));
  const ratio = onMean / offMean;
  const offRps = rps('off');
  const noise = offRps.length > 1 ? (Math.max(...offRps) - Math.min(...offRps)) / offMean : null;
  const nonOk = rounds.reduce((n, r) => n + r.non2xx, 0);
  const cpu = (mode: 'off' | 'on') => {
    const values = rounds.filter((r) => r.mode === mode).map((r) => r.cpuUsPerRequest);
    return values.every((v): v is number => v !== null) ? mean(values) : null;
  };
  const cpuOff = cpu('off');
  const cpuOn = cpu('on');

  printTable(
    `Static pages (${PAGES.length} public pages in turn, ${CONNECTIONS} keep-alive connections)`,
    ['round', 'counting', 'req/s', 'p99', 'server CPU/request'],
    rounds.map((r, i) => [
      String(Math.floor(i / 2) + 1),
      r.mode,
      String(Math.round(r.rps)),
      `${r.p99Ms} ms`,
      r.cpuUsPerRequest === null ? 'n/a' : `${Math.round(r.cpuUsPerRequest)} µs`,
    ]),
    'llrrr',
  );
  printTable(
    'Visit counting on ÷ off',
    ['off req/s', 'on req/s', 'ratio', 'off-round spread', 'budget'],
    [
      [
        String(Math.round(offMean)),
        String(Math.round(onMean)),
        ratio.toFixed(3),
        noise === null ? 'n/a' : `${(noise * 100).toFixed(1)} %`,
        `≥ ${BUDGET_RATIO} ${ratio >= BUDGET_RATIO ? '✓' : '✗'}`,
      ],
    ],
    'rrrrl',
  );
  if (cpuOff !== null && cpuOn !== null)
    console.log(
      `Server CPU per request: ${Math.round(cpuOff)} µs off, ${Math.round(cpuOn)} µs on (${cpuOn >= cpuOff ? '+' : ''}${Math.round(cpuOn - cpuOff)} µs, on ÷ off ${(cpuOn / cpuOff).toFixed(3)})`,
    );
  console.log(
    `\nCounted by the "on" server: ${onCounts.views} page views (${onCounts.workViews} of a work), ${onCounts.visitors} visitor(s), for ${onRequests} measured requests plus the warm-up; the "off" server: ${offCounts.views}.`,
  );
  if (nonOk) console.log(`${nonOk} answers were not 2xx ✗`);
  const loadNow = os.loadavg()[0] ?? 0;
  if (Math.max(loadAtStart, loadNow) > os.cpus().length / 2)
    console.log(
      `Load average ${loadAtStart.toFixed(1)} → ${loadNow.toFixed(1)} on ${os.cpus().length} cores: other work shared the machine, so the figures are noisy.`,
    );

  await fs.mkdir(path.dirname(resultsFile), { recursive: true });
  await writeResults(resultsFile, {
    date: new Date().toISOString(),
    cores: os.cpus().length,
    // Other work on the machine moves every figure: the 1-minute load at the start and end.
    loadAverage: { start: loadAtStart, end: Number(os.loadavg()[0]?.toFixed(2)) },
    pinned: taskset !== null,
    sameBuild: same,
    seconds: SECONDS,
    connections: CONNECTIONS,
    pages: PAGES,
    budget: { ratio: BUDGET_RATIO },
    rounds,
    offRps: Math.round(offMean),
    onRps: Math.round(onMean),
    ratio: Number(ratio.toFixed(3)),
    offRoundSpread: noise === null ? null : Number(noise.toFixed(3)),
    cpuUsPerRequest: {
      off: cpuOff === null ? null : Math.round(cpuOff),
      on: cpuOn === null ? null : Math.round(cpuOn),
    },
    counted: { on: onCounts, off: offCounts, onRequests },
  });
  console.log(`\nFigures written to ${path.relative(root, resultsFile)}`);
  const counting = onCounts.views >= onRequests && offCounts.views === 0;
  if (!counting) console.log('The counts do not match the requests ✗');
  if (ratio < BUDGET_RATIO || nonOk > 0 || !counting) process.exitCode = 1;
} finally {
  await cleanupAll();
}
