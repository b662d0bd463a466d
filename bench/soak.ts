// Soak bench (`npm run bench:soak`), issue 14 §3: ten minutes of mixed traffic at a fixed arrival
// rate against the real production server — browse, add to cart, checkout through the payment
// emulator and pay — with 0 errors, memory flat and p99 stable as the targets.
//  - The server is `node api/server.ts` (production build) on a fresh embedded PGlite database,
//    or on PostgreSQL with `--postgres` (BENCH_DATABASE_URL, else the local
//    postgres://postgres@127.0.0.1:5432/test, where it creates and drops galerie_bench_soak).
//    BACKUPS=off, SMTP_URL empty, no STRIPE_SECRET_KEY (the built-in emulator takes payments),
//    TRUST_PROXY=127.0.0.1 with an X-Forwarded-For address of its own per simulated visitor, as
//    a deployment behind nginx sees its clients (so the per-address checkout limits apply per
//    buyer, not to the bench as a whole).
//  - Before the server starts (PGlite: one process at a time), the database is migrated and
//    seeded as the server would, and every print's stock raised to 1 000 000 so ten minutes of
//    purchases never run out; a few originals (each sells once) are sold along the way.
//  - Open loop: journeys start at a fixed rate whatever the latency (a slow server gets more
//    journeys in flight, not fewer), drawn from a seeded mix: 70 % browse, 20 % cart, 10 %
//    purchase. Every answer whose status is not the expected one is an error.
//  - Memory: the server is started with `--expose-gc --import bench/lib/memory-probe.ts`, a probe
//    the bench preloads (nothing added to the server): its memoryUsage() every 10 s, and after a
//    full GC at the end of the warm-up window and at the end.
// Figures go to bench/results/soak-latest.json; exit 1 when a target is missed.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { prepareDatabase } from '#api/catalog/seed.ts';
import { openDatabase } from '#api/db/index.ts';
import { databaseUrlFor, quoteIdent } from '../tests/helpers/pg-admin.ts';
import { startGalerie } from './lib/processes.ts';
import {
  cleanupAll,
  errorMessage,
  freePort,
  onCleanup,
  printTable,
  sleep,
  writeResults,
} from './lib/util.ts';

const root = path.resolve(import.meta.dirname, '..');
const resultsFile = path.join(import.meta.dirname, 'results', 'soak-latest.json');
const probeModule = path.join(import.meta.dirname, 'lib', 'memory-probe.ts');

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
function numberOption(name: string, env: string, fallback: number): number {
  const raw = option(name) ?? process.env[env];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`--${name} (${env}) must be a positive number, not ${raw}`);
  return value;
}

function mixOption(raw: string | undefined): { browse: number; cart: number; purchase: number } {
  if (!raw) return { browse: 0.7, cart: 0.2, purchase: 0.1 };
  const parts = raw.split(',').map(Number);
  const sum = parts.reduce((a, b) => a + b, 0);
  if (parts.length !== 3 || parts.some((p) => !(p >= 0)) || !(sum > 0))
    throw new Error(
      `--mix wants three percentages, browse,cart,purchase (e.g. 70,20,10), not ${raw}`,
    );
  const [browse = 0, cart = 0, purchase = 0] = parts.map((p) => p / sum);
  return { browse, cart, purchase };
}

const DURATION_S = numberOption('duration', 'SOAK_SECONDS', 600);
/** Journeys started per second. */
const RATE = numberOption('rate', 'SOAK_RATE', 5);
const WINDOW_S = numberOption('window', 'SOAK_WINDOW_SECONDS', 60);
const SAMPLE_S = 10;
const usePostgres = process.argv.includes('--postgres') || !!process.env['BENCH_DATABASE_URL'];
/** The journey mix; `--mix 70,30,0` (percentages) changes it, e.g. to soak without sales. */
const MIX = mixOption(option('mix') ?? process.env['SOAK_MIX']);
/** One purchase in this many buys an original (while unsold ones remain). */
const ORIGINAL_EVERY = 25;
/** A journey in flight beyond this many is not started (counted as an error): a stalled server. */
const MAX_IN_FLIGHT = 1000;
const REQUEST_TIMEOUT_MS = 30_000;
/** How long a paid order may take to show `confirmed` (the emulator's webhook). */
const CONFIRM_TIMEOUT_MS = 30_000;
const PRINT_STOCK = 1_000_000;

/**
 * Issue 14 §3's targets, as numbers. Memory is compared after a full GC at the end of the
 * warm-up window and at the end of the run (see bench/README.md for why these thresholds).
 */
