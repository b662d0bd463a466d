// The editions migration (20261126_1800_editions, docs/decisions/045) on a shop that already sold
// prints: the paid orders' copies get the lowest numbers in the order they were paid, then the
// copies the stock says were sold elsewhere are written in as sold before the register; refunded
// or cancelled orders, copies held by a payment in progress, open editions and originals get none.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo } from '#api/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeArtwork, makeOrder } from '../helpers/factories.ts';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase({ empty: true });
  await migrateTo(t.db, '20261126_1700_collector_details');
});
afterAll(() => t.dispose());

describe('20261126_1800_editions', () => {
  it('writes in the copies sold before the register, paid orders first', async () => {
    const print = (await makeArtwork(t.db, { artwork_type: 'print', edition_size: 10, stock: 3 }))
      .id;
    const open = (await makeArtwork(t.db, { artwork_type: 'print', edition_size: null, stock: 4 }))
      .id;
    const line = (artworkId: number, quantity: number) => ({
      artworkId,
      type: 'print' as const,
      unitPriceCents: 20_000,
      quantity,
    });
    // Paid second (listed first), paid first, refunded, cancelled, and one still being paid.
    const later = await makeOrder(t.db, {
      lines: [line(print, 1)],
      paidAt: new Date('2026-03-02T10:00:00Z'),
    });
    const earlier = await makeOrder(t.db, {
      lines: [line(print, 2), line(open, 1)],
      paidAt: new Date('2026-03-01T10:00:00Z'),
    });
    await makeOrder(t.db, {
      lines: [line(print, 1)],
      paidAt: new Date('2026-02-01T10:00:00Z'),
      payment: 'refunded',
      status: 'cancelled',
    });
    await makeOrder(t.db, {
      lines: [line(print, 1)],
      paidAt: new Date('2026-02-02T10:00:00Z'),
      status: 'cancelled',
    });
    const paying = await makeOrder(t.db, { lines: [line(print, 1)], paidAt: null });
    await sql`INSERT INTO holds (order_id, artwork_id, artwork_type, quantity, state, expires_at, created_at)
      VALUES (${paying.id}, ${print}, 'print', 1, 'active', now() + interval '30 minutes', now())`.execute(
      t.db,
    );

    await migrateTo(t.db, '20261126_1800_editions');

    const rows = await t.db
      .selectFrom('edition_copies as c')
      .leftJoin('order_items as i', 'i.id', 'c.order_item_id')
      .select(['c.artwork_id', 'c.kind', 'c.number', 'c.state', 'c.order_id', 'i.quantity'])
      .orderBy('c.artwork_id')
      .orderBy('c.number')
      .execute();
    // 10 − 3 in stock − 1 held = 6 sold: 3 through the site, 3 elsewhere.
    expect(rows.map((r) => [r.number, r.state, r.order_id])).toEqual([
      [1, 'sold', earlier.id],
      [2, 'sold', earlier.id],
      [3, 'sold', later.id],
      [4, 'sold', null],
      [5, 'sold', null],
      [6, 'sold', null],
    ]);
    expect(new Set(rows.map((r) => r.artwork_id))).toEqual(new Set([print]));
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['numbered']));
    const work = await t.db
      .selectFrom('artworks')
      .select(['edition_ea', 'edition_hc'])
      .where('id', '=', print)
      .executeTakeFirstOrThrow();
    expect(work).toEqual({ edition_ea: 0, edition_hc: 0 });

    // The constraints stand on their own.
    const insert = (values: Record<string, unknown>) =>
      t.db
        .insertInto('edition_copies')
        .values({ artwork_id: print, number: 9, state: 'sold', ...values })
        .execute();
    await expect(insert({ number: 1 })).rejects.toThrow(/edition_copies_one_per_number/);
    await expect(insert({ state: 'returned' })).rejects.toThrow(/edition_copies_returned_when/);
    await expect(insert({ state: 'retired' })).rejects.toThrow(/edition_copies_retired_when/);
    await expect(insert({ state: 'lost' })).rejects.toThrow(/check/);
    await expect(insert({ number: 0 })).rejects.toThrow(/check/);
  });
});
