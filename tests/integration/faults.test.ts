// Issue 14 §3, "Faults, on purpose": the real server (`node api/server.ts`, embedded database,
// payment emulator, mails as .eml files in DATA_DIR/mail) is killed with SIGKILL at the moments a
// shop can least afford — a checkout held but not paid, a payment just taken, a payment half
// fulfilled, a publish half built — and started again on the same DATA_DIR and dist folder. Then
// the orders, holds, stock, invoices and mails (counted in the database and the mail folder once
// the server is stopped: the embedded database belongs to one process at a time) and the served
// site must show nothing lost and nothing done twice.
//
// Moments inside one request (a payment's transaction about to commit, its mails about to leave)
// are reached through the server's test fault points (api/faults.ts, GALERIE_FAULT_PAUSE): the
// process says it got there and waits, and is killed there.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVersions, readCurrent, versionDir, versionsDir } from '#api/build/versions.ts';
import { prepareDatabase } from '#api/catalog/seed.ts';
import { sweepExpiredHolds } from '#api/checkout/index.ts';
import { openDatabase, type Database } from '#api/db/index.ts';
import type { FaultPoint } from '#api/faults.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import { checkoutRequest } from '../helpers/checkout.ts';
import { testDbKind } from '../helpers/db.ts';
import { makeArtwork, makeUser } from '../helpers/factories.ts';
import { parseMail } from '../helpers/mail.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

type Falsy = false | 0 | '' | null | undefined;

/** Polls `check` until it returns something truthy; fails naming `what` after `ms`. */
async function until<T>(
  what: string,
  check: () => Promise<T | Falsy> | T | Falsy,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

/** Processes by pid: parent and state (R, S, Z…), from /proc. */
function processTable(): Map<number, { ppid: number; state: string }> {
  const table = new Map<number, { ppid: number; state: string }>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses.
      const [state = '', ppid = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { ppid: Number(ppid), state });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** Every process below `pid`, children first. */
function descendants(pid: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [child, { ppid }] of table)
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
  }
  return found;
}

