// Issue 14, "The payment emulator is an open door when the shop runs with its defaults": each
// attack of the finding, reproduced against the emulator mounted as the server mounts it (with its
// data directory) and the shop's real checkout and webhook, must now fail.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCartId } from '#api/cart/index.ts';
import { createCheckout, type CheckoutRequest } from '#api/checkout/index.ts';
import { loadConfig } from '#api/config.ts';
import { createStripeEmulator, type StripeEmulator } from '#api/emulator/index.ts';
import { AppError } from '#api/http/errors.ts';
import type { Mailer } from '#api/mail/index.ts';
import {
  createEmulatedPayments,
  createStripePayments,
  paymentProvider,
  type Payments,
} from '#api/payments/index.ts';
import { handleStripeWebhook } from '#api/payments/webhook.ts';
import { checkoutRequest } from '../helpers/checkout.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeArtwork } from '../helpers/factories.ts';

let t: TestDatabase;
let server: http.Server;
let emulator: StripeEmulator;
let payments: Payments;
let siteUrl: string;
let dataDir: string;
const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
const mailer: Mailer = { description: 'memory', send: () => Promise.resolve() };
/** What the webhook answered, per event type and session. */
const outcomes: Array<{ type: string; session: string; kind: string }> = [];

let clients = 0;
async function checkout(items: CheckoutRequest['items']) {
  const cartId = newCartId();
  await t.db.insertInto('carts').values({ id: cartId }).execute();
  await t.db
    .insertInto('cart_items')
    .values(items.map((i) => ({ cart_id: cartId, artwork_id: i.artworkId, quantity: i.quantity })))
    .execute();
  clients += 1;
  return createCheckout({ db: t.db, payments }, checkoutRequest(items), {
    cartId,
    ip: `198.51.100.${clients}`,
    siteUrl,
  });
}

