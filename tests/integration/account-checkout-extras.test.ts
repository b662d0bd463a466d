// Issue 25 §9, the account side: the account page shows a withdrawal on its order (sent and
// awaiting its mailed confirmation, confirmed, refunded — with the statement's date), and a
// signed-in customer's checkout starts from their own details and last address, never anyone
// else's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAccountOverview } from '#api/accounts/orders.ts';
import { afterAnswerSettled } from '#api/background.ts';
import { checkoutPrefill } from '#api/checkout/prefill.ts';
import type { Mailer } from '#api/mail/index.ts';
import { handleWithdrawal, type WithdrawalDeps } from '#api/withdrawal/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeOrder, makeUser } from '../helpers/factories.ts';

let t: TestDatabase;
const mailer: Mailer = { description: 'memory', send: () => Promise.resolve() };
const deps = (): WithdrawalDeps => ({ db: t.db, mailer, siteUrl: 'http://localhost:4321' });

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.dispose();
});

let ips = 0;
const newIp = () => `203.0.113.${++ips}`;

/** A paid order of `user`, placed while signed in to the account. */
async function ownOrder(user: { id: string; email: string }, address?: object, createdAt?: Date) {
  const order = await makeOrder(t.db, {
    email: user.email,
    lines: [{ artworkId: null, type: 'print', unitPriceCents: 35000 }],
    ...(createdAt ? { createdAt, paidAt: createdAt } : {}),
  });
  await t.db
    .updateTable('orders')
    .set({
      user_id: user.id,
      ...(address ? { shipping_address: JSON.stringify(address) } : {}),
    })
    .where('id', '=', order.id)
    .execute();
  return order;
}

const withdrawalOf = async (userId: string, number: string) =>
  (await getAccountOverview(t.db, { id: userId })).orders.find((o) => o.number === number)
    ?.withdrawal;

describe('the account page shows a withdrawal on its order', () => {
  it('none, then sent from the form (to confirm), then confirmed, then refunded — with its date', async () => {
    const user = await makeUser(t.db);
    const order = await ownOrder(user);
    const other = await ownOrder(user);
    expect(await withdrawalOf(user.id, order.orderNumber)).toBeNull();

    // Sent without signing in: recorded, pending its mailed confirmation.
    const sentAt = new Date();
    await handleWithdrawal(
      deps(),
      { orderNumber: order.orderNumber, email: user.email, step: 'confirm', locale: 'fr' },
      { ip: newIp() },
    );
    await afterAnswerSettled();
    const requested = await withdrawalOf(user.id, order.orderNumber);
    expect(requested).toMatchObject({ state: 'requested', refundedAt: null, refundedCents: 0 });
    const date = Date.parse(requested!.requestedAt);
    expect(date).toBeGreaterThanOrEqual(sentAt.getTime() - 1000);

    // Confirmed signed in: the statement keeps its first date.
    await handleWithdrawal(
      deps(),
      { orderNumber: order.orderNumber, email: user.email, step: 'confirm', locale: 'fr' },
      { ip: newIp(), user: { id: user.id } },
    );
    await afterAnswerSettled();
    expect(await withdrawalOf(user.id, order.orderNumber)).toEqual({
      state: 'confirmed',
      requestedAt: requested!.requestedAt,
      refundedAt: null,
      refundedCents: 0,
    });

    // Refunded, as the refund records it on the order.
    const refundedAt = new Date('2026-11-20T10:15:00Z');
    await t.db
      .updateTable('orders')
      .set({ payment_status: 'refunded', refunded_at: refundedAt, refunded_cents: 35000 })
      .where('id', '=', order.id)
      .execute();
    expect(await withdrawalOf(user.id, order.orderNumber)).toEqual({
      state: 'refunded',
      requestedAt: requested!.requestedAt,
      refundedAt: refundedAt.toISOString(),
      refundedCents: 35000,
    });
    // The other order has none.
    expect(await withdrawalOf(user.id, other.orderNumber)).toBeNull();
  });

  it('does not show a statement the mailbox disowned', async () => {
    const user = await makeUser(t.db);
    const order = await ownOrder(user);
    await handleWithdrawal(
      deps(),
      { orderNumber: order.orderNumber, email: user.email, step: 'confirm', locale: 'en' },
      { ip: newIp() },
    );
    await afterAnswerSettled();
    await t.db
      .updateTable('withdrawals')
      .set({ state: 'disowned', disowned_at: new Date() })
      .where('order_id', '=', order.id)
      .execute();
    expect(await withdrawalOf(user.id, order.orderNumber)).toBeNull();
  });
});

describe("a signed-in customer's checkout starts from their own details", () => {
  const paris = {
    street: '12 rue des Archives',
    city: 'Paris',
    postalCode: '75004',
    country: 'FR',
    additionalInfo: 'Code 4512B',
  };
  const lisbon = { street: 'Rua da Rosa 3', city: 'Lisboa', postalCode: '1200-389', country: 'PT' };

  it('name and email of the account, the address of its last order', async () => {
    const user = await makeUser(t.db, { full_name: 'Inès Collectionneuse' });
    await ownOrder(user, lisbon, new Date('2026-01-10T10:00:00Z'));
    await ownOrder(user, paris, new Date('2026-06-10T10:00:00Z'));
    expect(await checkoutPrefill(t.db, user)).toEqual({
      name: 'Inès Collectionneuse',
      email: user.email,
      shippingAddress: paris,
    });
  });

  it('no order: name and email only', async () => {
    const user = await makeUser(t.db, { full_name: 'Jo' });
    expect(await checkoutPrefill(t.db, user)).toEqual({
      name: 'Jo',
      email: user.email,
      shippingAddress: null,
    });
  });

  it("never another customer's address, nor a guest checkout typed with the account's email", async () => {
    const user = await makeUser(t.db, { full_name: 'Lou' });
    const stranger = await makeUser(t.db);
    await ownOrder(stranger, paris);
    // Anyone may start a guest checkout with this email and an address of their own.
    const planted = await makeOrder(t.db, {
      email: user.email,
      paidAt: null,
      lines: [{ artworkId: null, type: 'print', unitPriceCents: 35000 }],
    });
    await t.db
      .updateTable('orders')
      .set({ shipping_address: JSON.stringify(lisbon) })
      .where('id', '=', planted.id)
      .execute();
    expect(await checkoutPrefill(t.db, user)).toEqual({
      name: 'Lou',
      email: user.email,
      shippingAddress: null,
    });
  });

  it('an address the form would refuse today (a country no longer offered) is left out', async () => {
    const user = await makeUser(t.db, { full_name: 'Max' });
    await ownOrder(user, { ...paris, country: 'US' });
    expect((await checkoutPrefill(t.db, user))?.shippingAddress).toBeNull();
  });
});