/** Alive and not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  const entry = processTable().get(pid);
  return entry !== undefined && entry.state !== 'Z';
}

const commandLine = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

interface Reply {
  status: number;
  text: string;
  json: Record<string, unknown>;
  location: string | null;
}

describe.skipIf(testDbKind() !== 'pglite')('a server killed with SIGKILL and started again', () => {
  let work: string;
  let dataDir: string;
  let dist: string;
  let base: string;
  let port: number;
  let admin: string;
  let server: Server | undefined;
  /** Works of this suite: originals O1–O6, prints P1 and P2 (five of each). */
  const works: Record<string, number> = {};

  /** Starts the server on the same data, dist folder and port; resolves once it is ready. */
  async function start(fault?: FaultPoint): Promise<Server> {
    await stop(); // left running by a test that failed
    const child = spawn(process.execPath, ['api/server.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        GALERIE_DIST_DIR: dist,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_SITE_URL: base,
        STRIPE_SECRET_KEY: '',
        SMTP_URL: '',
        BACKUPS: 'off',
        VISIT_COUNTING: 'off',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        GALERIE_FAULT_PAUSE: fault ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const started: Server = { child, output: () => output, exited };
    server = started;
    await until(
      'the server to be ready',
      () => {
        if (child.exitCode !== null) throw new Error(`the server stopped:\n${output}`);
        return output.includes('Galerie: ready at');
      },
      120_000,
    );
    return started;
  }

  async function kill9(): Promise<void> {
    const s = server!;
    s.child.kill('SIGKILL');
    await s.exited;
    expect(s.child.signalCode).toBe('SIGKILL');
    server = undefined;
  }

  /** A clean stop (SIGTERM): requests in flight, reconciliation and the publish queue finish. */
  async function stop(): Promise<void> {
    const s = server;
    if (!s) return;
    server = undefined;
    if (s.child.exitCode !== null || s.child.signalCode !== null) return;
    s.child.kill('SIGTERM');
    await Promise.race([s.exited, sleep(30_000)]);
    if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await s.exited;
  }

  /** The database as the stopped server left it. */
  async function inspect<T>(read: (db: Database) => Promise<T>): Promise<T> {
    expect(server, 'the server must be stopped first').toBeUndefined();
    const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
    try {
      return await read(handle.db);
    } finally {
      await handle.close();
    }
  }

  /**
   * The database as the kill left it, before any restart: a copy of its folder, opened (and
   * recovered) aside, so the server starts again on the folder exactly as killed.
   */
  async function inspectKilled<T>(read: (db: Database) => Promise<T>): Promise<T> {
    expect(server, 'the server must be killed first').toBeUndefined();
    const copy = path.join(work, 'killed-pgdata');
    fs.cpSync(path.join(dataDir, 'pgdata'), copy, { recursive: true });
    const handle = await openDatabase({ pgliteDir: copy });
    try {
      return await read(handle.db);
    } finally {
      await handle.close();
      fs.rmSync(copy, { recursive: true, force: true });
    }
  }

  /** A visitor with its own cookies (cart, session). */
  class Visitor {
    readonly cookies = new Map<string, string>();
    readonly headers: Record<string, string>;
    constructor(headers: Record<string, string> = {}) {
      this.headers = headers;
    }
    async call(method: string, pathname: string, body?: unknown): Promise<Reply> {
      const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const response = await fetch(`${base}${pathname}`, {
        method,
        redirect: 'manual',
        headers: {
          ...(method !== 'GET' && { origin: base }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(cookie && { cookie }),
          ...this.headers,
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(';')[0]!;
        const at = pair.indexOf('=');
        this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1));
      }
      const text = await response.text();
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // an HTML page
      }
      return { status: response.status, text, json, location: response.headers.get('location') };
    }
  }

  /** Fills a new cart and checks out: the order waits for its payment, its works held. */
  async function checkout(
    email: string,
    items: { artworkId: number; quantity: number }[],
  ): Promise<{ buyer: Visitor; sessionId: string; orderNumber: string; reply: Reply }> {
    const buyer = new Visitor();
    for (const item of items) {
      const added = await buyer.call('POST', '/api/cart', item);
      expect(added.status, added.text).toBe(200);
    }
    const reply = await buyer.call(
      'POST',
      '/api/checkout',
      checkoutRequest(items, { customer: { name: 'Acheteuse Test', email } }),
    );
    return {
      buyer,
      reply,
      sessionId: String(reply.json['sessionId']),
      orderNumber: String(reply.json['orderNumber']),
    };
  }

  /** The buyer pays on the emulator's hosted page with the test card; its answer's status. */
  async function pay(sessionId: string): Promise<number> {
    const response = await fetch(`${base}/emulator/checkout/${sessionId}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        card_number: '4242 4242 4242 4242',
        expiry: '12 / 34',
        cvc: '123',
        name: 'Acheteuse Test',
      }).toString(),
    });
    await response.arrayBuffer();
    return response.status;
  }

  const orderState = async (sessionId: string) =>
    (await new Visitor().call('GET', `/api/orders/status?session_id=${sessionId}`)).json['state'];

  /** The mails written for an order: the buyer's confirmation, the gallery's notification. */
  function mailsOf(orderNumber: string, buyerEmail: string): { buyer: number; gallery: number } {
    const dir = path.join(dataDir, 'mail');
    const counts = { buyer: 0, gallery: 0 };
    if (!fs.existsSync(dir)) return counts;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
      const mail = parseMail(fs.readFileSync(path.join(dir, file), 'utf8'));
      if (!mail.text.includes(orderNumber)) continue;
      if (/^To:.*$/im.exec(mail.headers)?.[0].includes(buyerEmail)) counts.buyer += 1;
      else counts.gallery += 1;
    }
    return counts;
  }

  /** What the database says of one buyer's orders and of the works. */
  async function facts(db: Database, email: string) {
    const orders = await db
      .selectFrom('orders')
      .select(['id', 'order_number', 'payment_status', 'status', 'mails_pending_at'])
      .where('customer_email', '=', email)
      .execute();
    const ids = orders.map((o) => o.id);
    const holds = ids.length
      ? await db
          .selectFrom('holds')
          .select(['order_id', 'artwork_id', 'quantity', 'state'])
          .where('order_id', 'in', ids)
          .orderBy('artwork_id')
          .execute()
      : [];
    const invoices = ids.length
      ? await db
          .selectFrom('invoices')
          .select(['order_id', 'kind'])
          .where('order_id', 'in', ids)
          .execute()
      : [];
    const artworks = Object.fromEntries(
      (
        await db
          .selectFrom('artworks')
          .select(['id', 'stock', 'is_sold'])
          .where('id', 'in', Object.values(works))
          .execute()
      ).map((a) => [a.id, { stock: a.stock, sold: a.is_sold }]),
    );
    const activeHolds = await db
      .selectFrom('holds')
      .select(['order_id', 'artwork_id'])
      .where('state', '=', 'active')
      .execute();
    return { orders, holds, invoices, artworks, activeHolds };
  }

  beforeAll(async () => {
    // Inside the checkout: the server bundle resolves its packages from node_modules upwards.
    fs.mkdirSync(path.join(root, '.cache'), { recursive: true });
    work = fs.mkdtempSync(path.join(root, '.cache', 'faults-'));
    dataDir = path.join(work, 'data');
    dist = path.join(work, 'dist');
    // The catalogue, the owner and this suite's works, before the server holds the database.
    const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
    await prepareDatabase(handle.db, { dataDir });
    ({ cookie: admin } = await makeUser(handle.db, { role: 'admin' }));
    for (const name of ['O1', 'O2', 'O3', 'O4', 'O5', 'O6'])
      works[name] = (await makeArtwork(handle.db, { title_fr: `Faute ${name}` })).id;
    for (const name of ['P1', 'P2'])
      works[name] = (
        await makeArtwork(handle.db, { artwork_type: 'print', stock: 5, title_fr: `Faute ${name}` })
      ).id;
    await handle.close();
    // One port for the whole suite: the site URL is part of what a built version was built for.
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await start();
    expect(server!.output()).toContain('built the site (no build yet)');
  }, 180_000);

  afterAll(async () => {
    await stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  // ── 1. After a checkout session is created ──────────────────────────────────────────────────

  let unpaid: { sessionId: string; orderNumber: string };

  it('keeps the hold of a checkout not yet paid through a kill, once, without rebuilding', async () => {
    const first = await checkout('unpaid@example.test', [{ artworkId: works['O1']!, quantity: 1 }]);
    expect(first.reply.status, first.reply.text).toBe(201);
    unpaid = first;
    await kill9();

    const versionBefore = readCurrent(dist);
    await start();
    // Holding an original changes no page: the built version is served again as it is.
    expect(server!.output()).not.toContain('built the site');
    expect(readCurrent(dist)).toBe(versionBefore);
    // The work is still held, once: another buyer cannot have it, the first can still pay.
    const other = await checkout('other@example.test', [{ artworkId: works['O1']!, quantity: 1 }]);
    expect(other.reply.status, other.reply.text).toBe(409);
    expect((other.reply.json['error'] as { code: string }).code).toBe('artwork_held');
    expect(await orderState(unpaid.sessionId)).toBe('verifying');
    const page = await fetch(`${base}/emulator/checkout/${unpaid.sessionId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('4242');
  }, 120_000);

  // ── 2. A payment taken just before the kill ──────────────────────────────────────────────────

  it('fulfils once a payment whose server was killed as the payment page answered', async () => {
    const email = 'paid@example.test';
    const sale = await checkout(email, [
      { artworkId: works['O2']!, quantity: 1 },
      { artworkId: works['P1']!, quantity: 2 },
    ]);
    expect(sale.reply.status, sale.reply.text).toBe(201);
    // Killed the moment the payment page has answered: its webhook is on its way or in progress.
    expect(await pay(sale.sessionId)).toBe(303);
    await kill9();
    // The payment's transaction is there whole or not at all (almost always not yet: the kill
    // comes before its webhook is through, and the restart must finish the work).
    const atKill = await inspectKilled((db) => facts(db, email));
    expect(atKill.orders).toHaveLength(1);
    const paidAtKill = atKill.orders[0]!.payment_status === Payment.paid;
    expect(atKill.holds.map((h) => h.state)).toEqual(
      Array(2).fill(paidAtKill ? 'converted' : 'active'),
    );
    expect(atKill.invoices).toHaveLength(paidAtKill ? 1 : 0);
    expect(atKill.artworks[works['O2']!]).toEqual({ stock: paidAtKill ? 0 : 1, sold: paidAtKill });
    expect(atKill.artworks[works['P1']!]).toEqual({ stock: 3, sold: false });

    // Meanwhile, the unpaid checkout's session expires (as if the server stayed down that long).
    const stateFile = path.join(dataDir, 'emulator', 'state.json');
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as {
      store: { sessions: { session: { id: string; status: string; expires_at: number } }[] };
    };
    const record = state.store.sessions.find((r) => r.session.id === unpaid.sessionId)!;
    expect(record.session.status).toBe('open');
    record.session.expires_at = Math.floor(Date.now() / 1000) - 60;
    fs.writeFileSync(stateFile, JSON.stringify(state));

    await start();
    await until('the payment to be fulfilled', async () => {
      const mails = mailsOf(sale.orderNumber, email);
      return (await orderState(sale.sessionId)) === 'confirmed' && mails.buyer && mails.gallery;
    });
    await until('the expired checkout to be closed', async () => {
      return (await orderState(unpaid.sessionId)) === 'failed';
    });
    // The work held by the expired checkout sells again.
    const again = await checkout('again@example.test', [{ artworkId: works['O1']!, quantity: 1 }]);
    expect(again.reply.status, again.reply.text).toBe(201);
    await sleep(1000);
    await stop();

    expect(mailsOf(sale.orderNumber, email)).toEqual({ buyer: 1, gallery: 1 });
    const paid = await inspect((db) => facts(db, email));
    expect(paid.orders).toMatchObject([
      {
        order_number: sale.orderNumber,
        payment_status: Payment.paid,
        status: Fulfilment.confirmed,
      },
    ]);
    const orderId = paid.orders[0]!.id;
    expect(paid.holds).toEqual(
      [
        { order_id: orderId, artwork_id: works['O2'], quantity: 1, state: 'converted' },
        { order_id: orderId, artwork_id: works['P1'], quantity: 2, state: 'converted' },
      ].sort((a, b) => a.artwork_id! - b.artwork_id!),
    );
    expect(paid.invoices).toEqual([{ order_id: orderId, kind: 'invoice' }]);
    expect(paid.artworks[works['O2']!]).toEqual({ stock: 0, sold: true });
    expect(paid.artworks[works['P1']!]).toEqual({ stock: 3, sold: false });

    const expired = await inspect((db) => facts(db, 'unpaid@example.test'));
    expect(expired.orders).toMatchObject([
      { payment_status: Payment.expired, status: Fulfilment.cancelled },
    ]);
    expect(expired.holds.map((h) => h.state)).toEqual(['released']);
    expect(expired.invoices).toEqual([]);
    expect(mailsOf(unpaid.orderNumber, 'unpaid@example.test')).toEqual({ buyer: 0, gallery: 0 });
    // O1 is held once, by the new checkout only.
    expect(paid.activeHolds.filter((h) => h.artwork_id === works['O1'])).toHaveLength(1);
    expect(paid.artworks[works['O1']!]).toEqual({ stock: 1, sold: false });
  }, 180_000);

  // ── 3. During webhook fulfilment ─────────────────────────────────────────────────────────────

  for (const [point, original, email] of [
    ['fulfil-commit', 'O3', 'commit@example.test'],
    ['fulfil-mail', 'O4', 'mail@example.test'],
  ] as const) {
    it(`fulfils once a payment whose server was killed at ${point}`, async () => {
      await start(point);
      const stockBefore = 5 - (point === 'fulfil-mail' ? 1 : 0);
      const sale = await checkout(email, [
        { artworkId: works[original]!, quantity: 1 },
        { artworkId: works['P2']!, quantity: 1 },
      ]);
      expect(sale.reply.status, sale.reply.text).toBe(201);
      expect(await pay(sale.sessionId)).toBe(303);
      await until(`the server to pause at ${point}`, () =>
        server!.output().includes(`fault point ${point}: paused`),
      );
      await kill9();
      // Killed before its commit, the payment left no trace; after it, the payment is whole and
      // its mails are still to be sent.
      const committed = point === 'fulfil-mail';
      const atKill = await inspectKilled((db) => facts(db, email));
      expect(atKill.orders).toMatchObject([
        committed
          ? { payment_status: Payment.paid, status: Fulfilment.confirmed }
          : { payment_status: Payment.unpaid, status: Fulfilment.pending, mails_pending_at: null },
      ]);
      expect(atKill.orders[0]!.mails_pending_at === null).toBe(!committed);
      expect(atKill.holds.map((h) => h.state)).toEqual(
        Array(2).fill(committed ? 'converted' : 'active'),
      );
      expect(atKill.invoices).toHaveLength(committed ? 1 : 0);
      expect(atKill.artworks[works[original]!]).toEqual({
        stock: committed ? 0 : 1,
        sold: committed,
      });
      expect(atKill.artworks[works['P2']!]).toEqual({ stock: stockBefore - 1, sold: false });
      expect(mailsOf(sale.orderNumber, email)).toEqual({ buyer: 0, gallery: 0 });

      await start();
      await until('the payment to be fulfilled and its mails sent', async () => {
        const mails = mailsOf(sale.orderNumber, email);
        return (await orderState(sale.sessionId)) === 'confirmed' && mails.buyer && mails.gallery;
      });
      await sleep(1000);
      await stop();

      expect(mailsOf(sale.orderNumber, email)).toEqual({ buyer: 1, gallery: 1 });
      const after = await inspect((db) => facts(db, email));
      expect(after.orders).toMatchObject([
        { payment_status: Payment.paid, status: Fulfilment.confirmed, mails_pending_at: null },
      ]);
      expect(after.holds.map((h) => h.state)).toEqual(['converted', 'converted']);
      expect(after.invoices).toHaveLength(1);
      expect(after.artworks[works[original]!]).toEqual({ stock: 0, sold: true });
      expect(after.artworks[works['P2']!]).toEqual({ stock: stockBefore - 1, sold: false });
      expect(after.activeHolds.filter((h) => h.order_id === after.orders[0]!.id)).toEqual([]);
    }, 180_000);
  }

  it('refunds once a late payment whose server was killed before the refund', async () => {
    // A checkout whose hold ends unpaid (the sweeper, as after half an hour)…
    await start();
    const late = await checkout('late@example.test', [{ artworkId: works['O6']!, quantity: 1 }]);
    expect(late.reply.status, late.reply.text).toBe(201);
    await stop();
    await inspect(async (db) => {
      const order = await db
        .selectFrom('orders')
        .select('id')
        .where('order_number', '=', late.orderNumber)
        .executeTakeFirstOrThrow();
      await db
        .updateTable('holds')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('order_id', '=', order.id)
        .execute();
      expect(await sweepExpiredHolds(db)).toBe(1);
    });
    // …another buyer takes the work, then the first one's session, still open, is paid: too
    // late, so the payment is refunded — and the server is killed just before the refund.
    await start('fulfil-refund');
    const taker = await checkout('taker@example.test', [{ artworkId: works['O6']!, quantity: 1 }]);
    expect(taker.reply.status, taker.reply.text).toBe(201);
    expect(await pay(late.sessionId)).toBe(303);
    await until('the server to pause at fulfil-refund', () =>
      server!.output().includes('fault point fulfil-refund: paused'),
    );
    await kill9();
    const refundOf = (db: Database) =>
      db
        .selectFrom('orders')
        .select([
          'payment_status',
          'status',
          'total_cents',
          'refunded_cents',
          'refund_pending_at',
          'stripe_refund_id',
          'stripe_payment_intent_id',
        ])
        .where('order_number', '=', late.orderNumber)
        .executeTakeFirstOrThrow();
    const atKill = await inspectKilled(refundOf);
    expect(atKill).toMatchObject({
      payment_status: Payment.refunded,
      status: Fulfilment.cancelled,
      refunded_cents: 0,
    });
    expect(atKill.refund_pending_at).not.toBeNull();
    const refundsAtStripe = () => {
      const state = JSON.parse(
        fs.readFileSync(path.join(dataDir, 'emulator', 'state.json'), 'utf8'),
      ) as { store: { refunds: { payment_intent: string; amount: number }[] } };
      return state.store.refunds.filter(
        (r) => r.payment_intent === atKill.stripe_payment_intent_id,
      );
    };
    expect(refundsAtStripe()).toEqual([]);

    // Started again, the server makes the refund at once (reconciliation), and only once.
    await start();
    await until('the pending refund to be made', () =>
      server!.output().includes(`order ${late.orderNumber}: its refund had not been made`),
    );
    await stop();
    expect(refundsAtStripe()).toEqual([expect.objectContaining({ amount: atKill.total_cents })]);
    const after = await inspect(refundOf);
    expect(after).toMatchObject({
      payment_status: Payment.refunded,
      refunded_cents: atKill.total_cents,
      refund_pending_at: null,
    });
    expect(after.stripe_refund_id).toMatch(/^re_/);
    // The work stays with the buyer who took it, and no mail told anyone of a sale.
    const taken = await inspect((db) => facts(db, 'taker@example.test'));
    expect(taken.orders).toMatchObject([{ payment_status: Payment.unpaid }]);
    expect(taken.artworks[works['O6']!]).toEqual({ stock: 1, sold: false });
    expect(taken.activeHolds.filter((h) => h.artwork_id === works['O6'])).toEqual([
      { order_id: taken.orders[0]!.id, artwork_id: works['O6'] },
    ]);
    expect(mailsOf(late.orderNumber, 'late@example.test')).toEqual({ buyer: 0, gallery: 0 });
  }, 240_000);

  // ── 4. During a publish ──────────────────────────────────────────────────────────────────────

  it('serves the last complete version after a kill during a publish, leaves no build running, and publishes again', async () => {
    await start();
    const headers = { cookie: admin };
    const owner = new Visitor(headers);
    const served = readCurrent(dist)!;
    const title = `Faute publiée ${Date.now().toString(36)}`;
    const changed = await owner.call('PATCH', `/api/admin/artworks/${works['O5']}`, {
      title: { fr: title, en: title },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await owner.call('POST', '/api/admin/publish')).status).toBe(202);
    // Until it is built whole, the version served is the one before the change.
    const before = await new Visitor().call('GET', '/gallery');
    expect(before.status).toBe(200);
    expect(before.text).not.toContain(title);
    // The build runs in a child process (astro build, under `nice`): kill the server under it.
    await until('the publish build to start writing its version', () =>
      fs.readdirSync(versionsDir(dist)).some((n) => n.startsWith('.partial-')),
    );
    const builders = descendants(server!.child.pid!);
    expect(builders.map(commandLine).join('\n')).toContain('astro.mjs build');
    await kill9();
    const killed = fs.readdirSync(versionsDir(dist)).find((n) => n.startsWith('.partial-'))!;

    // Nothing the build wrote is served: `current` still names the complete version served.
    expect(readCurrent(dist)).toBe(served);
    expect(fs.existsSync(path.join(versionDir(dist, served), 'build-info.json'))).toBe(true);
    // The build does not outlive its server (it would go on writing, and take a core).
    // It learns its server is gone when it next writes its output (to a pipe nobody reads now),
    // and ends there: it never gets as far as rendering the pages into its folder.
    await until(
      `the build processes ${builders.join(', ')} to end with their server`,
      () => builders.every((pid) => !running(pid)),
      10_000,
    );
    expect(fs.existsSync(path.join(versionsDir(dist), killed, 'client', 'index.html'))).toBe(false);

    await start();
    // The change was not published before the kill: the restart builds it before serving.
    expect(server!.output()).toContain('built the site (the catalogue changed)');
    const current = readCurrent(dist)!;
    expect(current).not.toBe(served);
    for (const page of ['/', '/gallery', '/en/gallery']) {
      const reply = await new Visitor().call('GET', page);
      expect(reply.status, page).toBe(200);
      expect(reply.text, page).toMatch(/<\/html>\s*$/);
    }
    expect((await new Visitor().call('GET', '/gallery')).text).toContain(title);
    // No half-written version is left, and the previous one is kept.
    expect(fs.readdirSync(versionsDir(dist)).filter((n) => n.startsWith('.partial-'))).toEqual([]);
    expect(listVersions(dist)).toEqual([served, current].sort());

    // Publishing by hand works again.
    expect((await owner.call('POST', '/api/admin/publish')).status).toBe(202);
    const status = await until(
      'the publish asked again to finish',
      async () => {
        const s = (await owner.call('GET', '/api/admin/publish')).json as {
          state: string;
          version: string;
        };
        return s.state === 'idle' && s.version !== current && s;
      },
      120_000,
    );
    expect(readCurrent(dist)).toBe(status.version);
    expect((await new Visitor().call('GET', '/gallery')).text).toContain(title);
  }, 240_000);
});