async function orderOf(id: string) {
  return t.db
    .selectFrom('orders')
    .select(['payment_status', 'status', 'stripe_session_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function activeHolds(orderId: string): Promise<number> {
  const rows = await t.db
    .selectFrom('holds')
    .select('id')
    .where('order_id', '=', orderId)
    .where('state', '=', 'active')
    .execute();
  return rows.length;
}

/** A raw /v1 call, as an attacker (or the SDK) sends it. */
function v1(
  method: string,
  route: string,
  options: { key?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return fetch(`${siteUrl}/v1${route}`, {
    method,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...options.headers,
    },
    ...(options.body ? { body: options.body } : {}),
  });
}

/** A valid session request body, form-encoded as stripe-node sends it, plus `extra`. */
function sessionForm(extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    mode: 'payment',
    'line_items[0][price_data][currency]': 'eur',
    'line_items[0][price_data][unit_amount]': '100',
    'line_items[0][price_data][product_data][name]': 'Un euro',
    'line_items[0][quantity]': '1',
    success_url: `${siteUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
    ...extra,
  }).toString();
}

beforeAll(async () => {
  t = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-emulator-'));
  server = http.createServer((req, res) => {
    if (emulator.handle(req, res)) return;
    if (req.method === 'POST' && req.url === '/api/stripe/webhook') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const event = JSON.parse(body) as { type: string; data: { object: { id: string } } };
        handleStripeWebhook(
          { db: t.db, payments, mailer },
          body,
          req.headers['stripe-signature'] as string,
        )
          .then((outcome) => {
            outcomes.push({ type: event.type, session: event.data.object.id, kind: outcome.kind });
            res.writeHead(200).end('{}');
          })
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
  siteUrl = `http://127.0.0.1:${port}`;
  emulator = createStripeEmulator({
    webhookUrl: `${siteUrl}/api/stripe/webhook`,
    webhookSecret,
    publicBaseUrl: siteUrl,
    dataDir,
    retryDelaysMs: [],
  });
  payments = createEmulatedPayments(port, webhookSecret, emulator.secretKey);
});

afterAll(async () => {
  emulator?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.dispose();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the payment emulator’s key', () => {
  it('refuses the old hard-coded key: another buyer’s session cannot be expired with it', async () => {
    const work = await makeArtwork(t.db, { artwork_type: 'original' });
    const victim = await checkout([{ artworkId: work.id, quantity: 1 }]);
    const expire = await v1('POST', `/checkout/sessions/${victim.sessionId}/expire`, {
      key: 'sk_test_emulator',
    });
    expect(expire.status).toBe(401);
    expect(((await expire.json()) as { error: { type: string } }).error.type).toBe(
      'invalid_request_error',
    );
    const create = await v1('POST', '/checkout/sessions', {
      key: 'sk_test_emulator',
      body: sessionForm(),
    });
    expect(create.status).toBe(401);
    // The victim's checkout is untouched: still open, still holding the work.
    expect((await payments.stripe.checkout.sessions.retrieve(victim.sessionId)).status).toBe(
      'open',
    );
    expect(await orderOf(victim.orderId)).toMatchObject({ payment_status: 'unpaid' });
    expect(await activeHolds(victim.orderId)).toBe(1);
  });

  it('is random per data directory, kept there readable by its owner only', () => {
    const file = path.join(dataDir, 'secret-key');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(emulator.secretKey);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(emulator.secretKey).toMatch(/^sk_test_[A-Za-z0-9_-]{32,}$/);
    expect(emulator.secretKey).not.toBe('sk_test_emulator');

    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-emulator-other-'));
    const options = {
      webhookUrl: `${siteUrl}/nowhere`,
      webhookSecret,
      publicBaseUrl: siteUrl,
    };
    try {
      const other = createStripeEmulator({ ...options, dataDir: otherDir });
      const again = createStripeEmulator({ ...options, dataDir: otherDir });
      other.close();
      again.close();
      expect(other.secretKey).not.toBe(emulator.secretKey);
      // Read back at the next start, not made anew.
      expect(again.secretKey).toBe(other.secretKey);
      // Without a data directory (tests, benchmarks): random too.
      const inMemory = createStripeEmulator(options);
      inMemory.close();
      expect(inMemory.secretKey).not.toBe(other.secretKey);
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('answers only the shop’s own process: not a request a proxy forwarded', async () => {
    const forwarded = await v1('GET', '/coupons/none', {
      key: emulator.secretKey,
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(forwarded.status).toBe(403);
    const direct = await v1('GET', '/coupons/none', { key: emulator.secretKey });
    expect(direct.status).toBe(404); // past the door: the coupon does not exist
  });
});

describe('the payment emulator’s inputs', () => {
  it('redirects only to the shop: an off-origin success_url or cancel_url is refused', async () => {
    for (const param of ['success_url', 'cancel_url'] as const) {
      const call = payments.stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'x' } },
          },
        ],
        success_url: `${siteUrl}/success`,
        [param]: 'https://evil.example/phish?session_id={CHECKOUT_SESSION_ID}',
      });
      await expect(call).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      await expect(call).rejects.toMatchObject({ statusCode: 400, param });
    }
  });

  it('refuses metadata nested 100 000 deep with a 400, and keeps answering', async () => {
    const deep = `metadata${'[a]'.repeat(100_000)}=x`;
    const response = await v1('POST', '/checkout/sessions', {
      key: emulator.secretKey,
      body: `${sessionForm()}&${deep}`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe(
      'invalid_request_error',
    );
    // Nested a little (within the depth limit) is refused as Stripe refuses it, too.
    const nested = await v1('POST', '/checkout/sessions', {
      key: emulator.secretKey,
      body: sessionForm({ 'metadata[a][b]': 'x' }),
    });
    expect(nested.status).toBe(400);
    const ok = await v1('POST', '/checkout/sessions', {
      key: emulator.secretKey,
      body: sessionForm(),
    });
    expect(ok.status).toBe(200);
  });

  it('bounds metadata, line items and strings like Stripe', async () => {
    const refused = async (extra: Record<string, string>) => {
      const response = await v1('POST', '/checkout/sessions', {
        key: emulator.secretKey,
        body: sessionForm(extra),
      });
      expect(response.status).toBe(400);
    };
    const fiftyOne = Object.fromEntries(
      Array.from({ length: 51 }, (_, i) => [`metadata[k${i}]`, 'v']),
    );
    await refused(fiftyOne);
    await refused({ [`metadata[${'k'.repeat(41)}]`]: 'v' });
    await refused({ 'metadata[k]': 'v'.repeat(501) });
    const lines: Record<string, string> = {};
    for (let i = 0; i <= 100; i++) {
      lines[`line_items[${i}][price_data][currency]`] = 'eur';
      lines[`line_items[${i}][price_data][unit_amount]`] = '100';
      lines[`line_items[${i}][price_data][product_data][name]`] = `Ligne ${i}`;
      lines[`line_items[${i}][quantity]`] = '1';
    }
    await refused(lines);
    await refused({ 'line_items[0][price_data][product_data][description]': 'd'.repeat(5001) });
  });
});

describe('the webhook', () => {
  it('never lets a session made for another order change it', async () => {
    const work = await makeArtwork(t.db, { artwork_type: 'original', price_cents: 120_000 });
    const victim = await checkout([{ artworkId: work.id, quantity: 1 }]);
    // The attack of the finding, with the emulator's key (as anyone had it): a 1 € session
    // naming the victim's order, paid (the refund path) and another one expired (the close path).
    const forged = () =>
      payments.stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'x' } },
          },
        ],
        metadata: { order_id: victim.orderId },
        success_url: `${siteUrl}/success`,
      });
    const paid = await forged();
    await emulator.pay(paid.id);
    const expired = await forged();
    await payments.stripe.checkout.sessions.expire(expired.id);
    await expect
      .poll(() => outcomes.filter((o) => o.session === expired.id).map((o) => o.kind))
      .toEqual(['ignored']);
    expect(outcomes.filter((o) => o.session === paid.id).map((o) => o.kind)).toEqual(['ignored']);
    expect(await orderOf(victim.orderId)).toMatchObject({
      payment_status: 'unpaid',
      status: 'pending',
      stripe_session_id: victim.sessionId,
    });
    expect(await activeHolds(victim.orderId)).toBe(1);

    // The victim's own payment still completes their order.
    await emulator.pay(victim.sessionId);
    expect(outcomes.filter((o) => o.session === victim.sessionId).map((o) => o.kind)).toEqual([
      'paid',
    ]);
    expect(await orderOf(victim.orderId)).toMatchObject({ payment_status: 'paid' });
  });
});

