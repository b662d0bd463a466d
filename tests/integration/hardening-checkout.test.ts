// Issue 14 "Anyone can hold the whole catalogue", through the real endpoint, database and payment
// emulator: a checkout comes from the visitor's cart; one cart has one checkout in progress (the
// next releases the previous one's works and expires its payment session); one client address
// has at most CHECKOUT_LIMITS.perAddress unpaid checkouts, then 429 with Retry-After; paid,
// superseded and expired checkouts do not count; other clients are not affected.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_COOKIE, newCartId } from '#api/cart/index.ts';
import { sweepExpiredHolds, type CheckoutRequest } from '#api/checkout/index.ts';
import { CHECKOUT_LIMITS } from '#api/checkout/limits.ts';
import { provideDatabase } from '#api/db/context.ts';
import { createStripeEmulator, type StripeEmulator } from '#api/emulator/index.ts';
import { AppError } from '#api/http/errors.ts';
import type { Mailer } from '#api/mail/index.ts';
import { createEmulatedPayments, providePayments, type Payments } from '#api/payments/index.ts';
import { handleStripeWebhook } from '#api/payments/webhook.ts';
import { POST as CHECKOUT } from '../../src/pages/api/checkout/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { until } from '../helpers/wait.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork } from '../helpers/factories.ts';
import { checkoutRequest } from '../helpers/checkout.ts';

const ORIGIN = 'http://localhost:4321';
let t: TestDatabase;
let server: http.Server;
let emulator: StripeEmulator;
let payments: Payments;
const mailer: Mailer = { description: 'memory', send: () => Promise.resolve() };
const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;

type Items = CheckoutRequest['items'];
interface Answer {
  status: number;
  retryAfter: string | null;
  body: {
    sessionId?: string;
    error?: { code: string; fields?: Record<string, string>; params?: Record<string, unknown> };
  };
}

const body = (items: Items): CheckoutRequest => checkoutRequest(items);

/** POST /api/checkout through the middleware, from `ip`, with the cart cookie when given. */
async function checkout(items: Items, from: { ip: string; cartId?: string }): Promise<Answer> {
  const response = await callEndpoint(CHECKOUT, {
    request: new Request(`${ORIGIN}/api/checkout`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify(body(items)),
    }),
    clientAddress: from.ip,
    cookies: {
      get: (name: string) =>
        name === CART_COOKIE && from.cartId ? { value: from.cartId } : undefined,
    } as never,
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Answer['body'],
  };
}

/** A cart holding `items` (its rows written as api/cart would have left them). */
async function cartWith(items: Items): Promise<string> {
  const cartId = newCartId();
  await t.db.insertInto('carts').values({ id: cartId }).execute();
  await setCart(cartId, items);
  return cartId;
}

async function setCart(cartId: string, items: Items): Promise<void> {
  await t.db.deleteFrom('cart_items').where('cart_id', '=', cartId).execute();
  if (items.length === 0) return;
  await t.db
    .insertInto('cart_items')
    .values(items.map((i) => ({ cart_id: cartId, artwork_id: i.artworkId, quantity: i.quantity })))
    .execute();
}

let works = 0;
async function original(): Promise<number> {
  works += 1;
  const row = await makeArtwork(t.db, {
    slug: `limite-${works}-original`,
    artwork_type: 'original',
    price_cents: 250_000,
    stock: 1,
  });
  return row.id;
}

async function print(stock: number): Promise<number> {
  works += 1;
  const row = await makeArtwork(t.db, {
    slug: `limite-${works}-print`,
    artwork_type: 'print',
    price_cents: 35_000,
    stock,
  });
  return row.id;
}

async function counts() {
  const orders = await t.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const holds = await t.db
    .selectFrom('holds')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'active')
    .executeTakeFirstOrThrow();
  return { orders: Number(orders.n), activeHolds: Number(holds.n) };
}

async function heldBy(artworkId: number): Promise<string | undefined> {
  const row = await t.db
    .selectFrom('holds')
    .select('order_id')
    .where('artwork_id', '=', artworkId)
    .where('state', '=', 'active')
    .executeTakeFirst();
  return row?.order_id;
}

