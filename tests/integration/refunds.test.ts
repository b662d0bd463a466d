// Refunds (issue 13 §2, docs/decisions/019) through the real `stripe` SDK and the payment emulator,
// on orders paid by a real checkout and webhook: a refund asked twice at the same moment is made
// once (one refund at Stripe, one record, one credit note referring to the invoice); the works go
// back on sale when asked; an unpaid order is refused in French; and a refund interrupted between
// Stripe and the database is finished by asking again, without refunding twice.
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToCart, newCartId } from '#api/cart/index.ts';
import { createCheckout, type CheckoutRequest } from '#api/checkout/index.ts';
import { providePublisher } from '#api/build/publish.ts';
import { provideDatabase } from '#api/db/context.ts';
import { createStripeEmulator, type StripeEmulator } from '#api/emulator/index.ts';
import { findInvoice } from '#api/invoices/index.ts';
import type { Mailer } from '#api/mail/index.ts';
import {
  NotRefundableError,
  RefundFailedError,
  refundOrder,
  unfinishedRefunds,
} from '#api/orders/refund.ts';
import { LinesRefusedError, refundLines } from '#api/orders/refund-lines.ts';
import { createEmulatedPayments, providePayments, type Payments } from '#api/payments/index.ts';
import { handleStripeWebhook } from '#api/payments/webhook.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { until } from '../helpers/wait.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';
import { checkoutRequest } from '../helpers/checkout.ts';

let t: TestDatabase;
let server: http.Server;
let emulator: StripeEmulator;
let payments: Payments;
let siteUrl: string;
let owner: { id: string; email: string };
const mailer: Mailer = { description: 'memory', send: () => Promise.resolve() };
const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
/** Every refund the emulator answered with (replays of an idempotent request included). */
const refundAnswers: Array<{ id: string; payment_intent: string; amount: number }> = [];
const publishes: string[] = [];

/** A refund the emulator created (not replayed): distinct ids per payment. */
const refundsOf = (paymentIntent: string) =>
  new Set(refundAnswers.filter((r) => r.payment_intent === paymentIntent).map((r) => r.id));

const orderRow = (id: string) =>
  t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const work = (id: number) =>
  t.db
    .selectFrom('artworks')
    .select(['is_sold', 'stock', 'is_available'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const request = (items: CheckoutRequest['items']): CheckoutRequest =>
  checkoutRequest(items, { customer: { name: 'Ana Kovač', email: 'ana@example.test' } });

/** Buys `items` through checkout, the emulator's payment page and the webhook. */
async function buy(items: CheckoutRequest['items']) {
  const cartId = newCartId();
  for (const item of items) await addToCart(t.db, cartId, item.artworkId, item.quantity);
  const { orderId, sessionId } = await createCheckout({ db: t.db, payments }, request(items), {
    cartId,
    ip: '192.0.2.10',
    siteUrl,
  });
  await emulator.pay(sessionId);
  await until('the payment', async () => (await orderRow(orderId)).payment_status === 'paid');
  const order = await orderRow(orderId);
  return { id: orderId, paymentIntent: order.stripe_payment_intent_id!, total: order.total_cents };
}

beforeAll(async () => {
  t = await createTestDatabase({ maxConnections: 20 });
  provideDatabase(t);
  providePublisher({
    request: (reason) => publishes.push(reason ?? ''),
    status: () => ({
      state: 'idle',
      lastSuccessAt: null,
      lastError: null,
      version: 'test',
      pending: false,
      changes: [],
      changeCount: 0,
      lastChanges: [],
      etaMs: null,
      buildMs: 6000,
    }),
  });
  owner = await makeUser(t.db, { role: 'admin' });
  server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/v1/refunds') {
      // Listen to the emulator's answers: every refund object it sends back.
      const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
      res.end = ((...args: unknown[]) => {
        const body = JSON.parse(String(args[0])) as { object?: string };
        if (body.object === 'refund') refundAnswers.push(body as (typeof refundAnswers)[number]);
        return end(...args);
      }) as typeof res.end;
    }
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
          () => res.writeHead(500).end(),
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
    retryDelaysMs: [50, 100],
  });
  payments = createEmulatedPayments(port, webhookSecret, emulator.secretKey);
  providePayments(payments);
});

afterAll(async () => {
  providePublisher(undefined);
  emulator?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.dispose();
});

