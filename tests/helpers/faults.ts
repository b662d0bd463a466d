// The shop of the fault suites (issue 14 §3, tests/integration/faults-*.test.ts): the real server
// (`node api/server.ts`, embedded database, payment emulator, mails as .eml files in
// DATA_DIR/mail) on a fresh copy of the golden shop, killed with SIGKILL and started again on the
// same DATA_DIR, dist folder and port; a buyer's requests; and what the database, the mail folder
// and the emulator's state say once the server is stopped (the embedded database belongs to one
// process at a time). Each suite has a shop of its own, so the suites run side by side.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '#api/db/index.ts';
import type { FaultPoint } from '#api/faults.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import { checkoutRequest } from './checkout.ts';
import { testDbKind } from './db.ts';
import { makeUser } from './factories.ts';
import { parseMail } from './mail.ts';
import { freshShop, startServer, type FreshShop, type RunningServer } from './server.ts';
import { until } from './wait.ts';

export interface Reply {
  status: number;
  text: string;
  json: Record<string, unknown>;
  location: string | null;
}

/** Works of a suite, from the demo catalogue: originals O1–O6, prints P1 and P2 (five or more). */
export type WorkName = 'O1' | 'O2' | 'O3' | 'O4' | 'O5' | 'O6' | 'P1' | 'P2';

export class FaultShop {
  server: RunningServer | undefined;
  /** The owner's session cookie. */
  admin = '';
  readonly works = {} as Record<WorkName, number>;
  /** The prints' stock before the suite sells any. */
  readonly printStock = {} as Record<'P1' | 'P2', number>;
  private port = 0;
  private base = '';
  private readonly shop: FreshShop;

  private constructor(shop: FreshShop) {
    this.shop = shop;
  }

  get dataDir(): string {
    return this.shop.dataDir;
  }

  get dist(): string {
    return this.shop.dist;
  }

  /** The site URL its version was built for: the Origin its posts carry. */
  get siteUrl(): string {
    return this.shop.siteUrl;
  }

  /** A fresh shop with its owner, started (it builds nothing: the golden shop is built). */
  static async open(name: string): Promise<FaultShop> {
    const shop = new FaultShop(await freshShop(name));
    // The owner and the suite's works, before the server holds the database.
    const handle = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pgdata') });
    try {
      // The golden shop is https://: its session cookie is __Host-session (decision 038).
      ({ secureCookie: shop.admin } = await makeUser(handle.db, { role: 'admin' }));
      const originals = await handle.db
        .selectFrom('artworks')
        .select('id')
        .where('artwork_type', '=', 'original')
        .where('is_sold', '=', false)
        .orderBy('id')
        .limit(6)
        .execute();
      originals.forEach((work, i) => (shop.works[`O${i + 1}` as WorkName] = work.id));
      const prints = await handle.db
        .selectFrom('artworks')
        .select(['id', 'stock'])
        .where('artwork_type', '=', 'print')
        .where('stock', '>=', 5)
        .orderBy('id')
        .limit(2)
        .execute();
      prints.forEach((work, i) => {
        shop.works[`P${i + 1}` as 'P1' | 'P2'] = work.id;
        shop.printStock[`P${i + 1}` as 'P1' | 'P2'] = work.stock;
      });
    } finally {
      await handle.close();
    }
    expect(Object.keys(shop.works)).toHaveLength(8);
    await shop.start();
    expect(shop.server!.output()).not.toContain('built the site');
    return shop;
  }

  /** Starts the server on the same data, dist folder and port; resolves once it is ready. */
  async start(fault?: FaultPoint): Promise<RunningServer> {
    await this.stop(); // left running by a test that failed
    const server = await startServer({
      dataDir: this.shop.dataDir,
      dist: this.shop.dist,
      siteUrl: this.shop.siteUrl,
      port: this.port,
      env: { VISIT_COUNTING: 'off', GALERIE_FAULT_PAUSE: fault ?? '' },
    });
    // The same port at every start: the emulator's pending webhooks name it.
    this.port = server.port;
    this.base = server.base;
    this.server = server;
    return server;
  }

