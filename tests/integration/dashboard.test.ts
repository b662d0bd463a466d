// The dashboard's service (back office §2, issue 27 §4): the to-do counts (orders to ship,
// withdrawals to settle, unread messages, the required legal identity, the second factor), the
// five latest paid orders with their ids (the screen links each), and the revenue of the last 30
// days cut at Paris midnight, not UTC's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DAYS, dashboard } from '#api/admin/dashboard.ts';
import { DEFAULT_SETTINGS, invalidateSettings, saveSettings } from '#api/settings/index.ts';
import type { LegalIdentity } from '../../src/domain/legal.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';

// Thursday 26 November 2026, 10:00 in Paris.
const NOW = new Date('2026-11-26T09:00:00Z');
const now = () => NOW;

const COMPLETE: LegalIdentity = {
  name: 'Sasha Kovač EI',
  address: 'Rua da Rosa 112\n1200-389 Lisboa',
  siret: '',
  vat_mention: '',
  vat_regime: 'franchise',
  vat_rate_bp: 0,
};

describe('an empty shop', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  it('has 30 days at zero ending today, nothing to ship and no recent order', async () => {
    const d = await dashboard(t.db, { now });
    expect(d.last30).toHaveLength(DASHBOARD_DAYS);
    expect(d.last30[0]!.day).toBe('2026-10-28');
    expect(d.last30.at(-1)!.day).toBe('2026-11-26');
    expect(d.last30.every((x) => x.revenueCents === 0 && x.orders === 0)).toBe(true);
    expect(d).toMatchObject({
      revenueCents: 0,
      paidOrders: 0,
      awaitingShipment: 0,
      unreadMessages: 0,
      withdrawals: [],
      recent: [],
      // Without an administrator to ask about, nothing is nagged.
      secondFactorOn: true,
    });
  });
});