async function orderOf(sessionId: string) {
  return t.db
    .selectFrom('orders')
    .select(['id', 'payment_status', 'client_key'])
    .where('stripe_session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
}

/** `n` checkouts from `ip`, each from a cart of its own holding an original. */
async function fill(ip: string, n: number) {
  const made: Array<{ cartId: string; work: number; sessionId: string }> = [];
  for (let i = 0; i < n; i += 1) {
    const work = await original();
    const items = [{ artworkId: work, quantity: 1 }];
    const cartId = await cartWith(items);
    const answer = await checkout(items, { ip, cartId });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    made.push({ cartId, work, sessionId: answer.body.sessionId! });
  }
  return made;
}

beforeAll(async () => {
  t = await createTestDatabase({ maxConnections: 20 });
  server = http.createServer((req, res) => {
    if (emulator.handle(req, res)) return;
    if (req.method === 'POST' && req.url === '/api/stripe/webhook') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        handleStripeWebhook(
          { db: t.db, payments, mailer },
          Buffer.concat(chunks).toString('utf8'),
          req.headers['stripe-signature'] as string,
        ).then(
          () => res.writeHead(200).end('{}'),
          (error: unknown) => res.writeHead(error instanceof AppError ? error.status : 500).end(),
        );
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  emulator = createStripeEmulator({
    webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`,
    webhookSecret,
    publicBaseUrl: ORIGIN, // the shop's address: the emulator redirects buyers only there
    retryDelaysMs: [50, 100],
  });
  payments = createEmulatedPayments(port, webhookSecret, emulator.secretKey);
  provideDatabase(t);
  providePayments(payments);
});

afterAll(async () => {
  emulator?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.dispose();
});

describe('a checkout comes from a cart', () => {
  it('refuses repeated anonymous checkouts without a cart cookie: 400 cart_empty, nothing held', async () => {
    const work = await original();
    const stocked = await print(5);
    const items = [
      { artworkId: work, quantity: 1 },
      { artworkId: stocked, quantity: 5 },
    ];
    const before = await counts();
    for (let i = 0; i < 5; i += 1) {
      const answer = await checkout(items, { ip: '203.0.113.1' });
      expect(answer.status).toBe(400);
      expect(answer.body.error?.code).toBe('cart_empty');
    }
    // A cart id never issued, or a cart with nothing in it, is no better.
    expect((await checkout(items, { ip: '203.0.113.1', cartId: newCartId() })).status).toBe(400);
    const empty = await cartWith([{ artworkId: stocked, quantity: 1 }]);
    await setCart(empty, []);
    const answer = await checkout(items, { ip: '203.0.113.1', cartId: empty });
    expect(answer.body.error?.code).toBe('cart_empty');
    expect(await counts()).toEqual(before);
    expect(await heldBy(work)).toBeUndefined();
  });

  it('holds only what the cart has: a work not in it, or more of it, is refused', async () => {
    const work = await original();
    const stocked = await print(5);
    const cartId = await cartWith([{ artworkId: stocked, quantity: 1 }]);
    const before = await counts();
    for (const items of [
      [{ artworkId: work, quantity: 1 }],
      [{ artworkId: stocked, quantity: 5 }],
      [
        { artworkId: stocked, quantity: 1 },
        { artworkId: work, quantity: 1 },
      ],
    ]) {
      const answer = await checkout(items, { ip: '203.0.113.2', cartId });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        code: 'invalid_input',
        fields: { items: 'checkout.error.cartChanged' },
      });
    }
    expect(await counts()).toEqual(before);
    expect(await heldBy(work)).toBeUndefined();
    const ok = await checkout([{ artworkId: stocked, quantity: 1 }], { ip: '203.0.113.2', cartId });
    expect(ok.status).toBe(201);
  });
});

describe('one checkout in progress per cart', () => {
  it('a second checkout of the same cart releases the first one’s original, for another buyer', async () => {
    const work = await original();
    const stocked = await print(3);
    const cartId = await cartWith([{ artworkId: work, quantity: 1 }]);
    const first = await checkout([{ artworkId: work, quantity: 1 }], { ip: '203.0.113.3', cartId });
    expect(first.status).toBe(201);
    const firstOrder = await orderOf(first.body.sessionId!);
    expect(await heldBy(work)).toBe(firstOrder.id);
    // Another buyer is told it is reserved.
    const rival = {
      ip: '198.51.100.3',
      cartId: await cartWith([{ artworkId: work, quantity: 1 }]),
    };
    expect((await checkout([{ artworkId: work, quantity: 1 }], rival)).body.error?.code).toBe(
      'artwork_held',
    );

    // The first buyer changes their mind: a print instead, checked out from the same cart.
    await setCart(cartId, [{ artworkId: stocked, quantity: 1 }]);
    const second = await checkout([{ artworkId: stocked, quantity: 1 }], {
      ip: '203.0.113.3',
      cartId,
    });
    expect(second.status).toBe(201);
    expect(await orderOf(first.body.sessionId!)).toMatchObject({
      payment_status: 'expired',
      client_key: null,
    });
    expect(await heldBy(work)).toBeUndefined();
    // Its payment page is closed too (expired through the payment provider).
    await until(
      'the superseded session to expire',
      async () =>
        (await payments.stripe.checkout.sessions.retrieve(first.body.sessionId!)).status ===
        'expired',
    );

    const now = await checkout([{ artworkId: work, quantity: 1 }], rival);
    expect(now.status).toBe(201);
    expect(await heldBy(work)).toBe((await orderOf(now.body.sessionId!)).id);
  });
});

describe('checkouts in progress per client address', () => {
  it(`refuses the ${CHECKOUT_LIMITS.perAddress + 1}th with 429 and Retry-After; the work stays free`, async () => {
    const ip = '203.0.113.10';
    await fill(ip, CHECKOUT_LIMITS.perAddress);
    const work = await original();
    const items = [{ artworkId: work, quantity: 1 }];
    const before = await counts();
    const refused = await checkout(items, { ip, cartId: await cartWith(items) });
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('rate_limited');
    // The earliest payment session ends in about 31 minutes.
    const seconds = Number(refused.retryAfter);
    expect(seconds).toBeGreaterThan(25 * 60);
    expect(seconds).toBeLessThanOrEqual(32 * 60);
    expect(refused.body.error?.params).toEqual({ minutes: Math.ceil(seconds / 60) });
    expect(await counts()).toEqual(before);
    expect(await heldBy(work)).toBeUndefined();

    // Another client is not affected, and gets the work.
    const other = await checkout(items, { ip: '198.51.100.10', cartId: await cartWith(items) });
    expect(other.status).toBe(201);
  });

  it('an IPv6 client is one /64 network: its addresses share the limit', async () => {
    const made = await fill('2001:db8:1:2::1', CHECKOUT_LIMITS.perAddress - 1);
    expect(made).toHaveLength(CHECKOUT_LIMITS.perAddress - 1);
    await fill('2001:db8:1:2:ffff::7', 1);
    const work = await original();
    const items = [{ artworkId: work, quantity: 1 }];
    const cartId = await cartWith(items);
    expect((await checkout(items, { ip: '2001:db8:1:2:abcd::9', cartId })).status).toBe(429);
    // The next /64 is someone else.
    expect((await checkout(items, { ip: '2001:db8:1:3::1', cartId })).status).toBe(201);
  });

  it('paid, superseded and expired checkouts do not count', async () => {
    const ip = '203.0.113.20';
    const made = await fill(ip, CHECKOUT_LIMITS.perAddress);
    const one = async () => {
      const work = await original();
      const items = [{ artworkId: work, quantity: 1 }];
      return checkout(items, { ip, cartId: await cartWith(items) });
    };
    expect((await one()).status).toBe(429);

    // The same cart checks out again: it supersedes its own checkout, so it is not refused.
    const again = await checkout([{ artworkId: made[0]!.work, quantity: 1 }], {
      ip,
      cartId: made[0]!.cartId,
    });
    expect(again.status).toBe(201);
    expect((await one()).status).toBe(429);

    // One is paid: room for one more.
    await emulator.pay(made[1]!.sessionId);
    await until(
      'the paid order',
      async () => (await orderOf(made[1]!.sessionId)).payment_status === 'paid',
    );
    expect((await one()).status).toBe(201);
    expect((await one()).status).toBe(429);

    // One expires: room for one more.
    await payments.stripe.checkout.sessions.expire(made[2]!.sessionId);
    await until(
      'the expired order',
      async () => (await orderOf(made[2]!.sessionId)).payment_status === 'expired',
    );
    expect((await one()).status).toBe(201);
    expect((await one()).status).toBe(429);

    // The address is forgotten as soon as the order no longer waits for its payment.
    expect((await orderOf(made[2]!.sessionId)).client_key).toBeNull();
    expect((await orderOf(made[1]!.sessionId)).client_key).not.toBeNull();
    await sweepExpiredHolds(t.db);
    expect((await orderOf(made[1]!.sessionId)).client_key).toBeNull();
    expect((await orderOf(again.body.sessionId!)).client_key).toMatch(/^checkout:/);
  });

  it(
    'checkouts from one address side by side never exceed the limit',
    { tags: ['concurrency'] },
    async () => {
      const ip = '203.0.113.30';
      const carts = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const work = await original();
          const items = [{ artworkId: work, quantity: 1 }];
          return { items, cartId: await cartWith(items) };
        }),
      );
      const answers = await Promise.all(
        carts.map((c) => checkout(c.items, { ip, cartId: c.cartId })),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(CHECKOUT_LIMITS.perAddress);
      expect(statuses.filter((s) => s === 429)).toHaveLength(8 - CHECKOUT_LIMITS.perAddress);
    },
  );
});
