// Issue 14 §3, "Faults, on purpose" (the shop and its tools: tests/helpers/faults.ts): the real
// server is killed with SIGKILL at a moment a shop can least afford, and started again on the
// same DATA_DIR and dist folder. Then the orders, holds, stock, invoices and mails — counted once
// the server is stopped — and the served site must show nothing lost and nothing done twice.
// Moments inside one request are reached through the server's test fault points (api/faults.ts,
// GALERIE_FAULT_PAUSE): the process says it got there and waits, and is killed there.
//
// Here: a late payment (its hold ended, the work taken by another buyer) killed before its refund.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredHolds } from '#api/checkout/index.ts';
import type { Database } from '#api/db/index.ts';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';
import { testDbKind } from '../helpers/db.ts';
import { FaultShop } from '../helpers/faults.ts';
import { until } from '../helpers/wait.ts';

// Processes, not the database kind, are under test: run on the embedded database.
describe.skipIf(testDbKind() !== 'pglite')('a server killed with SIGKILL and started again', () => {
  let shop: FaultShop;
  beforeAll(async () => {
    shop = await FaultShop.open('faults-refund');
  });
  afterAll(() => shop?.close());

  it('refunds once a late payment whose server was killed before the refund', async () => {
    // A checkout whose hold ends unpaid (the sweeper, as after half an hour)…
    await shop.start();
    const late = await shop.checkout('late@example.test', [
      { artworkId: shop.works['O6'], quantity: 1 },
    ]);
    expect(late.reply.status, late.reply.text).toBe(201);
    await shop.stop();
    await shop.inspect(async (db) => {
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
    await shop.start('fulfil-refund');
    const taker = await shop.checkout('taker@example.test', [
      { artworkId: shop.works['O6'], quantity: 1 },
    ]);
    expect(taker.reply.status, taker.reply.text).toBe(201);
    expect(await shop.pay(late.sessionId)).toBe(303);
    await until('the server to pause at fulfil-refund', () =>
      shop.server!.output().includes('fault point fulfil-refund: paused'),
    );
    await shop.kill9();
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
    const atKill = await shop.inspectKilled(refundOf);
    expect(atKill).toMatchObject({
      payment_status: Payment.refunded,
      status: Fulfilment.cancelled,
      refunded_cents: 0,
    });
    expect(atKill.refund_pending_at).not.toBeNull();
    const refundsAtStripe = () => {
      return shop
        .emulatorState()
        .store.refunds.filter((r) => r.payment_intent === atKill.stripe_payment_intent_id);
    };
    expect(refundsAtStripe()).toEqual([]);

    // Started again, the server makes the refund at once (reconciliation), and only once.
    await shop.start();
    await until('the pending refund to be made', () =>
      shop.server!.output().includes(`order ${late.orderNumber}: its refund had not been made`),
    );
    await shop.stop();
    expect(refundsAtStripe()).toEqual([expect.objectContaining({ amount: atKill.total_cents })]);
    const after = await shop.inspect(refundOf);
    expect(after).toMatchObject({
      payment_status: Payment.refunded,
      refunded_cents: atKill.total_cents,
      refund_pending_at: null,
    });
    expect(after.stripe_refund_id).toMatch(/^re_/);
    // The work stays with the buyer who took it, and no mail told anyone of a sale.
    const taken = await shop.inspect((db) => shop.facts(db, 'taker@example.test'));
    expect(taken.orders).toMatchObject([{ payment_status: Payment.unpaid }]);
    expect(taken.artworks[shop.works['O6']]).toEqual({ stock: 1, sold: false });
    expect(taken.activeHolds.filter((h) => h.artwork_id === shop.works['O6'])).toEqual([
      { order_id: taken.orders[0]!.id, artwork_id: shop.works['O6'] },
    ]);
    expect(shop.mailsOf(late.orderNumber, 'late@example.test')).toEqual({ buyer: 0, gallery: 0 });
  });
});
