// Commerce bench (`npm run bench:commerce`): latency of the two calls a buyer waits on, printed as
// p50 / p99 next to a bare Node HTTP handler measured the same way on the same machine.
//  1. POST /api/cart on the real server (`node api/server.ts`, built as production): each request
//     is a first add (no cookie), so it creates a cart and its line — the full path.
//  2. Checkout-session creation against the payment emulator: the code behind POST /api/checkout
//     (api/checkout: prices re-read, hold, pending order, Stripe SDK → emulator session) served by
//     a minimal HTTP wrapper in this process, over its own embedded database whose print stock is
//     raised so every request can hold one print (the real server's seeded stock is 1–3).
//  3. GET /api/availability (answered from memory by the HTTP layer, issue 14 §2) beside the
//     static /gallery page, on the same server and run.
// Figures go to bench/results/commerce-latest.json.
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { addToCart, newCartId } from '#api/cart/index.ts';
import { createCheckout, type CheckoutRequest } from '#api/checkout/index.ts';
import { seedDemo } from '#api/catalog/seed.ts';
import { openDatabase } from '#api/db/index.ts';
import { migrateToLatest } from '#api/db/migrate.ts';
import { createStripeEmulator } from '#api/emulator/index.ts';
import { diskStorage } from '#api/media/storage.ts';
import { createEmulatedPayments } from '#api/payments/index.ts';
import { startGalerie } from './lib/processes.ts';
import { cleanupAll, freePort, onCleanup, printTable } from './lib/util.ts';

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
async function bareNode(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as unknown) : null;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ ok: true, echo: body }));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
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
    addToCart(handle.db, cartId, print.id, 1)
      .then(() => createCheckout({ db: handle.db, payments }, body, { cartId, ip, siteUrl }))
      .then((result) =>
        res
          .writeHead(201, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ url: result.url })),
      )
      .catch((error: unknown) => {
        console.error(error);
        res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `${siteUrl}/checkout` };
}

const log = (line: string) => console.log(`  ${line}`);
const results: Figures[] = [];
try {
  console.log(
    `Commerce bench${quick ? ' (--quick)' : ''}: ${CONNECTIONS} connections, ${DURATION_S} s per figure`,
  );
  const bare = await bareNode();
  results.push(
    await measure('bare Node handler (POST, JSON)', {
      url: bare.url,
      method: 'POST',
      body: JSON.stringify({ artworkId: 1, quantity: 1 }),
      headers: { 'Content-Type': 'application/json' },
    }),
  );
  await bare.close();

  const galerie = await startGalerie(root, log);
  const { works } = (await (await fetch(`${galerie.url}/api/availability`)).json()) as {
    works: Array<{ id: number; available: boolean; isSold: boolean; stock: number }>;
  };
  const print = works.find((w) => w.available && !w.isSold && w.stock > 0 && w.stock < 100);
  if (!print) throw new Error('no print in stock in the seeded catalogue');
  results.push(
    await measure('POST /api/cart (first add: new cart)', {
      url: `${galerie.url}/api/cart`,
      method: 'POST',
      body: JSON.stringify({ artworkId: print.id, quantity: 1 }),
      headers: { 'Content-Type': 'application/json', Origin: galerie.url },
    }),
  );
  results.push(
    await measure('GET /api/cart/count (no cart)', {
      url: `${galerie.url}/api/cart/count`,
      method: 'GET',
    }),
  );
  // Issue 14 §2: availability is the same answer for everyone, kept in memory (target ≥ 10 000
  // req/s), beside a static page served the same way.
  results.push(
    await measure('GET /api/availability (from memory)', {
      url: `${galerie.url}/api/availability`,
      method: 'GET',
      headers: { 'Accept-Encoding': 'br' },
    }),
  );
  results.push(
    await measure('GET /gallery (static page)', {
      url: `${galerie.url}/gallery`,
      method: 'GET',
      headers: { 'Accept-Encoding': 'br' },
    }),
  );
  await galerie.stop();

  const harness = await checkoutHarness(log);
  results.push(
    await measure('checkout session (hold + order + emulator session)', {
      url: harness.url,
      method: 'POST',
      body: '{}',
    }),
  );

  printTable(
    'Latency (autocannon, loopback, one process per server)',
    ['call', 'requests', 'req/s', 'p50', 'p90', 'p99', 'errors', 'non-2xx'],
    results.map((r) => [
      r.name,
      String(r.requests),
      String(r.rps),
      `${r.p50} ms`,
      `${r.p90} ms`,
      `${r.p99} ms`,
      String(r.errors),
      String(r.non2xx),
    ]),
    'lrrrrrrr',
  );
  await fs.mkdir(path.dirname(resultsFile), { recursive: true });
  await fs.writeFile(
    resultsFile,
    `${JSON.stringify(
      {
        measuredAt: new Date().toISOString(),
        mode: quick ? 'quick' : 'full',
        machine: {
          cpus: os.cpus().length,
          cpuModel: os.cpus()[0]?.model ?? '',
          node: process.version,
        },
        connections: CONNECTIONS,
        durationSeconds: DURATION_S,
        results,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`figures written to ${path.relative(root, resultsFile)}`);
  const failed = results.some((r) => r.errors > 0 || r.non2xx > 0);
  if (failed) console.log('some requests failed: see the errors / non-2xx columns');
  await cleanupAll();
  process.exit(failed ? 1 : 0);
} catch (error) {
  console.error('Commerce bench failed:', error);
  await cleanupAll();
  process.exit(1);
}