describe('a shop with sales', () => {
  let t: TestDatabase;
  const ids: Record<string, { id: string; orderNumber: string }> = {};
  beforeAll(async () => {
    t = await createTestDatabase();
    const work = await makeArtwork(t.db);
    const line = (cents: number) => [
      { artworkId: work.id, type: 'print' as const, unitPriceCents: cents },
    ];
    // 25 Nov 23:30 UTC is already 26 Nov in Paris: today's sale.
    ids.lateEvening = await makeOrder(t.db, {
      lines: line(10_000),
      paidAt: new Date('2026-11-25T23:30:00Z'),
    });
    // 25 Nov 22:59 UTC is 23:59 in Paris, still the 25th.
    ids.beforeMidnight = await makeOrder(t.db, {
      lines: line(20_000),
      paidAt: new Date('2026-11-25T22:59:00Z'),
    });
    ids.secondOnThe25th = await makeOrder(t.db, {
      lines: line(5_000),
      paidAt: new Date('2026-11-25T08:00:00Z'),
      status: 'shipped',
    });
    // 28 Oct is the first day shown; the 27th is one too far.
    ids.firstDay = await makeOrder(t.db, {
      lines: line(7_000),
      paidAt: new Date('2026-10-27T23:10:00Z'),
      status: 'delivered',
    });
    ids.tooOld = await makeOrder(t.db, {
      lines: line(9_000),
      paidAt: new Date('2026-10-27T22:50:00Z'),
      status: 'delivered',
    });
    // Not sales: cancelled (still paid, so among the recent orders), refunded, unpaid.
    ids.cancelled = await makeOrder(t.db, {
      lines: line(40_000),
      paidAt: new Date('2026-11-20T10:00:00Z'),
      status: 'cancelled',
    });
    await makeOrder(t.db, {
      lines: line(50_000),
      paidAt: new Date('2026-11-21T10:00:00Z'),
      payment: 'refunded',
      status: 'cancelled',
    });
    await makeOrder(t.db, { lines: line(60_000), paidAt: null });
    // A paid order put back to 'pending' is still to ship; a withdrawal confirmed on it.
    ids.pending = await makeOrder(t.db, {
      lines: line(3_000),
      paidAt: new Date('2026-11-10T10:00:00Z'),
      status: 'pending',
    });
    await t.db
      .updateTable('orders')
      .set({ withdrawal_requested_at: new Date('2026-11-12T10:00:00Z') })
      .where('id', '=', ids.pending.id)
      .execute();
    // A withdrawal already refunded is settled.
    const settled = await makeOrder(t.db, {
      lines: line(4_000),
      paidAt: new Date('2026-11-11T10:00:00Z'),
      payment: 'refunded',
      status: 'cancelled',
    });
    await t.db
      .updateTable('orders')
      .set({ withdrawal_requested_at: new Date('2026-11-12T11:00:00Z') })
      .where('id', '=', settled.id)
      .execute();
    await t.db
      .insertInto('contact_messages')
      .values([
        {
          kind: 'contact',
          subject: 'purchase',
          name: 'A',
          email: 'a@example.fr',
          message: 'Bonjour',
          locale: 'fr',
        },
        {
          kind: 'contact',
          subject: 'purchase',
          name: 'B',
          email: 'b@example.fr',
          message: 'Hello',
          locale: 'en',
          read_at: new Date(),
        },
      ])
      .execute();
  });
  afterAll(() => t.dispose());

  it('cuts the 30 days at Paris midnight, with the day’s revenue and number of sales', async () => {
    const { last30 } = await dashboard(t.db, { now });
    const of = (day: string) => last30.find((x) => x.day === day);
    expect(of('2026-11-26')).toEqual({ day: '2026-11-26', revenueCents: 10_000, orders: 1 });
    expect(of('2026-11-25')).toEqual({ day: '2026-11-25', revenueCents: 25_000, orders: 2 });
    expect(of('2026-10-28')).toEqual({ day: '2026-10-28', revenueCents: 7_000, orders: 1 });
    expect(of('2026-11-20')!.revenueCents).toBe(0);
    expect(of('2026-11-21')!.revenueCents).toBe(0);
    expect(last30.reduce((sum, x) => sum + x.revenueCents, 0)).toBe(
      10_000 + 25_000 + 7_000 + 3_000,
    );
  });

  it('counts what is to do: paid orders pending or confirmed, withdrawals not refunded, unread messages', async () => {
    const d = await dashboard(t.db, { now });
    // Confirmed: lateEvening, beforeMidnight; pending: pending.
    expect(d.awaitingShipment).toBe(3);
    expect(d.awaitingPending).toBe(1);
    expect(d.withdrawals).toEqual([{ id: ids.pending!.id, number: ids.pending!.orderNumber }]);
    expect(d.unreadMessages).toBe(1);
    expect(d.paidOrders).toBe(6);
  });

  it('lists the five latest paid orders, newest first, each with its id', async () => {
    const d = await dashboard(t.db, { now });
    expect(d.recent.map((o) => o.number)).toEqual(
      [ids.lateEvening, ids.beforeMidnight, ids.secondOnThe25th, ids.cancelled, ids.pending].map(
        (o) => o!.orderNumber,
      ),
    );
    expect(d.recent[0]).toMatchObject({
      id: ids.lateEvening!.id,
      totalCents: 10_000,
      statusLabel: 'Confirmée',
      date: '2026-11-25T23:30:00.000Z',
    });
  });

  it('names only the required parts of the legal identity: an empty SIRET is not missing', async () => {
    const legal = async (identity: Partial<LegalIdentity>) => {
      await saveSettings(t.db, { legal_identity: { ...COMPLETE, ...identity } });
      invalidateSettings(t.db);
    };
    expect(DEFAULT_SETTINGS.legal_identity.name).toBe('');
    await legal({});
    expect((await dashboard(t.db, { now })).legalMissing).toEqual([]);
    await legal({ name: ' ', address: '', vat_regime: '' });
    expect((await dashboard(t.db, { now })).legalMissing).toEqual([
      'Nom ou raison sociale',
      'Adresse légale',
      'Régime de TVA',
    ]);
    await legal({ siret: '123 456 789 00012' });
    expect((await dashboard(t.db, { now })).legalMissing).toEqual([]);
  });

  it('asks the signed-in administrator for a second factor until there is one', async () => {
    const admin = await makeUser(t.db, { role: 'admin' });
    expect((await dashboard(t.db, { now, userId: admin.id })).secondFactorOn).toBe(false);
    await t.db
      .insertInto('totp_credentials')
      .values({ user_id: admin.id, key: Buffer.alloc(20), enabled_at: new Date() })
      .execute();
    expect((await dashboard(t.db, { now, userId: admin.id })).secondFactorOn).toBe(true);
  });
});
