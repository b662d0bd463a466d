// The payment emulator as the shop meets it: the real `stripe` SDK over HTTP for the API, plain
// fetch for the hosted payment page, and a webhook receiver that verifies every delivery with the
// SDK's constructEventAsync, exactly as the shop's webhook endpoint does. No database involved.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStripeEmulator, type StripeEmulator } from '#api/emulator/index.ts';

const WEBHOOK_SECRET = 'whsec_emulator_test_secret';

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** The shop's side of webhooks: verifies each delivery, answers 500 while `failNext` > 0. */
class WebhookReceiver {
  readonly server: http.Server;
  /** Every verified delivery, successful or answered 500. */
  readonly attempts: Array<{ eventId: string; type: string; sessionId: string; status: number }> =
    [];
  /** Events accepted (answered 200). */
  readonly events: Stripe.Event[] = [];
  /** Deliveries whose signature did not verify. */
  readonly rejected: string[] = [];
  failNext = 0;

  constructor(verifier: Stripe) {
    this.server = http.createServer((req, res) => {
      void (async () => {
        const payload = await readBody(req);
        let event: Stripe.Event;
        try {
          event = await verifier.webhooks.constructEventAsync(
            payload,
            req.headers['stripe-signature'] ?? '',
            WEBHOOK_SECRET,
          );
        } catch (error) {
          this.rejected.push(error instanceof Error ? error.message : String(error));
          res.writeHead(400).end();
          return;
        }
        const status = this.failNext > 0 ? 500 : 200;
        if (status === 500) this.failNext--;
        const object = event.data.object as { id: string };
        this.attempts.push({ eventId: event.id, type: event.type, sessionId: object.id, status });
        if (status === 200) this.events.push(event);
        res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"received":true}');
      })();
    });
  }

  /** Waits until the event of `type` for this session has been accepted, and returns it. */
  async accepted(type: string, sessionId: string): Promise<Stripe.Event> {
    return vi.waitFor(
      () => {
        const event = this.events.find(
          (e) => e.type === type && (e.data.object as { id: string }).id === sessionId,
        );
        if (!event) throw new Error(`no ${type} for ${sessionId} yet`);
        return event;
      },
      { timeout: 120_000, interval: 10 },
    );
  }
}