const TARGETS = {
  errors: 0,
  heapGrowthMb: 10,
  /** Heap after full GC added over the second half: a leak goes on, a step does not. */
  heapSecondHalfMb: 5,
  /** RSS added over the second half of the run (see the README: RSS steps up early, a leak goes on). */
  rssSecondHalfMb: 10,
  p99Ratio: 1.5,
  /** p99s of a few milliseconds move by a few milliseconds: the ratio is read above this slack. */
  p99SlackMs: 5,
};

// ── Measurements ─────────────────────────────────────────────────────────────────────────────

type Kind = keyof typeof MIX;

interface Sample {
  /** ms since the load started. */
  at: number;
  step: string;
  ms: number;
}

interface SoakError {
  at: number;
  journey: Kind;
  step: string;
  detail: string;
}

const samples: Sample[] = [];
const errors: SoakError[] = [];
let requests = 0;
let t0 = 0;
const since = () => performance.now() - t0;

class StepError extends Error {
  override name = 'StepError';
  readonly step: string;
  constructor(step: string, detail: string) {
    super(detail);
    this.step = step;
  }
}

/** A deterministic generator (mulberry32), so two runs draw the same journeys. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const fmtMb = (bytes: number | null | undefined) =>
  bytes === null || bytes === undefined ? '—' : `${mb(bytes).toFixed(1)} MB`;
const fmtMs = (value: number | null) =>
  value === null ? '—' : value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;

// ── A simulated visitor ──────────────────────────────────────────────────────────────────────

const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
let visitors = 0;

/** Distinct visitor addresses in 10.0.0.0/8, as a proxy in front of the shop would forward them. */
function nextAddress(): string {
  visitors += 1;
  return `10.${(visitors >> 16) & 255}.${(visitors >> 8) & 255}.${visitors & 255}`;
}