describe('refundOrder', () => {
  it(
    'refunds once when asked twice at the same moment, with one credit note referring to the invoice',
    { tags: ['concurrency'] },
    async () => {
      const original = await makeArtwork(t.db, { price_cents: 410_000 });
      const order = await buy([{ artworkId: original.id, quantity: 1 }]);
      const invoice = (await findInvoice(t.db, order.id))!;
      expect(invoice.number).toMatch(/^F-\d{6}$/);

      const options = { actor: owner, restock: false, reason: 'cancellation' };
      const results = await Promise.all([
        refundOrder(t.db, order.id, options),
        refundOrder(t.db, order.id, options),
      ]);
      expect(results.map((r) => r.already).sort()).toEqual([false, true]);
      expect(results[0].stripeRefundId).toMatch(/^re_/);
      expect(results[1].stripeRefundId).toBe(results[0].stripeRefundId);
      expect(results[0].creditNote?.number).toBe(results[1].creditNote?.number);

      // Stripe's side: one refund of the whole amount, nothing left to refund.
      expect(refundsOf(order.paymentIntent)).toEqual(new Set([results[0].stripeRefundId]));
      const refund = await payments.stripe.refunds.retrieve(results[0].stripeRefundId!);
      expect(refund).toMatchObject({ amount: order.total, payment_intent: order.paymentIntent });
      await expect(
        payments.stripe.refunds.create({ payment_intent: order.paymentIntent }),
      ).rejects.toMatchObject({ code: 'charge_already_refunded' });

      // Ours: recorded once, cancelled, a credit note with its own number referring to the invoice.
      expect(await orderRow(order.id)).toMatchObject({
        payment_status: 'refunded',
        status: 'cancelled',
        refunded_cents: order.total,
        stripe_refund_id: results[0].stripeRefundId,
      });
      const note = (await findInvoice(t.db, order.id, 'credit_note'))!;
      expect(note.number).toMatch(/^A-\d{6}$/);
      expect(note.totalCents).toBe(-order.total);
      expect(note.snapshot.refersTo?.number).toBe(invoice.number);
      const refersTo = await t.db
        .selectFrom('invoices')
        .select('refers_to')
        .where('id', '=', note.id)
        .executeTakeFirstOrThrow();
      expect(refersTo.refers_to).toBe(invoice.id);
      const audits = await t.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity_id', '=', order.id)
        .orderBy('id')
        .execute();
      // The status change is in the history like any other (issue 26: '→ Annulée').
      expect(audits.map((a) => a.action)).toEqual([
        'order.refund_requested',
        'order.refund',
        'order.status',
      ]);
      // Without restock the original stays sold.
      expect(await work(original.id)).toMatchObject({ is_sold: true });

      // Asked again later: the same answer, nothing new anywhere.
      const later = await refundOrder(t.db, order.id, options);
      expect(later).toMatchObject({ already: true, stripeRefundId: results[0].stripeRefundId });
      expect(refundsOf(order.paymentIntent).size).toBe(1);
    },
  );

  it('puts an original back on sale and gives print stock back when asked', async () => {
    const original = await makeArtwork(t.db, { price_cents: 300_000 });
    const print = await makeArtwork(t.db, { artwork_type: 'print', stock: 5, price_cents: 35_000 });
    const order = await buy([
      { artworkId: original.id, quantity: 1 },
      { artworkId: print.id, quantity: 2 },
    ]);
    expect(await work(original.id)).toMatchObject({ is_sold: true, stock: 0 });
    expect(await work(print.id)).toMatchObject({ stock: 3 });
    const published = publishes.length;

    const result = await refundOrder(t.db, order.id, {
      actor: owner,
      restock: true,
      reason: 'withdrawal',
    });
    expect(result.restocked).toEqual([
      { artworkId: original.id, type: 'original', quantity: 1 },
      { artworkId: print.id, type: 'print', quantity: 2 },
    ]);
    expect(await work(original.id)).toEqual({ is_sold: false, stock: 1, is_available: true });
    expect(await work(print.id)).toMatchObject({ stock: 5 });
    expect(publishes.length).toBe(published + 1);
    const restock = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('entity_id', '=', order.id)
      .where('action', '=', 'order.restock')
      .execute();
    expect(restock).toEqual([{ action: 'order.restock', actor_email: owner.email }]);
    // Buyable again: a new checkout holds the original.
    const cartId = newCartId();
    await addToCart(t.db, cartId, original.id, 1);
    const again = await createCheckout(
      { db: t.db, payments },
      request([{ artworkId: original.id, quantity: 1 }]),
      { cartId, ip: '192.0.2.10', siteUrl },
    );
    expect(again.sessionId).toMatch(/^cs_/);
  });

  it('refuses an unpaid or unknown order, in French, without calling Stripe', async () => {
    const unpaid = await makeOrder(t.db, {
      lines: [{ artworkId: null, type: 'print', unitPriceCents: 35_000 }],
      paidAt: null,
    });
    const before = refundAnswers.length;
    for (const id of [unpaid.id, randomUUID(), 'not-an-id']) {
      const error = await refundOrder(t.db, id, {
        actor: owner,
        restock: true,
        reason: 'cancellation',
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotRefundableError);
      expect((error as NotRefundableError).status).toBe(409);
    }
    const error = (await refundOrder(t.db, unpaid.id, {
      actor: owner,
      restock: false,
      reason: 'cancellation',
    }).catch((e: unknown) => e)) as NotRefundableError;
    expect(error.reason).toBe('not_paid');
    expect(error.message).toBe(
      'Cette commande ne peut pas être remboursée : elle n’a pas été payée.',
    );
    expect(refundAnswers.length).toBe(before);
    expect(await orderRow(unpaid.id)).toMatchObject({
      payment_status: 'unpaid',
      refunded_cents: 0,
    });
  });

  it('finishes a refund interrupted between Stripe and the database, without refunding twice', async () => {
    const print = await makeArtwork(t.db, { artwork_type: 'print', stock: 4, price_cents: 35_000 });
    const order = await buy([{ artworkId: print.id, quantity: 1 }]);
    // The database refuses the record once Stripe has refunded: as if the process stopped there.
    await sql`CREATE FUNCTION refuse_refund_record() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the server stopped'; END $$`.execute(t.db);
    await sql`CREATE TRIGGER refuse_refund_record BEFORE UPDATE ON orders FOR EACH ROW
      WHEN (NEW.refunded_cents > 0) EXECUTE FUNCTION refuse_refund_record()`.execute(t.db);
    const options = { actor: owner, restock: true, reason: 'cancellation' };
    await expect(refundOrder(t.db, order.id, options)).rejects.toThrow('the server stopped');
    await sql`DROP TRIGGER refuse_refund_record ON orders`.execute(t.db);
    await sql`DROP FUNCTION refuse_refund_record()`.execute(t.db);

    expect(refundsOf(order.paymentIntent).size).toBe(1);
    expect(await orderRow(order.id)).toMatchObject({ payment_status: 'paid', refunded_cents: 0 });
    expect(await findInvoice(t.db, order.id, 'credit_note')).toBeNull();
    expect(await work(print.id)).toMatchObject({ stock: 3 });
    const unfinished = await unfinishedRefunds(t.db);
    expect(unfinished).toContainEqual(
      expect.objectContaining({ orderId: order.id, restock: true, reason: 'cancellation' }),
    );

    const finished = await refundOrder(t.db, order.id, options);
    expect(finished.already).toBe(false);
    expect(refundsOf(order.paymentIntent)).toEqual(new Set([finished.stripeRefundId]));
    expect(await orderRow(order.id)).toMatchObject({
      payment_status: 'refunded',
      refunded_cents: order.total,
    });
    expect(await work(print.id)).toMatchObject({ stock: 4 });
    expect((await unfinishedRefunds(t.db)).map((u) => u.orderId)).not.toContain(order.id);
  });

  it('records nothing but the request when Stripe refuses, and says so in French', async () => {
    const order = await makeOrder(t.db, {
      lines: [{ artworkId: null, type: 'print', unitPriceCents: 35_000 }],
    });
    await t.db
      .updateTable('orders')
      .set({ stripe_payment_intent_id: 'pi_unknown_to_stripe' })
      .where('id', '=', order.id)
      .execute();
    const error = await refundOrder(t.db, order.id, {
      actor: owner,
      restock: false,
      reason: 'cancellation',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefundFailedError);
    expect((error as RefundFailedError).status).toBe(502);
    expect((error as Error).message).toContain('Le remboursement n’a pas pu être effectué');
    expect(await orderRow(order.id)).toMatchObject({ payment_status: 'paid', refunded_cents: 0 });
    expect(await findInvoice(t.db, order.id, 'credit_note')).toBeNull();
    expect((await unfinishedRefunds(t.db)).map((u) => u.orderId)).toContain(order.id);
  });
});

describe('refundLines (issue 27: some of the works)', () => {
  const items = (orderId: string) =>
    t.db
      .selectFrom('order_items')
      .select(['id', 'artwork_id', 'refunded_at'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  const notes = (orderId: string) =>
    t.db
      .selectFrom('invoices')
      .select(['kind', 'number', 'total_cents', 'snapshot', 'refers_to'])
      .where('order_id', '=', orderId)
      .orderBy('kind')
      .orderBy('sequence')
      .execute();

  it('refunds the chosen print at its price, with a credit note for it alone; then the rest', async () => {
    const original = await makeArtwork(t.db, { price_cents: 300_000 });
    const print = await makeArtwork(t.db, { artwork_type: 'print', stock: 5, price_cents: 35_000 });
    const order = await buy([
      { artworkId: original.id, quantity: 1 },
      { artworkId: print.id, quantity: 2 },
    ]);
    const [originalLine, printLine] = await items(order.id);
    expect(printLine!.artwork_id).toBe(print.id);
    const copies = () =>
      t.db
        .selectFrom('edition_copies')
        .select(['number', 'state'])
        .where('order_id', '=', order.id)
        .orderBy('number')
        .execute();
    expect((await copies()).map((c) => c.state)).toEqual(['sold', 'sold']);
    const certificates = () =>
      t.db
        .selectFrom('certificates')
        .select(['order_item_id', 'state'])
        .where('order_id', '=', order.id)
        .execute();

    // The print's two copies: 700 €, computed from the order's lines; the shipping stays.
    const result = await refundLines(t.db, order.id, [printLine!.id], {
      actor: owner,
      restock: true,
    });
    expect(result.refundedCents).toBe(70_000);
    expect(result.creditNote.totalCents).toBe(-70_000);
    expect(result.restocked).toEqual([{ artworkId: print.id, type: 'print', quantity: 2 }]);
    expect(await work(print.id)).toMatchObject({ stock: 5 });
    expect(await work(original.id)).toMatchObject({ is_sold: true });
    const refunds = [...refundsOf(order.paymentIntent)];
    expect(refunds).toHaveLength(1);
    expect(refundAnswers.find((r) => r.id === refunds[0])!.amount).toBe(70_000);
    const after = await orderRow(order.id);
    expect(after).toMatchObject({ payment_status: 'paid', refunded_cents: 70_000 });
    expect(after.status).not.toBe('cancelled');
    const lines = await items(order.id);
    expect(lines.map((l) => l.refunded_at !== null)).toEqual([false, true]);
    // The print's numbers come back (restocked: free again); the original's certificate stands.
    expect((await copies()).map((c) => c.state)).toEqual(['free', 'free']);
    for (const c of await certificates())
      expect(c.state).toBe(c.order_item_id === originalLine!.id ? 'valid' : 'revoked');
    const [note] = (await notes(order.id)).filter((n) => n.kind === 'credit_note');
    const snapshot = (
      typeof note!.snapshot === 'string' ? JSON.parse(note!.snapshot) : note!.snapshot
    ) as {
      lines: { title: string; lineTotalCents: number }[];
      shippingCents: number;
      totalCents: number;
      reason: string;
    };
    expect(snapshot.lines).toHaveLength(1);
    expect(snapshot.lines[0]!.lineTotalCents).toBe(-70_000);
    expect(snapshot).toMatchObject({ shippingCents: 0, totalCents: -70_000, reason: 'partial' });
    expect(note!.refers_to).not.toBeNull();
    const audited = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('entity_id', '=', order.id)
      .where('action', 'in', ['order.lines_refund_requested', 'order.refund'])
      .orderBy('id')
      .execute();
    expect(audited).toEqual([
      { action: 'order.lines_refund_requested', actor_email: owner.email },
      { action: 'order.refund', actor_email: owner.email },
    ]);

    // The same line again, or every line left: refused in French, nothing sent to Stripe.
    await expect(
      refundLines(t.db, order.id, [printLine!.id], { actor: owner, restock: false }),
    ).rejects.toMatchObject({ reason: 'already', message: /déjà/ });
    await expect(
      refundLines(t.db, order.id, [originalLine!.id], { actor: owner, restock: false }),
    ).rejects.toBeInstanceOf(LinesRefusedError);
    expect(refundsOf(order.paymentIntent).size).toBe(1);

    // The whole refund then gives back what remains, with a second credit note for it.
    const rest = await refundOrder(t.db, order.id, {
      actor: owner,
      restock: false,
      reason: 'cancellation',
    });
    expect(rest.refundedCents).toBe(order.total - 70_000);
    expect(await orderRow(order.id)).toMatchObject({
      payment_status: 'refunded',
      status: 'cancelled',
      refunded_cents: order.total,
    });
    const credit = (await notes(order.id)).filter((n) => n.kind === 'credit_note');
    expect(credit.map((n) => n.total_cents)).toEqual([-70_000, -(order.total - 70_000)]);
    expect(refundsOf(order.paymentIntent).size).toBe(2);
    expect((await items(order.id)).every((l) => l.refunded_at !== null)).toBe(true);
    // Its certificate goes with it.
    expect((await certificates()).every((c) => c.state !== 'valid')).toBe(true);
  });
});