describe('Stripe payment emulator', () => {
  let emulator: StripeEmulator;
  let app: http.Server;
  let receiver: WebhookReceiver;
  let base: string;
  let port: number;
  let stripe: Stripe;

  beforeAll(async () => {
    // Webhook verification is offline: this client never sends a request.
    receiver = new WebhookReceiver(new Stripe('sk_test_offline_verification_only'));
    const receiverPort = await listen(receiver.server);
    // The app server: the emulator first, a 404 for everything else.
    app = http.createServer((req, res) => {
      if (!emulator.handle(req, res)) res.writeHead(404).end('not the emulator');
    });
    port = await listen(app);
    base = `http://127.0.0.1:${port}`;
    emulator = createStripeEmulator({
      webhookUrl: `http://127.0.0.1:${receiverPort}/api/stripe/webhook`,
      webhookSecret: WEBHOOK_SECRET,
      publicBaseUrl: base,
      retryDelaysMs: [20, 50],
    });
    stripe = new Stripe(emulator.secretKey, { host: '127.0.0.1', port, protocol: 'http' });
  });

  afterAll(async () => {
    emulator.close();
    await Promise.all([close(app), close(receiver.server)]);
  });

  const nowS = () => Math.floor(Date.now() / 1000);

  /** An original at 350 € and two prints at 45 €: 440 €. */
  const params = (
    overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
  ): Stripe.Checkout.SessionCreateParams => ({
    mode: 'payment',
    line_items: [
      {
        price_data: {
          currency: 'eur',
          unit_amount: 35000,
          product_data: { name: 'Marée haute', description: 'Huile sur toile, 60 × 80 cm' },
        },
        quantity: 1,
      },
      {
        price_data: {
          currency: 'eur',
          unit_amount: 4500,
          product_data: { name: 'Tirage — Le phare' },
        },
        quantity: 2,
      },
    ],
    customer_email: 'ada@example.com',
    client_reference_id: 'G-0042',
    metadata: { order_number: 'G-0042' },
    success_url: `${base}/stripe/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/stripe/cancel`,
    expires_at: nowS() + 3600,
    locale: 'fr',
    ...overrides,
  });

  /** The usual parameters less one. */
  const without = (key: keyof Stripe.Checkout.SessionCreateParams) => {
    const request = params();
    delete request[key];
    return request;
  };

  const submitCard = (url: string, fields: Record<string, string>) =>
    fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

  const eur = (cents: number, locale = 'fr-FR') =>
    new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100);

  it('creates a Checkout Session with Stripe’s shape and amounts', async () => {
    const request = params();
    const session = await stripe.checkout.sessions.create(request);
    expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]{50,}$/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      url: `${base}/emulator/checkout/${session.id}`,
      status: 'open',
      payment_status: 'unpaid',
      mode: 'payment',
      currency: 'eur',
      amount_subtotal: 44000,
      amount_total: 44000,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      customer_email: 'ada@example.com',
      customer_details: null,
      client_reference_id: 'G-0042',
      metadata: { order_number: 'G-0042' },
      expires_at: request.expires_at,
      livemode: false,
      payment_intent: null,
      locale: 'fr',
      success_url: `${base}/stripe/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${base}/stripe/cancel`,
    });
    expect(Math.abs(session.created - nowS())).toBeLessThanOrEqual(2);
  });

  it('replays an idempotent request and refuses the same key with other parameters', async () => {
    const request = params();
    const first = await stripe.checkout.sessions.create(request, { idempotencyKey: 'order-1' });
    const again = await stripe.checkout.sessions.create(request, { idempotencyKey: 'order-1' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');

    const other = stripe.checkout.sessions.create(
      { ...request, client_reference_id: 'G-0043' },
      { idempotencyKey: 'order-1' },
    );
    await expect(other).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    await expect(other).rejects.toMatchObject({ statusCode: 400, type: 'StripeIdempotencyError' });

    const fresh = await stripe.checkout.sessions.create(request, { idempotencyKey: 'order-2' });
    expect(fresh.id).not.toBe(first.id);
  });

  it('retrieves a session, lists its line items, and answers 404 for an unknown one', async () => {
    const created = await stripe.checkout.sessions.create(params());
    const session = await stripe.checkout.sessions.retrieve(created.id);
    expect(session).toMatchObject({ id: created.id, amount_total: 44000, status: 'open' });

    const items = await stripe.checkout.sessions.listLineItems(created.id);
    expect(items.object).toBe('list');
    expect(items.has_more).toBe(false);
    expect(items.data).toEqual([
      expect.objectContaining({
        object: 'item',
        description: 'Marée haute',
        quantity: 1,
        amount_subtotal: 35000,
        amount_total: 35000,
        currency: 'eur',
        price: expect.objectContaining({ unit_amount: 35000, currency: 'eur' }) as unknown,
      }),
      expect.objectContaining({
        description: 'Tirage — Le phare',
        quantity: 2,
        amount_subtotal: 9000,
        amount_total: 9000,
        price: expect.objectContaining({ unit_amount: 4500 }) as unknown,
      }),
    ]);
    const firstOnly = await stripe.checkout.sessions.listLineItems(created.id, { limit: 1 });
    expect(firstOnly.data.map((i) => i.description)).toEqual(['Marée haute']);
    expect(firstOnly.has_more).toBe(true);

    const missing = stripe.checkout.sessions.retrieve('cs_test_nope');
    await expect(missing).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(missing).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('takes a coupon off the total, never below zero, and refuses an unknown coupon', async () => {
    const coupon = await stripe.coupons.create({
      amount_off: 6600,
      currency: 'eur',
      duration: 'once',
      name: 'BIENVENUE',
    });
    expect(coupon).toMatchObject({
      object: 'coupon',
      amount_off: 6600,
      percent_off: null,
      currency: 'eur',
      duration: 'once',
      valid: true,
    });
    const session = await stripe.checkout.sessions.create(
      params({ discounts: [{ coupon: coupon.id }] }),
    );
    expect(session).toMatchObject({
      amount_subtotal: 44000,
      amount_total: 37400,
      total_details: { amount_discount: 6600, amount_shipping: 0, amount_tax: 0 },
    });
    const items = await stripe.checkout.sessions.listLineItems(session.id);
    expect(items.data.reduce((sum, item) => sum + item.amount_total, 0)).toBe(37400);

    const percent = await stripe.coupons.create({ percent_off: 15, duration: 'once' });
    const discounted = await stripe.checkout.sessions.create(
      params({ discounts: [{ coupon: percent.id }] }),
    );
    expect(discounted.amount_total).toBe(44000 - 6600);

    const huge = await stripe.coupons.create({ amount_off: 100_000, currency: 'eur' });
    const free = await stripe.checkout.sessions.create(
      params({ discounts: [{ coupon: huge.id }] }),
    );
    expect(free.amount_total).toBe(0);
    expect(free.total_details?.amount_discount).toBe(44000);

    const unknown = stripe.checkout.sessions.create(params({ discounts: [{ coupon: 'NOPE' }] }));
    await expect(unknown).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(unknown).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'discounts[0][coupon]',
    });
  });

  it('shows a French payment page, pays with 4242…, redirects, and sends one verified webhook', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const url = session.url ?? '';
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<main>');
    expect(html).toContain('Mode TEST — émulateur de paiement');
    expect(html).toContain('Marée haute');
    expect(html).toContain(eur(35000));
    expect(html).toContain('ada@example.com');
    expect(html).toContain('<label for="card_number">Numéro de carte</label>');
    expect(html).toContain(`Payer ${eur(44000)}`);
    expect(html).toContain(`href="${base}/stripe/cancel">Annuler et revenir à la boutique</a>`);
    expect(html).not.toMatch(/<script|src="http/);

    const paid = await submitCard(url, {
      card_number: '4242 4242 4242 4242',
      expiry: '12 / 34',
      cvc: '123',
      name: 'Ada Lovelace',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${base}/stripe/success?session_id=${session.id}`);

    const event = await receiver.accepted('checkout.session.completed', session.id);
    expect(event).toMatchObject({ object: 'event', livemode: false, pending_webhooks: 1 });
    expect(event.id).toMatch(/^evt_/);
    const sent = event.data.object as Stripe.Checkout.Session;
    expect(sent).toMatchObject({ status: 'complete', payment_status: 'paid', amount_total: 44000 });
    expect(sent.payment_intent).toMatch(/^pi_/);
    expect(receiver.attempts.filter((a) => a.sessionId === session.id)).toHaveLength(1);
    // The emulator records a delivery once the receiver's answer is back, just after the
    // receiver has recorded the event: wait for that record rather than racing it.
    await vi.waitFor(
      () => expect(emulator.deliveries.filter((d) => d.eventId === event.id)).toHaveLength(1),
      { timeout: 120_000, interval: 10 },
    );
    expect(emulator.deliveries.filter((d) => d.eventId === event.id)).toEqual([
      { eventId: event.id, type: 'checkout.session.completed', attempt: 1, status: 200 },
    ]);
    expect(receiver.rejected).toEqual([]);

    const after = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent'],
    });
    expect(after).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      url: null,
      customer_details: { email: 'ada@example.com', name: 'Ada Lovelace' },
    });
    expect(after.payment_intent).toMatchObject({
      id: sent.payment_intent,
      object: 'payment_intent',
      amount: 44000,
      currency: 'eur',
      status: 'succeeded',
    });

    // Paid: the page says so, and a second submit goes where the first went.
    const closed = await (await fetch(url)).text();
    expect(closed).toContain('déjà réglée');
    expect(closed).toContain(`href="${base}/stripe/success?session_id=${session.id}"`);
    const twice = await submitCard(url, { card_number: '4242424242424242' });
    expect(twice.status).toBe(303);
  });

  it('retries a delivery answered 500 with the same event id', async () => {
    const session = await stripe.checkout.sessions.create(without('customer_email'));
    receiver.failNext = 1;
    await emulator.pay(session.id);
    const event = await receiver.accepted('checkout.session.completed', session.id);
    expect(receiver.attempts.filter((a) => a.sessionId === session.id)).toEqual([
      { eventId: event.id, type: 'checkout.session.completed', sessionId: session.id, status: 500 },
      { eventId: event.id, type: 'checkout.session.completed', sessionId: session.id, status: 200 },
    ]);
    await vi.waitFor(
      () => expect(emulator.deliveries.filter((d) => d.eventId === event.id)).toHaveLength(2),
      { timeout: 120_000, interval: 10 },
    );
    expect(emulator.deliveries.filter((d) => d.eventId === event.id)).toEqual([
      { eventId: event.id, type: 'checkout.session.completed', attempt: 1, status: 500 },
      { eventId: event.id, type: 'checkout.session.completed', attempt: 2, status: 200 },
    ]);
    expect((event.data.object as Stripe.Checkout.Session).customer_details?.email).toBe(
      'customer@example.com',
    );
  });

  it('declines 4000 0000 0000 0002 (402) and refuses other numbers (400), leaving the session open', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const url = session.url ?? '';
    const declined = await submitCard(url, { card_number: '4000 0000 0000 0002' });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Votre carte a été refusée.');
    const invalid = await submitCard(url, { card_number: '1234' });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain(
      'Numéro de carte invalide. Utilisez 4242 4242 4242 4242.',
    );
    const still = await stripe.checkout.sessions.retrieve(session.id);
    expect(still).toMatchObject({ status: 'open', payment_status: 'unpaid', payment_intent: null });

    const english = await stripe.checkout.sessions.create(params({ locale: 'en' }));
    const page = await (await fetch(english.url ?? '')).text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('TEST mode — payment emulator');
    expect(page).toContain('<label for="card_number">Card number</label>');
    expect(page).toContain(`Pay ${eur(44000, 'en')}`);
    expect(page).toContain('Cancel and return to the shop');
    const refused = await submitCard(english.url ?? '', { card_number: '4000000000000002' });
    expect(await refused.text()).toContain('Your card was declined.');
  });

  it('expires an open session once, with a checkout.session.expired webhook', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ id: session.id, status: 'expired', url: null });
    const event = await receiver.accepted('checkout.session.expired', session.id);
    expect((event.data.object as Stripe.Checkout.Session).status).toBe('expired');

    const again = stripe.checkout.sessions.expire(session.id);
    await expect(again).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(again).rejects.toMatchObject({ statusCode: 400 });

    // The page no longer takes a card, and offers the way back to the shop.
    const page = await submitCard(session.url ?? '', { card_number: '4242424242424242' });
    expect(page.status).toBe(409);
    const html = await page.text();
    expect(html).toContain('a expiré');
    expect(html).toContain(`href="${base}/stripe/cancel"`);
  });

  it('refunds a paid session’s payment intent, not more than was paid', async () => {
    const session = await stripe.checkout.sessions.create(params());
    await emulator.pay(session.id);
    const { payment_intent } = await stripe.checkout.sessions.retrieve(session.id);
    const intent = payment_intent as string;

    const partial = await stripe.refunds.create({ payment_intent: intent, amount: 4500 });
    expect(partial).toMatchObject({
      object: 'refund',
      amount: 4500,
      currency: 'eur',
      payment_intent: intent,
      status: 'succeeded',
    });
    expect(partial.id).toMatch(/^re_/);
    const rest = await stripe.refunds.create({
      payment_intent: intent,
      metadata: { reason: 'return' },
    });
    expect(rest.amount).toBe(44000 - 4500);
    await expect(stripe.refunds.create({ payment_intent: intent })).rejects.toMatchObject({
      statusCode: 400,
      code: 'charge_already_refunded',
    });
    await expect(stripe.refunds.create({ payment_intent: 'pi_unknown' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'payment_intent',
    });
  });

  it('answers 401 with Stripe’s error shape without the emulator’s secret key', async () => {
    const wrong = new Stripe('sk_test_wrong_key_123456', {
      host: '127.0.0.1',
      port,
      protocol: 'http',
    });
    const call = wrong.checkout.sessions.create(params());
    await expect(call).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(call).rejects.toMatchObject({ statusCode: 401 });

    const anonymous = await fetch(`${base}/v1/checkout/sessions/cs_test_x`);
    expect(anonymous.status).toBe(401);
    const body = (await anonymous.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/API key/);
  });

  it('refuses what Stripe refuses, with 400 and the offending param', async () => {
    const refused = async (
      request: Stripe.Checkout.SessionCreateParams,
      param: string,
      message?: RegExp,
    ) => {
      const call = stripe.checkout.sessions.create(request);
      await expect(call).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      await expect(call).rejects.toMatchObject({ statusCode: 400, param });
      if (message) await expect(call).rejects.toThrow(message);
    };
    await refused(params({ expires_at: nowS() + 10 * 60 }), 'expires_at', /at least 30 minutes/);
    await refused(params({ expires_at: nowS() + 25 * 3600 }), 'expires_at', /24 hours/);
    await refused(params({ line_items: [] }), 'line_items');
    await refused(
      params({
        line_items: [
          {
            price_data: { currency: 'eur', unit_amount: 0, product_data: { name: 'x' } },
            quantity: 1,
          },
        ],
      }),
      'line_items[0][price_data][unit_amount]',
    );
    await refused(
      params({
        line_items: [
          {
            price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'x' } },
            quantity: 0,
          },
        ],
      }),
      'line_items[0][quantity]',
    );
    await refused(
      params({
        line_items: [
          {
            price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'a' } },
            quantity: 1,
          },
          {
            price_data: { currency: 'usd', unit_amount: 100, product_data: { name: 'b' } },
            quantity: 1,
          },
        ],
      }),
      'line_items[1][price_data][currency]',
    );
    await refused(without('success_url'), 'success_url');
    await refused(params({ mode: 'subscription' }), 'mode');
    await refused(
      { ...params(), payment_method_types: ['card'] } as Stripe.Checkout.SessionCreateParams,
      'payment_method_types',
      /unknown parameter/,
    );
  });

  it('leaves other paths to the app', async () => {
    const other = await fetch(`${base}/api/cart`);
    expect(other.status).toBe(404);
    expect(await other.text()).toBe('not the emulator');
    const unknownPage = await fetch(`${base}/emulator/checkout/cs_test_unknown`);
    expect(unknownPage.status).toBe(404);
    expect(await unknownPage.text()).toContain('Session de paiement introuvable');
  });
});
