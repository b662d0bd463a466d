// Issue 24, "Data that must not be lost": erasing a customer emptied the delivery address of a
// paid order not yet shipped. An erasure asked for while orders are open waits for them, and the
// server's minute sweep carries it out once they have all closed, audited under the owner who
// asked. (The refusal itself, through the endpoint: admin-customers.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseCustomer, runErasuresDue } from '#api/admin/customers.ts';
import { openReasons, type OrderFacts } from '#api/admin/erasure.ts';
import { AppError } from '#api/http/errors.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeOrder, makeUser } from '../helpers/factories.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.dispose());

const NOW = new Date('2026-11-26T12:00:00Z');
const facts = (overrides: Partial<OrderFacts>): OrderFacts => ({
  id: 'x',
  order_number: 'GS-1',
  status: 'confirmed',
  payment_status: 'paid',
  paid_at: '2026-11-20T10:00:00Z',
  shipped_at: null,
  created_at: '2026-11-20T10:00:00Z',
  withdrawal_requested_at: null,
  refund_pending_at: null,
  ...overrides,
});

describe('which orders still need the customer', () => {
  it('names each reason, and none once the order has closed', () => {
    expect(openReasons(facts({}), null, NOW)).toEqual(['unshipped']);
    expect(openReasons(facts({ status: 'pending', payment_status: 'unpaid' }), null, NOW)).toEqual([
      'awaiting_payment',
    ]);
    expect(openReasons(facts({ status: 'shipped', shipped_at: '2026-11-21' }), null, NOW)).toEqual([
      'withdrawal_period',
    ]);
    // Delivered on the 20th: the 14 days run to 4 December.
    expect(
      openReasons(facts({ status: 'delivered' }), new Date('2026-11-20T10:00:00Z'), NOW),
    ).toEqual(['withdrawal_period']);
    expect(
      openReasons(facts({ status: 'delivered' }), new Date('2026-10-01T10:00:00Z'), NOW),
    ).toEqual([]);
    expect(
      openReasons(
        facts({ status: 'delivered', withdrawal_requested_at: '2026-10-05T10:00:00Z' }),
        new Date('2026-10-01T10:00:00Z'),
        NOW,
      ),
    ).toEqual(['refund_pending']);
    expect(
      openReasons(
        facts({ status: 'cancelled', payment_status: 'refunded', refund_pending_at: '2026-11-25' }),
        null,
        NOW,
      ),
    ).toEqual(['refund_pending']);
    expect(
      openReasons(facts({ status: 'cancelled', payment_status: 'refunded' }), null, NOW),
    ).toEqual([]);
    expect(openReasons(facts({ status: 'pending', payment_status: 'expired' }), null, NOW)).toEqual(
      [],
    );
  });
});

describe('an erasure asked for while an order is open', () => {
  it('waits for the order to close, then the sweep carries it out', async () => {
    const owner = await makeUser(t.db, { role: 'admin' });
    const actor = { id: owner.id, email: owner.email };
    const email = 'marta.silva@example.test';
    const order = await makeOrder(t.db, {
      email,
      lines: [{ artworkId: null, title: 'Seuil', type: 'print', unitPriceCents: 35_000 }],
    });
    const input = { email, confirmation: email };

    await expect(eraseCustomer(t.db, input, actor)).rejects.toSatisfy(
      (error) => error instanceof AppError && error.code === 'erase_blocked',
    );
    expect(await eraseCustomer(t.db, { ...input, whenClosed: true }, actor)).toEqual({
      scheduled: true,
      openOrders: [{ number: order.orderNumber, reasons: ['unshipped'] }],
    });
    expect(await runErasuresDue(t.db)).toBe(0);
    const kept = await t.db
      .selectFrom('orders')
      .select(['customer_name', 'shipping_address', 'erased_at'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(kept.erased_at).toBeNull();
    expect(kept.shipping_address).toMatchObject({ street: '1 rue de la Paix', city: 'Paris' });

    // Shipped and delivered; the withdrawal period runs, so it still waits.
    await t.db
      .updateTable('orders')
      .set({ status: 'delivered', shipped_at: new Date() })
      .where('id', '=', order.id)
      .execute();
    expect(await runErasuresDue(t.db)).toBe(0);
    // Fifteen days later and more, the sweep carries it out, once.
    const later = new Date(Date.now() + 20 * 86_400_000);
    expect(await runErasuresDue(t.db, later)).toBe(1);
    expect(await runErasuresDue(t.db, later)).toBe(0);
    const erased = await t.db
      .selectFrom('orders')
      .select(['customer_name', 'customer_email', 'shipping_address', 'erased_at'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(erased).toMatchObject({
      customer_name: 'Client effacé',
      customer_email: expect.stringMatching(/^efface-[0-9a-f]{8}@invalid$/) as string,
      shipping_address: { street: '', city: '', country: 'FR' },
    });
    expect(erased.erased_at).not.toBeNull();
    expect(await t.db.selectFrom('erasure_requests').selectAll().execute()).toEqual([]);
    const audits = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'after'])
      .where('entity', '=', 'customer')
      .orderBy('id')
      .execute();
    expect(audits.map((a) => a.action)).toEqual(['customer.erase_scheduled', 'customer.erase']);
    expect(audits.every((a) => a.actor_id === owner.id)).toBe(true);
    expect(audits[1]!.after).toMatchObject({ scheduled: true });
  });
});
