// Issue 25 §9: a payment cancelled on the payment page gives the original back at once — through
// Stripe's API (the emulator, reached by the real SDK) and only once the session is confirmed
// expired — and the buyer who lost the race is told when the work may be free again, at checkout
// and in the cart. Webhook delivery can be held back, to be paid "meanwhile" before the shop knows.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCart, newCartId } from '#api/cart/index.ts';
import { cancelCheckout } from '#api/checkout/cancel.ts';
import { createCheckout, type CheckoutRequest } from '#api/checkout/index.ts';
import { provideDatabase } from '#api/db/context.ts';
import { createStripeEmulator, type StripeEmulator } from '#api/emulator/index.ts';
import { AppError } from '#api/http/errors.ts';
import type { Mailer } from '#api/mail/index.ts';
import { createEmulatedPayments, providePayments, type Payments } from '#api/payments/index.ts';
import { handleStripeWebhook } from '#api/payments/webhook.ts';
import { liveSettings } from '#api/settings/index.ts';
import { POST as CANCEL } from '../../src/pages/api/checkout/cancel.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { checkoutRequest } from '../helpers/checkout.ts';
import { makeArtwork } from '../helpers/factories.ts';
import { until } from '../helpers/wait.ts';

let t: TestDatabase;
let server: http.Server;
let emulator: StripeEmulator;
let payments: Payments;
const SHOP = 'http://localhost:4321';
const mailer: Mailer = { description: 'memory', send: () => Promise.resolve() };
const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
/** While false, the shop answers webhooks 503 (the emulator retries): a payment it has not heard of. */
let webhooksOn = true;