describe('an https:// site without Stripe keys', () => {
  it('takes no order (payment_not_configured) unless PAYMENT_EMULATOR=on asks for the emulator', async () => {
    const production = loadConfig({ PUBLIC_SITE_URL: 'https://galerie.example' });
    expect(paymentProvider(production)).toBe('unconfigured');
    const unconfigured = createStripePayments(production);
    expect(unconfigured.ready).toBe(false);
    const work = await makeArtwork(t.db, { artwork_type: 'print', stock: 3 });
    const refused = await createCheckout(
      { db: t.db, payments: unconfigured },
      checkoutRequest([{ artworkId: work.id, quantity: 1 }]),
      { cartId: newCartId(), ip: '198.51.100.200', siteUrl: production.siteUrl },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('payment_not_configured');

    expect(
      paymentProvider(
        loadConfig({ PUBLIC_SITE_URL: 'https://galerie.example', PAYMENT_EMULATOR: 'on' }),
      ),
    ).toBe('emulator');
    expect(paymentProvider(loadConfig({}))).toBe('emulator'); // http://localhost: development
    expect(
      paymentProvider(
        loadConfig({ PUBLIC_SITE_URL: 'https://galerie.example', STRIPE_SECRET_KEY: 'sk_live_x' }),
      ),
    ).toBe('stripe');
    expect(() => loadConfig({ PAYMENT_EMULATOR: 'yes' })).toThrow(/PAYMENT_EMULATOR/);
  });
});