  async kill9(): Promise<void> {
    const server = this.server!;
    await server.kill9();
    expect(server.child.signalCode).toBe('SIGKILL');
    this.server = undefined;
  }

  /**
   * A clean stop (SIGTERM): requests in flight, reconciliation and the publish queue finish
   * before the process exits — so what a test counts afterwards is all this process did.
   */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await server.stop();
  }

  async close(): Promise<void> {
    await this.stop();
    this.shop.remove();
  }

  /** Until `pattern` is in what the running server printed. */
  printed(pattern: RegExp): Promise<string> {
    return this.server!.printed(pattern);
  }

  /** Events the payment emulator has still to deliver (kept in its state file between starts). */
  undelivered(sessionId: string): unknown[] {
    return this.emulatorState().pending.filter((event) => event.data?.object?.id === sessionId);
  }

  emulatorState(): {
    pending: { data?: { object?: { id?: string } } }[];
    store: {
      sessions: { session: { id: string; status: string; expires_at: number } }[];
      refunds: { payment_intent: string; amount: number }[];
    };
  } {
    return JSON.parse(
      fs.readFileSync(path.join(this.dataDir, 'emulator', 'state.json'), 'utf8'),
    ) as ReturnType<FaultShop['emulatorState']>;
  }

  writeEmulatorState(state: ReturnType<FaultShop['emulatorState']>): void {
    fs.writeFileSync(path.join(this.dataDir, 'emulator', 'state.json'), JSON.stringify(state));
  }

  /** The database as the stopped server left it. */
  async inspect<T>(read: (db: Database) => Promise<T>): Promise<T> {
    expect(this.server, 'the server must be stopped first').toBeUndefined();
    const handle = await openDatabase({ pgliteDir: path.join(this.dataDir, 'pgdata') });
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
  async inspectKilled<T>(read: (db: Database) => Promise<T>): Promise<T> {
    expect(this.server, 'the server must be killed first').toBeUndefined();
    const copy = path.join(this.shop.work, 'killed-pgdata');
    fs.cpSync(path.join(this.dataDir, 'pgdata'), copy, { recursive: true });
    const handle = await openDatabase({ pgliteDir: copy });
    try {
      return await read(handle.db);
    } finally {
      await handle.close();
      fs.rmSync(copy, { recursive: true, force: true });
    }
  }

  /** A visitor with its own cookies (cart, session). */
  visitor(headers: Record<string, string> = {}): Visitor {
    return new Visitor(this, headers);
  }

  /** Fills a new cart and checks out: the order waits for its payment, its works held. */
  async checkout(
    email: string,
    items: { artworkId: number; quantity: number }[],
  ): Promise<{ buyer: Visitor; sessionId: string; orderNumber: string; reply: Reply }> {
    const buyer = this.visitor();
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
  async pay(sessionId: string): Promise<number> {
    const response = await fetch(`${this.base}/emulator/checkout/${sessionId}`, {
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

  async orderState(sessionId: string): Promise<unknown> {
    return (await this.visitor().call('GET', `/api/orders/status?session_id=${sessionId}`)).json[
      'state'
    ];
  }

  /** The mails written for an order: the buyer's confirmation, the gallery's notification. */
  mailsOf(orderNumber: string, buyerEmail: string): { buyer: number; gallery: number } {
    const dir = path.join(this.dataDir, 'mail');
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
  async facts(db: Database, email: string) {
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
          .where('id', 'in', Object.values(this.works))
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
}

/**
 * The suite of a payment whose webhook's fulfilment is killed at `point`: before its transaction
 * commits (`fulfil-commit`) or after it, before its mails (`fulfil-mail`). Started again, the
 * server must fulfil it once and send its mails once.
 */
export function describeFulfilmentKilledAt(
  point: 'fulfil-commit' | 'fulfil-mail',
  original: WorkName,
  email: string,
): void {
  // Processes, not the database kind, are under test: run on the embedded database.
  describe.skipIf(testDbKind() !== 'pglite')(
    'a server killed with SIGKILL and started again',
    () => {
      let opened: FaultShop | undefined;
      const shop = () => opened!;
      beforeAll(async () => {
        opened = await FaultShop.open(`faults-${point}`);
      });
      afterAll(() => opened?.close());

      it(`fulfils once a payment whose server was killed at ${point}`, async () => {
        await shop().start(point);
        const stockBefore = shop().printStock['P2'];
        const sale = await shop().checkout(email, [
          { artworkId: shop().works[original], quantity: 1 },
          { artworkId: shop().works['P2'], quantity: 1 },
        ]);
        expect(sale.reply.status, sale.reply.text).toBe(201);
        expect(await shop().pay(sale.sessionId)).toBe(303);
        await until(`the server to pause at ${point}`, () =>
          shop().server!.output().includes(`fault point ${point}: paused`),
        );
        await shop().kill9();
        // Killed before its commit, the payment left no trace; after it, the payment is whole and
        // its mails are still to be sent.
        const committed = point === 'fulfil-mail';
        const atKill = await shop().inspectKilled((db) => shop().facts(db, email));
        expect(atKill.orders).toMatchObject([
          committed
            ? { payment_status: Payment.paid, status: Fulfilment.confirmed }
            : {
                payment_status: Payment.unpaid,
                status: Fulfilment.pending,
                mails_pending_at: null,
              },
        ]);
        expect(atKill.orders[0]!.mails_pending_at === null).toBe(!committed);
        expect(atKill.holds.map((h) => h.state)).toEqual(
          Array(2).fill(committed ? 'converted' : 'active'),
        );
        expect(atKill.invoices).toHaveLength(committed ? 1 : 0);
        expect(atKill.artworks[shop().works[original]]).toEqual({
          stock: committed ? 0 : 1,
          sold: committed,
        });
        expect(atKill.artworks[shop().works['P2']]).toEqual({
          stock: stockBefore - 1,
          sold: false,
        });
        expect(shop().mailsOf(sale.orderNumber, email)).toEqual({ buyer: 0, gallery: 0 });

        await shop().start();
        await until('the payment to be fulfilled and its mails sent', async () => {
          const mails = shop().mailsOf(sale.orderNumber, email);
          return (
            (await shop().orderState(sale.sessionId)) === 'confirmed' &&
            mails.buyer &&
            mails.gallery
          );
        });
        await shop().stop();
        expect(shop().undelivered(sale.sessionId)).toEqual([]);

        expect(shop().mailsOf(sale.orderNumber, email)).toEqual({ buyer: 1, gallery: 1 });
        const after = await shop().inspect((db) => shop().facts(db, email));
        expect(after.orders).toMatchObject([
          { payment_status: Payment.paid, status: Fulfilment.confirmed, mails_pending_at: null },
        ]);
        expect(after.holds.map((h) => h.state)).toEqual(['converted', 'converted']);
        expect(after.invoices).toHaveLength(1);
        expect(after.artworks[shop().works[original]]).toEqual({ stock: 0, sold: true });
        expect(after.artworks[shop().works['P2']]).toEqual({ stock: stockBefore - 1, sold: false });
        expect(after.activeHolds.filter((h) => h.order_id === after.orders[0]!.id)).toEqual([]);
      });
    },
  );
}

/** A visitor of the shop with its own cookies (cart, session). */
export class Visitor {
  readonly cookies = new Map<string, string>();
  readonly headers: Record<string, string>;
  private readonly shop: FaultShop;

  constructor(shop: FaultShop, headers: Record<string, string> = {}) {
    this.shop = shop;
    this.headers = headers;
  }

  async call(method: string, pathname: string, body?: unknown): Promise<Reply> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(`${this.shop.server!.base}${pathname}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(method !== 'GET' && { origin: this.shop.siteUrl }),
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
export function descendants(pid: number): number[] {
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
export function running(pid: number): boolean {
  const entry = processTable().get(pid);
  return entry !== undefined && entry.state !== 'Z';
}

export const commandLine = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};