beforeAll(async () => {
  t = await createTestDatabase();
  server = http.createServer((req, res) => {
    if (emulator.handle(req, res)) return;
    if (req.method === 'POST' && req.url === '/api/stripe/webhook') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (!webhooksOn) return void res.writeHead(503).end();
        handleStripeWebhook(
          { db: t.db, payments, mailer },
          Buffer.concat(chunks).toString('utf8'),
          req.headers['stripe-signature'] as string,
        )
          .then(() => res.writeHead(200).end('{}'))
          .catch((error: unknown) =>
            res.writeHead(error instanceof AppError ? error.status : 500).end(),
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
    publicBaseUrl: SHOP,
    retryDelaysMs: [50, 100, 200, 400, 800, 1600, 3200],
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

let clients = 0;
const newIp = () => `198.19.${++clients >> 8}.${clients & 255}`;

async function original(slug: string): Promise<number> {
  const row = await makeArtwork(t.db, {
    slug,
    title_fr: slug,
    title_en: slug,
    artwork_type: 'original',
    price_cents: 900000,
    stock: 1,
  });
  return row.id;
}

async function cartWith(artworkId: number): Promise<string> {
  const cartId = newCartId();
  await t.db.insertInto('carts').values({ id: cartId }).execute();
  await t.db
    .insertInto('cart_items')
    .values({ cart_id: cartId, artwork_id: artworkId, quantity: 1 })
    .execute();
  return cartId;
}

async function checkout(artworkId: number, cartId?: string) {
  const items: CheckoutRequest['items'] = [{ artworkId, quantity: 1 }];
  const cart = cartId ?? (await cartWith(artworkId));
  const result = await createCheckout({ db: t.db, payments }, checkoutRequest(items), {
    cartId: cart,
    ip: newIp(),
    siteUrl: SHOP,
  });
  return { ...result, cartId: cart };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const order = (id: string) =>
  t.db
    .selectFrom('orders')
    .select(['payment_status', 'status'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const activeHolds = async (artworkId: number) =>
  (
    await t.db
      .selectFrom('holds')
      .select('id')
      .where('artwork_id', '=', artworkId)
      .where('state', '=', 'active')
      .execute()
  ).length;

describe('cancelling on the payment page', () => {
  it('names the checkout in the cancel link', async () => {
    const work = await original('lien-annulation');
    const first = await checkout(work);
    const session = await payments.stripe.checkout.sessions.retrieve(first.sessionId);
    expect(session.cancel_url).toBe(`${SHOP}/cancel?order=${first.orderId}`);
  });

  it('gives the original back at once, once Stripe says the session expired; twice is once', async () => {
    const work = await original('annulee-original');
    const first = await checkout(work);
    // Another buyer, meanwhile: refused, and told when to try again (the hold's end).
    const hold = await t.db
      .selectFrom('holds')
      .select('expires_at')
      .where('order_id', '=', first.orderId)
      .executeTakeFirstOrThrow();
    const lost = await refusal(checkout(work));
    expect(lost.code).toBe('artwork_held');
    expect(lost.params?.['until']).toBe(new Date(hold.expires_at).toISOString());

    expect(
      await cancelCheckout(
        { db: t.db, payments },
        { orderId: first.orderId, cartId: first.cartId },
      ),
    ).toEqual({ released: true });
    expect((await payments.stripe.checkout.sessions.retrieve(first.sessionId)).status).toBe(
      'expired',
    );
    expect(await order(first.orderId)).toMatchObject({
      payment_status: 'expired',
      status: 'cancelled',
    });
    expect(await activeHolds(work)).toBe(0);
    // Again (a reload of the cancel page), and the expiry webhook: nothing more.
    expect(
      await cancelCheckout(
        { db: t.db, payments },
        { orderId: first.orderId, cartId: first.cartId },
      ),
    ).toEqual({ released: false });
    await until('the expiry event delivered', () =>
      emulator.deliveries.some((d) => d.type === 'checkout.session.expired' && d.status === 200),
    );
    // The other buyer gets it now, without waiting for the 30 minutes.
    const second = await checkout(work);
    expect(await activeHolds(work)).toBe(1);
    expect(second.url).toContain('/emulator/checkout/');
  });

  it('never lets another cart cancel a checkout, nor an unknown order', async () => {
    const work = await original('pas-a-vous');
    const mine = await checkout(work);
    const stranger = newCartId();
    for (const request of [
      { orderId: mine.orderId, cartId: stranger },
      { orderId: mine.orderId, cartId: undefined },
      { orderId: '00000000-0000-4000-8000-000000000000', cartId: mine.cartId },
    ])
      expect(await cancelCheckout({ db: t.db, payments }, request)).toEqual({ released: false });
    expect((await payments.stripe.checkout.sessions.retrieve(mine.sessionId)).status).toBe('open');
    expect(await activeHolds(work)).toBe(1);
  });

  it('keeps the hold of a buyer who paid meanwhile, before the shop heard of it', async () => {
    const work = await original('payee-entre-temps');
    const paid = await checkout(work);
    webhooksOn = false;
    try {
      await emulator.pay(paid.sessionId);
      expect(
        await cancelCheckout(
          { db: t.db, payments },
          { orderId: paid.orderId, cartId: paid.cartId },
        ),
      ).toEqual({ released: false });
      expect(await order(paid.orderId)).toMatchObject({ payment_status: 'unpaid' });
      expect(await activeHolds(work)).toBe(1);
    } finally {
      webhooksOn = true;
    }
    await until(
      'the paid order',
      async () => (await order(paid.orderId)).payment_status === 'paid',
    );
    const sold = await t.db
      .selectFrom('artworks')
      .select('is_sold')
      .where('id', '=', work)
      .executeTakeFirstOrThrow();
    expect(sold.is_sold).toBe(true);
  });

  it('POST /api/checkout/cancel: the cart cookie decides; a bad order id is a 400', async () => {
    const work = await original('par-la-page');
    const mine = await checkout(work);
    const call = (body: unknown, cartId?: string) =>
      callEndpoint(CANCEL, {
        request: new Request(`${SHOP}/api/checkout/cancel`, {
          method: 'POST',
          headers: { origin: SHOP, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        cookies: {
          get: (name: string) =>
            name === 'cart-session-id' && cartId ? { value: cartId } : undefined,
        } as never,
      });
    const bad = await call({ order: 'GS-2026-00001' }, mine.cartId);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_input');
    const other = await call({ order: mine.orderId }, newCartId());
    expect(await other.json()).toEqual({ released: false });
    expect(await activeHolds(work)).toBe(1);
    const own = await call({ order: mine.orderId }, mine.cartId);
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ released: true });
    expect(await activeHolds(work)).toBe(0);
  });
});

describe('the cart of the buyer who lost the race', () => {
  it('says until when another checkout holds its original; its own checkout is no race', async () => {
    const work = await original('convoitee');
    const settings = await liveSettings(t.db);
    const theirs = await checkout(work);
    const mine = await cartWith(work);
    const hold = await t.db
      .selectFrom('holds')
      .select('expires_at')
      .where('order_id', '=', theirs.orderId)
      .executeTakeFirstOrThrow();
    const seen = await getCart(t.db, mine, settings);
    expect(seen.lines[0]?.heldUntil).toBe(new Date(hold.expires_at).toISOString());
    // The holder's own cart does not tell them they are racing someone.
    expect((await getCart(t.db, theirs.cartId, settings)).lines[0]?.heldUntil).toBeNull();
    // Once that payment is cancelled, the work is simply in the cart again.
    await cancelCheckout(
      { db: t.db, payments },
      { orderId: theirs.orderId, cartId: theirs.cartId },
    );
    expect((await getCart(t.db, mine, settings)).lines[0]?.heldUntil).toBeNull();
  });
});