class Visitor {
  readonly address = nextAddress();
  readonly cookies = new Map<string, string>();
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  /** One request, timed and recorded under `step`; throws a StepError on an unexpected status. */
  async request(
    step: string,
    pathOrUrl: string,
    init: { method?: string; json?: unknown; form?: string; expect: number[] },
  ): Promise<{ status: number; headers: Headers; text: string }> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.base}${pathOrUrl}`;
    const headers: Record<string, string> = {
      'User-Agent': BROWSER_UA,
      'Accept-Encoding': 'br, gzip',
      'X-Forwarded-For': this.address,
    };
    if (this.cookies.size)
      headers['Cookie'] = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = init.form;
    }
    const method = init.method ?? 'GET';
    if (method !== 'GET') headers['Origin'] = this.base;
    const started = performance.now();
    const at = started - t0;
    requests += 1;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: body ?? null,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await res.text();
    } catch (error) {
      throw new StepError(step, `${method} ${url}: ${errorMessage(error)}`);
    }
    samples.push({ at, step, ms: performance.now() - started });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    if (!init.expect.includes(res.status))
      throw new StepError(
        step,
        `${method} ${new URL(url).pathname}: ${res.status} (expected ${init.expect.join('/')}) ${text.slice(0, 200).replace(/\s+/g, ' ')}`,
      );
    return { status: res.status, headers: res.headers, text };
  }
}

// ── The catalogue the journeys use ───────────────────────────────────────────────────────────

interface Work {
  id: number;
  slug: string;
  type: 'original' | 'print';
  key: string;
}

interface Catalogue {
  prints: Work[];
  /** Originals not sold yet, sold one by one by purchases. */
  originals: Work[];
  pages: string[];
}

/** The gallery overlay's key of a work (src/lib/groups.ts): its original's slug without `-original`. */
const overlayKey = (slug: string) => slug.replace(/-(original|print)$/, '');

/**
 * Migrates and seeds the database as the server would at its first start, raises every print's
 * stock, and reads the works the journeys use. PGlite: before the server opens it.
 */
async function prepare(dataDir: string, databaseUrl: string | null): Promise<Catalogue> {
  const handle = await openDatabase(
    databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pgdata') },
  );
  try {
    await prepareDatabase(handle.db, { dataDir });
    await handle.db
      .updateTable('artworks')
      .set({ stock: PRINT_STOCK })
      .where('artwork_type', '=', 'print')
      .execute();
    const rows = await handle.db
      .selectFrom('artworks as a')
      .leftJoin('artworks as o', 'o.id', 'a.original_id')
      .select([
        'a.id',
        'a.slug',
        'a.artwork_type',
        'a.is_available',
        'a.is_sold',
        'o.slug as original_slug',
      ])
      .orderBy('a.id')
      .execute();
    const works = rows
      .filter((r) => r.is_available && !r.is_sold)
      .map((r) => ({
        id: r.id,
        slug: r.slug,
        type: r.artwork_type as Work['type'],
        key: overlayKey(r.original_slug ?? r.slug),
      }));
    const keys = [...new Set(works.map((w) => w.key))].slice(0, 6);
    const pages = [
      '/',
      '/gallery',
      '/about',
      '/contact',
      '/en/',
      '/en/gallery',
      '/en/about',
      ...keys.flatMap((k) => [`/oeuvres/${k}`, `/en/works/${k}`]),
    ];
    return {
      prints: works.filter((w) => w.type === 'print'),
      originals: works.filter((w) => w.type === 'original'),
      pages,
    };
  } finally {
    await handle.close();
  }
}

/** A fresh database on the bench's PostgreSQL, dropped at the end (as bench/commerce.ts). */
async function postgresDatabase(): Promise<string> {
  const url = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = 'galerie_bench_soak';
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end().catch(() => {});
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${quoteIdent(name)}`);
  onCleanup(() => admin(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
  return databaseUrlFor(url, name);
}

// ── Journeys ─────────────────────────────────────────────────────────────────────────────────

const PAYING_FORM = new URLSearchParams({
  card_number: '4242 4242 4242 4242',
  expiry: '12 / 34',
  cvc: '123',
  name: 'Soak Buyer',
}).toString();

const counts = { browse: 0, cart: 0, purchase: 0, originalsSold: 0, paid: 0 };

function makeJourneys(catalogue: Catalogue, draw: () => number) {
  const pick = <T>(list: T[]): T => list[Math.floor(draw() * list.length)]!;
  let purchases = 0;

  async function browse(v: Visitor): Promise<void> {
    const page = pick(catalogue.pages);
    await v.request(/\/(oeuvres|works)\//.test(page) ? 'page: work' : 'page', page, {
      expect: [200],
    });
    // What the pages' scripts fetch after `load`.
    await v.request('GET /api/availability', '/api/availability', { expect: [200] });
    await v.request('GET /api/cart/count', '/api/cart/count', { expect: [200] });
  }

  async function addToCart(v: Visitor, work: Work): Promise<number> {
    const { text } = await v.request('POST /api/cart', '/api/cart', {
      method: 'POST',
      json: { artworkId: work.id, quantity: 1 },
      expect: [200],
    });
    const { cart } = JSON.parse(text) as { cart: { lines: { id: number; artworkId: number }[] } };
    const line = cart.lines.find((l) => l.artworkId === work.id);
    if (!line) throw new StepError('POST /api/cart', `work ${work.id} is not in the cart answered`);
    return line.id;
  }

  async function cart(v: Visitor): Promise<void> {
    const work = pick(catalogue.prints);
    await v.request('page', draw() < 0.5 ? `/oeuvres/${work.key}` : '/gallery', {
      expect: [200],
    });
    const lineId = await addToCart(v, work);
    await v.request('cart page (SSR)', draw() < 0.5 ? '/panier' : '/en/cart', { expect: [200] });
    if (draw() < 0.3) {
      await v.request('DELETE /api/cart/lines/:id', `/api/cart/lines/${lineId}`, {
        method: 'DELETE',
        expect: [200],
      });
    } else {
      await v.request('GET /api/cart/count', '/api/cart/count', { expect: [200] });
    }
  }

  async function purchase(v: Visitor): Promise<void> {
    purchases += 1;
    const original =
      purchases % ORIGINAL_EVERY === Math.floor(ORIGINAL_EVERY / 2)
        ? catalogue.originals.shift()
        : undefined;
    const work = original ?? pick(catalogue.prints);
    const en = draw() < 0.3;
    await addToCart(v, work);
    await v.request('checkout page (SSR)', en ? '/en/checkout' : '/commande', { expect: [200] });
    const { text } = await v.request('POST /api/checkout', '/api/checkout', {
      method: 'POST',
      json: {
        locale: en ? 'en' : 'fr',
        items: [{ artworkId: work.id, quantity: 1 }],
        customer: {
          name: 'Soak Buyer',
          email: `soak-${v.address.replaceAll('.', '-')}@example.test`,
        },
        shippingAddress: {
          street: '1 rue de la Paix',
          city: 'Paris',
          postalCode: '75002',
          country: 'FR',
        },
        billingSameAsShipping: true,
        acceptTerms: true,
        ...(draw() < 0.5 && { promoCode: 'SASHA25' }),
      },
      expect: [201],
    });
    const { url, sessionId } = JSON.parse(text) as { url: string; sessionId: string };
    await v.request('payment page (emulator)', url, { expect: [200] });
    const paid = await v.request('pay (emulator)', url, {
      method: 'POST',
      form: PAYING_FORM,
      expect: [303],
    });
    const paidAt = performance.now();
    const success = paid.headers.get('location') ?? '';
    if (!success.includes(`session_id=${sessionId}`))
      throw new StepError('pay (emulator)', `redirected to ${success}, not the success page`);
    await v.request('success page (SSR)', success, { expect: [200] });
    // As the success page does: ask until the webhook has fulfilled the order.
    for (;;) {
      const status = await v.request(
        'GET /api/orders/status',
        `/api/orders/status?session_id=${encodeURIComponent(sessionId)}`,
        { expect: [200] },
      );
      const { state } = JSON.parse(status.text) as { state: string };
      if (state === 'confirmed') break;
      if (state !== 'verifying')
        throw new StepError('GET /api/orders/status', `order ${sessionId} is ${state}`);
      if (performance.now() - paidAt > CONFIRM_TIMEOUT_MS)
        throw new StepError(
          'paid → confirmed',
          `not confirmed ${CONFIRM_TIMEOUT_MS / 1000} s after paying`,
        );
      await sleep(200);
    }
    samples.push({
      at: paidAt - t0,
      step: 'paid → confirmed (webhook)',
      ms: performance.now() - paidAt,
    });
    counts.paid += 1;
    if (original) counts.originalsSold += 1;
  }

  return { browse, cart, purchase };
}

// ── Memory of the server ─────────────────────────────────────────────────────────────────────

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  gcMs: number | null;
}

interface MemorySample extends Memory {
  /** Seconds since the load started. */
  at: number;
  /** VmRSS from /proc, the kernel's figure for the same process. */
  vmRss: number | null;
  /** How long the probe took to answer: the server's event loop included. */
  probeMs: number;
  /** CPU seconds the server process (not its builds) used so far. */
  cpuS: number | null;
}

async function procStatus(pid: number): Promise<{ vmRss: number | null; cpuS: number | null }> {
  let vmRss: number | null = null;
  let cpuS: number | null = null;
  try {
    const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    if (kb) vmRss = Number(kb) * 1024;
    const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ');
    if (fields) cpuS = (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    // not Linux
  }
  return { vmRss, cpuS };
}

/**
 * Waits until a freshly started server is idle: after start it encodes the catalogue's image
 * variants in the background (at most 3 minutes), as bench/commerce.ts does.
 */
async function untilIdle(pid: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  let last = (await procStatus(pid)).cpuS;
  while (last !== null && Date.now() < deadline) {
    await sleep(2000);
    const now = (await procStatus(pid)).cpuS;
    if (now === null || now - last < 0.1) return;
    last = now;
  }
}

async function readMemory(probe: string, pid: number, gc = false): Promise<MemorySample> {
  const started = performance.now();
  const res = await fetch(`${probe}/memory${gc ? '?gc=1' : ''}`, {
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const memory = (await res.json()) as Memory;
  const probeMs = Math.round((performance.now() - started) * 10) / 10;
  const gcMs = memory.gcMs === null ? null : Math.round(memory.gcMs * 10) / 10;
  return { at: Math.round(since() / 1000), ...memory, gcMs, ...(await procStatus(pid)), probeMs };
}

// ── The server's own log ─────────────────────────────────────────────────────────────────────

const serverLog = {
  errors: [] as string[],
  errorCount: 0,
  warnings: [] as string[],
  warningCount: 0,
  publishes: [] as { at: number; line: string }[],
  publishFailures: 0,
};

function onServerLine(line: string): void {
  let record: { level?: number; msg?: string; err?: { message?: string } };
  try {
    record = JSON.parse(line) as typeof record;
  } catch {
    return;
  }
  const message = `${record.msg ?? ''}${record.err?.message ? `: ${record.err.message}` : ''}`;
  const at = t0 > 0 ? Math.round(since() / 1000) : 0;
  if ((record.level ?? 0) >= 50) {
    serverLog.errorCount += 1;
    if (serverLog.errors.length < 10) serverLog.errors.push(`${at} s: ${message}`);
  } else if ((record.level ?? 0) >= 40) {
    serverLog.warningCount += 1;
    if (serverLog.warnings.length < 10) serverLog.warnings.push(`${at} s: ${message}`);
  }
  if (t0 > 0 && /published version/.test(message)) serverLog.publishes.push({ at, line: message });
  if (t0 > 0 && /publish failed/.test(message)) serverLog.publishFailures += 1;
}

// ── The run ──────────────────────────────────────────────────────────────────────────────────

const log = (line: string) => console.log(`  ${line}`);
const notes: string[] = [];

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping the processes the bench started…`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

try {
  const load = os.loadavg()[0] ?? 0;
  const database = usePostgres ? 'postgres' : 'pglite';
  console.log(
    `Soak bench: ${DURATION_S} s at ${RATE} journeys/s (${Math.round(MIX.browse * 100)} % browse, ${Math.round(MIX.cart * 100)} % cart, ${Math.round(MIX.purchase * 100)} % purchase), ${WINDOW_S}-s windows, ${database}; load average ${load.toFixed(2)}`,
  );
  if (load > os.availableParallelism() / 2)
    notes.push(`load average ${load.toFixed(2)} at start: other work was running`);
  if (DURATION_S < 2 * WINDOW_S)
    throw new Error(`--duration must cover at least two ${WINDOW_S}-s windows (warm-up + one)`);

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-bench-soak-'));
  onCleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const databaseUrl = usePostgres ? await postgresDatabase() : null;
  const catalogue = await prepare(dataDir, databaseUrl);
  log(
    `database ready: ${catalogue.prints.length} prints (stock ${PRINT_STOCK} each), ${catalogue.originals.length} originals on sale`,
  );
  if (catalogue.prints.length === 0) throw new Error('no print on sale in the seeded catalogue');

  const probePort = await freePort();
  const galerie = await startGalerie(root, log, {
    dataDir,
    nodeArgs: ['--expose-gc', '--import', probeModule],
    onLine: onServerLine,
    env: {
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
      STRIPE_SECRET_KEY: undefined,
      STRIPE_WEBHOOK_SECRET: undefined,
      BACKUPS: 'off',
      TRUST_PROXY: '127.0.0.1',
      LOG_FORMAT: 'json',
      GALERIE_BENCH_PROBE_PORT: String(probePort),
    },
  });
  log(
    `server ready at ${galerie.url} (pid ${galerie.pid}) after ${(galerie.startupMs / 1000).toFixed(1)} s`,
  );
  const probe = `http://127.0.0.1:${probePort}`;

  // Every work the journeys buy must be addable: a first add from a throwaway visitor each.
  const check = async (w: Work) => {
    const v = new Visitor(galerie.url);
    try {
      await v.request('check', '/api/cart', {
        method: 'POST',
        json: { artworkId: w.id, quantity: 1 },
        expect: [200],
      });
      return true;
    } catch (error) {
      notes.push(`work ${w.id} (${w.slug}) left out: ${errorMessage(error)}`);
      return false;
    }
  };
  const addable = async (list: Work[]) => {
    const ok = await Promise.all(list.map(check));
    return list.filter((_, i) => ok[i]);
  };
  await untilIdle(galerie.pid);
  catalogue.prints = await addable(catalogue.prints);
  catalogue.originals = await addable(catalogue.originals);
  samples.length = 0;
  requests = 0;

  const draw = random(143);
  const journeys = makeJourneys(catalogue, draw);
  const memory: MemorySample[] = [];
  let baseline: MemorySample | null = null;
  let inFlight = 0;
  let dropped = 0;
  let maxLagMs = 0;
  const running = new Set<Promise<void>>();

  const launch = (scheduledAt: number) => {
    const r = draw();
    const kind: Kind = r < MIX.browse ? 'browse' : r < MIX.browse + MIX.cart ? 'cart' : 'purchase';
    counts[kind] += 1;
    if (inFlight >= MAX_IN_FLIGHT) {
      dropped += 1;
      errors.push({
        at: since(),
        journey: kind,
        step: 'start',
        detail: 'too many journeys in flight',
      });
      return;
    }
    maxLagMs = Math.max(maxLagMs, since() - scheduledAt);
    inFlight += 1;
    const visitor = new Visitor(galerie.url);
    const done = journeys[kind](visitor)
      .catch((error: unknown) => {
        errors.push({
          at: since(),
          journey: kind,
          step: error instanceof StepError ? error.step : '?',
          detail: errorMessage(error),
        });
      })
      .finally(() => {
        inFlight -= 1;
        running.delete(done);
      });
    running.add(done);
  };

  log(`load: ${RATE} journeys/s for ${DURATION_S} s…`);
  t0 = performance.now();
  const initial = await readMemory(probe, galerie.pid);
  // Memory every SAMPLE_S seconds, and after a full GC at the end of the warm-up window and in
  // the middle of the run (a step early in the run and a slope over its second half differ).
  const midway = Math.round(DURATION_S / 2 / SAMPLE_S) * SAMPLE_S;
  const sampler = (async () => {
    const times = new Set<number>([WINDOW_S]);
    for (let t = SAMPLE_S; t < DURATION_S; t += SAMPLE_S) times.add(t);
    for (const t of [...times].sort((a, b) => a - b)) {
      await sleep(Math.max(0, t * 1000 - since()));
      const sample = await readMemory(probe, galerie.pid, t === WINDOW_S || t === midway);
      if (t === WINDOW_S) baseline = sample;
      memory.push(sample);
    }
  })();
  memory.push({ ...initial, at: 0 });
  const startCpu = initial.cpuS;
  let issued = 0;
  let nextReport = WINDOW_S;
  while (since() < DURATION_S * 1000) {
    const due = Math.floor((since() / 1000) * RATE);
    while (issued < due) {
      launch((issued / RATE) * 1000);
      issued += 1;
    }
    if (since() >= nextReport * 1000) {
      const errorsNow = errors.length;
      log(
        `${nextReport} s: ${requests} requests, ${counts.paid} paid, ${errorsNow} errors, ${inFlight} in flight, ${serverLog.publishes.length} publishes`,
      );
      nextReport += WINDOW_S;
    }
    await sleep(Math.max(1, Math.min(50, ((issued + 1) / RATE) * 1000 - since())));
  }
  const loadEnded = since();
  log(`load over: waiting for ${running.size} journeys in flight…`);
  await Promise.race([Promise.allSettled([...running]), sleep(60_000)]);
  if (running.size) notes.push(`${running.size} journeys still running 60 s after the load ended`);
  await sampler;
  // The end: after the last journeys, a full GC, as at the end of the warm-up.
  const end = await readMemory(probe, galerie.pid, true);
  memory.push(end);
  await galerie.stop();

  // ── Windows ──
  const windows = Math.ceil(DURATION_S / WINDOW_S);
  const steps = [...new Set(samples.map((s) => s.step))];
  const windowRows = Array.from({ length: windows }, (_, i) => {
    const from = i * WINDOW_S;
    const to = Math.min(DURATION_S, (i + 1) * WINDOW_S);
    const inWindow = samples.filter((s) => s.at >= from * 1000 && s.at < to * 1000);
    const all = inWindow.filter((s) => !s.step.startsWith('paid →')).map((s) => s.ms);
    all.sort((a, b) => a - b);
    const bySteps = Object.fromEntries(
      steps.map((step) => {
        const ms = inWindow.filter((s) => s.step === step).map((s) => s.ms);
        ms.sort((a, b) => a - b);
        return [step, { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99) }];
      }),
    );
    const mem = memory.filter((m) => m.at > from && m.at <= to);
    const cpuStart = memory.filter((m) => m.at <= from).at(-1)?.cpuS ?? startCpu;
    const cpuEnd = mem.at(-1)?.cpuS ?? null;
    return {
      window: i + 1,
      from,
      to,
      warmUp: i === 0,
      requests: all.length,
      errors: errors.filter((e) => e.at >= from * 1000 && e.at < to * 1000).length,
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      max: all.at(-1) ?? null,
      steps: bySteps,
      rss: mem.at(-1)?.rss ?? null,
      heapUsedMin: mem.length ? Math.min(...mem.map((m) => m.heapUsed)) : null,
      serverCpuS:
        cpuStart !== null && cpuEnd !== null ? Number((cpuEnd - cpuStart).toFixed(1)) : null,
      publishes: serverLog.publishes.filter((p) => p.at >= from && p.at < to).length,
    };
  });

  printTable(
    `Windows of ${WINDOW_S} s (window 1 is the warm-up; latency of every request, client side)`,
    [
      'window',
      'requests',
      'errors',
      'p50',
      'p99',
      'max',
      'server CPU',
      'publishes',
      'RSS',
      'heap (min)',
    ],
    windowRows.map((w) => [
      `${w.window}${w.warmUp ? ' (warm-up)' : ''}`,
      String(w.requests),
      String(w.errors),
      fmtMs(w.p50),
      fmtMs(w.p99),
      fmtMs(w.max),
      w.serverCpuS === null ? '—' : `${w.serverCpuS} s`,
      String(w.publishes),
      fmtMb(w.rss),
      fmtMb(w.heapUsedMin),
    ]),
    'lrrrrrrrrr',
  );
  printTable(
    'p50 / p99 per step and window',
    ['step', ...windowRows.map((w) => String(w.window))],
    steps.map((step) => [
      step,
      ...windowRows.map((w) => {
        const s = w.steps[step];
        return s && s.n ? `${fmtMs(s.p50)} / ${fmtMs(s.p99)}` : '—';
      }),
    ]),
    `l${'r'.repeat(windowRows.length)}`,
  );

  // ── Targets ──
  const start = baseline as MemorySample | null;
  const heapGrowth = start ? end.heapUsed - start.heapUsed : null;
  const rssGrowth = start ? end.rss - start.rss : null;
  // The periodic sample nearest the middle of the run.
  const middle = memory
    .filter((m) => m !== end)
    .reduce<MemorySample | null>(
      (best, m) =>
        !best || Math.abs(m.at - DURATION_S / 2) < Math.abs(best.at - DURATION_S / 2) ? m : best,
      null,
    );
  const rssSecondHalf = middle ? end.rss - middle.rss : null;
  const heapSecondHalf = middle ? end.heapUsed - middle.heapUsed : null;
  const second = windowRows[1];
  const last = windowRows.at(-1);
  const p99Limit =
    second?.p99 != null
      ? Math.max(second.p99 * TARGETS.p99Ratio, second.p99 + TARGETS.p99SlackMs)
      : null;
  const totalErrors = errors.length + serverLog.errorCount;
  const checks: {
    figure: string;
    measured: string;
    target: string;
    ok: boolean;
    reported?: boolean;
  }[] = [
    {
      figure: 'errors (requests + server log errors)',
      measured: `${errors.length} + ${serverLog.errorCount}`,
      target: '0',
      ok: totalErrors === TARGETS.errors,
    },
    {
      figure: 'heap after full GC: end − end of warm-up',
      measured: heapGrowth === null ? '—' : `${mb(heapGrowth).toFixed(1)} MB`,
      target: `< ${TARGETS.heapGrowthMb} MB`,
      ok: heapGrowth !== null && mb(heapGrowth) < TARGETS.heapGrowthMb,
    },
    {
      figure: `heap after full GC: end − middle of the run (${middle?.at ?? '—'} s)`,
      measured: heapSecondHalf === null ? '—' : `${mb(heapSecondHalf).toFixed(1)} MB`,
      target: `< ${TARGETS.heapSecondHalfMb} MB`,
      ok: heapSecondHalf !== null && mb(heapSecondHalf) < TARGETS.heapSecondHalfMb,
    },
    {
      figure: 'RSS after full GC: end − end of warm-up',
      measured: rssGrowth === null ? '—' : `${mb(rssGrowth).toFixed(1)} MB`,
      target: 'reported',
      ok: true,
      reported: true,
    },
    {
      figure: `RSS: end − middle of the run (${middle?.at ?? '—'} s)`,
      measured: rssSecondHalf === null ? '—' : `${mb(rssSecondHalf).toFixed(1)} MB`,
      target: `< ${TARGETS.rssSecondHalfMb} MB`,
      ok: rssSecondHalf !== null && mb(rssSecondHalf) < TARGETS.rssSecondHalfMb,
    },
    {
      figure: `p99, last window ÷ window 2`,
      measured:
        last?.p99 != null && second?.p99 != null
          ? `${fmtMs(last.p99)} ÷ ${fmtMs(second.p99)} = ${(last.p99 / second.p99).toFixed(2)}×`
          : '—',
      target: `≤ ${TARGETS.p99Ratio}× (or + ${TARGETS.p99SlackMs} ms)`,
      ok: last?.p99 != null && p99Limit !== null && last.p99 <= p99Limit,
    },
  ];
  printTable(
    'Memory (server process, from its own memoryUsage() and /proc)',
    ['when', 'RSS', 'heap used', 'heap total', 'external'],
    [
      ['start of the load', initial, false],
      ['end of warm-up (after full GC)', start, true],
      [`middle of the run (${middle?.at ?? '—'} s, after full GC)`, middle, true],
      ['end (after full GC)', end, true],
    ].map(([label, m]) => {
      const s = m as MemorySample | null;
      return [
        label as string,
        fmtMb(s?.rss),
        fmtMb(s?.heapUsed),
        fmtMb(s?.heapTotal),
        fmtMb(s?.external),
      ];
    }),
    'lrrrr',
  );
  printTable(
    'Issue 14 §3 targets',
    ['figure', 'measured', 'target', ''],
    checks.map((c) => [c.figure, c.measured, c.target, c.reported ? '' : c.ok ? '✓' : '✗']),
    'lrrl',
  );
  const missed = checks.filter((c) => !c.ok);
  console.log(
    `\n${missed.length === 0 ? 'PASS' : 'FAIL'}: ${requests} requests in ${(loadEnded / 1000).toFixed(0)} s (${counts.browse} browse, ${counts.cart} cart, ${counts.purchase} purchase journeys; ${counts.paid} paid, ${counts.originalsSold} originals), ${totalErrors} errors, heap ${heapGrowth === null ? '—' : `${mb(heapGrowth) >= 0 ? '+' : ''}${mb(heapGrowth).toFixed(1)} MB`}, RSS ${rssGrowth === null ? '—' : `${mb(rssGrowth) >= 0 ? '+' : ''}${mb(rssGrowth).toFixed(1)} MB`}, p99 ${fmtMs(second?.p99 ?? null)} → ${fmtMs(last?.p99 ?? null)}${missed.length ? `; missed: ${missed.map((c) => c.figure).join('; ')}` : ''}`,
  );
  if (errors.length) {
    console.log(`\nFirst errors (of ${errors.length}):`);
    for (const e of errors.slice(0, 10))
      console.log(`  ${(e.at / 1000).toFixed(1)} s  ${e.journey} / ${e.step}: ${e.detail}`);
  }
  if (serverLog.errorCount) {
    console.log(`\nServer log errors (of ${serverLog.errorCount}):`);
    for (const line of serverLog.errors) console.log(`  ${line}`);
  }
  // Each publish loads a new copy of the server bundle that Node never frees (docs/decisions/012),
  // and every sale asks for one: the growth per publish after the warm-up, for the reader.
  const publishesAfterWarmUp = serverLog.publishes.filter((p) => p.at >= WINDOW_S).length;
  if (publishesAfterWarmUp > 0 && heapGrowth !== null && rssGrowth !== null)
    console.log(
      `\n${serverLog.publishes.length} publishes during the load (sales ask for one), ${publishesAfterWarmUp} after the warm-up: heap ${(mb(heapGrowth) / publishesAfterWarmUp).toFixed(1)} MB and RSS ${(mb(rssGrowth) / publishesAfterWarmUp).toFixed(1)} MB of growth per publish`,
    );
  if (dropped) notes.push(`${dropped} journeys not started: ${MAX_IN_FLIGHT} already in flight`);
  if (maxLagMs > 100)
    notes.push(`the scheduler started a journey up to ${Math.round(maxLagMs)} ms late`);
  for (const note of notes) console.log(`note: ${note}`);

  await fs.mkdir(path.dirname(resultsFile), { recursive: true });
  await writeResults(resultsFile, {
    measuredAt: new Date().toISOString(),
    command: `node bench/soak.ts${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      node: process.version,
      loadAverageAtStart: Number(load.toFixed(2)),
      loadAverageAtEnd: Number((os.loadavg()[0] ?? 0).toFixed(2)),
    },
    database,
    durationSeconds: DURATION_S,
    ratePerSecond: RATE,
    windowSeconds: WINDOW_S,
    mix: MIX,
    targets: TARGETS,
    targetsMet: missed.length === 0,
    checks,
    totals: {
      requests,
      journeys: { browse: counts.browse, cart: counts.cart, purchase: counts.purchase },
      paid: counts.paid,
      originalsSold: counts.originalsSold,
      errors: errors.length,
      serverLogErrors: serverLog.errorCount,
      serverLogWarnings: serverLog.warningCount,
      publishes: serverLog.publishes.length,
      publishesAfterWarmUp,
      publishFailures: serverLog.publishFailures,
      maxSchedulerLagMs: Math.round(maxLagMs),
    },
    memory: {
      start: initial,
      endOfWarmUp: start,
      end,
      heapGrowthBytes: heapGrowth,
      rssGrowthBytes: rssGrowth,
      middle,
      rssSecondHalfBytes: rssSecondHalf,
      heapSecondHalfBytes: heapSecondHalf,
      samples: memory,
    },
    windows: windowRows.map((w) => ({
      ...w,
      p50: w.p50 === null ? null : Number(w.p50.toFixed(1)),
      p99: w.p99 === null ? null : Number(w.p99.toFixed(1)),
      max: w.max === null ? null : Number(w.max.toFixed(1)),
      steps: Object.fromEntries(
        Object.entries(w.steps).map(([k, s]) => [
          k,
          {
            n: s.n,
            p50: s.p50 === null ? null : Number(s.p50.toFixed(1)),
            p99: s.p99 === null ? null : Number(s.p99.toFixed(1)),
          },
        ]),
      ),
    })),
    errors: errors.slice(0, 20).map((e) => ({ ...e, at: Number((e.at / 1000).toFixed(1)) })),
    serverLog: {
      errors: serverLog.errors,
      warnings: serverLog.warnings,
      publishes: serverLog.publishes,
    },
    notes,
  });
  console.log(`figures written to ${path.relative(root, resultsFile)}`);
  await cleanupAll();
  process.exit(missed.length ? 1 : 0);
} catch (error) {
  console.error('Soak bench failed:', error);
  await cleanupAll();
  process.exit(1);
}
