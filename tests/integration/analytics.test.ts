// The analytics figures (issue 12) against a real database: a hand-written month of sales whose
// every card, bucket, type split, best seller, customer figure and conversion rate is written out
// by hand (Paris days across the October DST change included), empty periods, and a generated
// year of paid, refunded, cancelled and abandoned orders checked against a plain reference
// computation for each period.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytics } from '#api/admin/analytics.ts';
import { dashboard } from '#api/admin/dashboard.ts';
import { provideDatabase } from '#api/db/context.ts';
import { parisDay } from '#api/orders/sales.ts';
import {
  ANALYTICS_PERIODS,
  PERIOD_DAYS,
  percentChange,
  type Analytics,
} from '../../src/schemas/analytics.ts';
import { GET } from '../../src/pages/api/admin/analytics.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeOrder, makeUser, makeWorkWithPrint } from '../helpers/factories.ts';

// Monday 23 November 2026, 11:00 in Paris.
const NOW = new Date('2026-11-23T10:00:00Z');
const now = () => NOW;

describe('percent change (§5)', () => {
  it('is 0 from 0 to 0, 100 from 0 to anything, −100 from anything to 0', () => {
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(5, 0)).toBe(100);
    expect(percentChange(0, 5)).toBe(-100);
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(75, 100)).toBe(-25);
  });
});

describe('an empty shop', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  it('answers zeros with every bucket present', async () => {
    const expected = { '7d': 7, '30d': 30, '90d': 13, '1y': 13 };
    for (const period of ANALYTICS_PERIODS) {
      const a = await analytics(t.db, period, { now });
      expect(a.summary).toEqual({ revenueCents: 0, orders: 0, averageCents: 0 });
      expect(a.change).toEqual({ revenue: 0, orders: 0, average: 0 });
      expect(a.sales).toHaveLength(expected[period]);
      expect(a.sales.every((b) => b.revenueCents === 0 && b.orders === 0)).toBe(true);
      expect(a.sales[0]!.from).toBe(a.from);
      expect(a.sales.at(-1)!.to).toBe('2026-11-23');
      expect(a.monthly.thisYear).toEqual(Array(12).fill(0));
      expect(a.monthly.lastYear).toEqual(Array(12).fill(0));
      expect(a.top).toEqual([]);
      expect(a.mostViewed).toEqual([]);
      expect(a.customers).toEqual({
        total: 0,
        newLast30Days: 0,
        returning: 0,
        conversionRate: 0,
        buyers: 0,
        visitors: 0,
        pageViews: 0,
      });
    }
  });

  it('labels days, weeks and months as §9 does', async () => {
    const week = await analytics(t.db, '7d', { now });
    expect(week.sales.map((b) => b.label)).toEqual([
      'Mar',
      'Mer',
      'Jeu',
      'Ven',
      'Sam',
      'Dim',
      'Lun',
    ]);
    const month = await analytics(t.db, '30d', { now });
    expect(month.sales[0]!.label).toBe('J-29');
    expect(month.sales.at(-2)!.label).toBe('J-1');
    expect(month.sales.at(-1)!.label).toBe('Auj.');
    const quarter = await analytics(t.db, '90d', { now });
    expect(quarter.sales.map((b) => b.label)).toEqual(
      Array.from({ length: 13 }, (_, i) => `Sem ${i + 1}`),
    );
    // 90 days = 12 weeks of 7 days ending today, and 6 days before them.
    expect(quarter.sales[0]).toMatchObject({ from: '2026-08-26', to: '2026-08-31' });
    expect(quarter.sales[1]).toMatchObject({ from: '2026-09-01', to: '2026-09-07' });
    expect(quarter.sales.at(-1)).toMatchObject({ from: '2026-11-17', to: '2026-11-23' });
    const year = await analytics(t.db, '1y', { now });
    expect(year.from).toBe('2025-11-24');
    expect(year.sales.map((b) => b.label)).toEqual([
      'Nov. 25',
      'Déc. 25',
      'Janv. 26',
      'Févr. 26',
      'Mars 26',
      'Avr. 26',
      'Mai 26',
      'Juin 26',
      'Juil. 26',
      'Août 26',
      'Sept. 26',
      'Oct. 26',
      'Nov. 26',
    ]);
    expect(year.sales[0]).toMatchObject({ from: '2025-11-24', to: '2025-11-30' });
    expect(year.sales.at(-1)).toMatchObject({ from: '2026-11-01', to: '2026-11-23' });
  });
});

describe('buyers without counted visits', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    const work = await makeArtwork(t.db);
    await makeOrder(t.db, {
      lines: [{ artworkId: work.id, type: 'original', unitPriceCents: 100_000 }],
      paidAt: new Date('2026-11-22T10:00:00Z'),
    });
    await t.db.insertInto('visitor_days').values({ day: '2026-11-10', visitors: 7 }).execute();
  });
  afterAll(() => t.dispose());

  it('never converts above 100 %: every buyer visited', async () => {
    const a = await analytics(t.db, '7d', { now });
    expect(a.customers).toMatchObject({ buyers: 1, visitors: 0, conversionRate: 100 });
    const month = await analytics(t.db, '30d', { now });
    expect(month.customers).toMatchObject({ buyers: 1, visitors: 7 });
    expect(month.customers.conversionRate).toBe(14.3);
  });
});

describe('a month of sales written out by hand', () => {
  let t: TestDatabase;
  let work: { original: number; print: number };
  let workB: number;
  let keyA: string;
  let titleA: string;
  let titleP: string;

  beforeAll(async () => {
    t = await createTestDatabase();
    work = await makeWorkWithPrint(t.db);
    const a = await t.db
      .selectFrom('artworks')
      .select(['id', 'slug', 'title_fr'])
      .where('id', 'in', [work.original, work.print])
      .orderBy('id')
      .execute();
    keyA = a[0]!.slug.replace(/-original$/, '');
    titleA = a[0]!.title_fr;
    titleP = a[1]!.title_fr;
    workB = (await makeArtwork(t.db, { price_cents: 200_000 })).id;
    const original = (price = 410_000) => ({
      artworkId: work.original,
      type: 'original' as const,
      unitPriceCents: price,
    });
    const print = (quantity = 1) => ({
      artworkId: work.print,
      type: 'print' as const,
      unitPriceCents: 35_000,
      quantity,
    });
    const at = (iso: string) => new Date(iso);
    // 1. Today: an original.
    await makeOrder(t.db, {
      email: 'alice@example.test',
      lines: [original()],
      paidAt: at('2026-11-23T09:30:00Z'),
    });
    // 2. Friday: two prints, 10 % off, shipping 15 €: 700 − 70 + 15 = 645 €.
    await makeOrder(t.db, {
      email: 'bob@example.test',
      lines: [print(2)],
      discountCents: 7_000,
      shippingCents: 1_500,
      paidAt: at('2026-11-20T12:00:00Z'),
    });
    // 3. 23:30 UTC on the 16th is 00:30 on the 17th in Paris: inside the 7 days.
    await makeOrder(t.db, {
      email: 'ALICE@example.test',
      lines: [print()],
      shippingCents: 1_500,
      paidAt: at('2026-11-16T23:30:00Z'),
    });
    // 4. 22:30 UTC on the 16th is 23:30 in Paris: the previous 7 days.
    await makeOrder(t.db, {
      email: 'carol@example.test',
      lines: [print()],
      shippingCents: 1_500,
      paidAt: at('2026-11-16T22:30:00Z'),
    });
    // Never sales: refunded, cancelled, abandoned, expired.
    await makeOrder(t.db, {
      email: 'frank@example.test',
      lines: [original()],
      paidAt: at('2026-11-21T10:00:00Z'),
      payment: 'refunded',
      status: 'cancelled',
    });
    await makeOrder(t.db, {
      email: 'frank@example.test',
      lines: [print()],
      paidAt: at('2026-11-22T10:00:00Z'),
      status: 'cancelled',
    });
    await makeOrder(t.db, {
      email: 'frank@example.test',
      lines: [print(3)],
      paidAt: null,
      createdAt: at('2026-11-22T10:00:00Z'),
    });
    await makeOrder(t.db, {
      email: 'frank@example.test',
      lines: [print()],
      paidAt: null,
      payment: 'expired',
      createdAt: at('2026-11-19T10:00:00Z'),
    });
    // 9. Summer time ends on 25 October: 22:30 UTC on the 24th is 00:30 CEST on the 25th, the
    // first day of the 30 days.
    await makeOrder(t.db, {
      email: 'dave@example.test',
      lines: [{ artworkId: workB, type: 'original', unitPriceCents: 200_000 }],
      paidAt: at('2026-10-24T22:30:00Z'),
    });
    // 10. 21:30 UTC on the 24th is 23:30 CEST: the previous 30 days.
    await makeOrder(t.db, {
      email: 'erin@example.test',
      lines: [print()],
      paidAt: at('2026-10-24T21:30:00Z'),
    });
    // 11. 00:30 on 1 January 2026 in Paris; 12. 23:30 on 31 December 2025 in Paris.
    await makeOrder(t.db, {
      email: 'erin@example.test',
      lines: [print()],
      paidAt: at('2025-12-31T23:30:00Z'),
    });
    await makeOrder(t.db, {
      email: 'erin@example.test',
      lines: [print(2)],
      paidAt: at('2025-12-31T22:30:00Z'),
    });
    // 13. Summer time began on 29 March: 22:30 UTC on 31 March is 00:30 CEST on 1 April.
    await makeOrder(t.db, {
      email: 'erin@example.test',
      lines: [print()],
      paidAt: at('2026-03-31T22:30:00Z'),
    });
    // 14. A work deleted since its sale: its line keeps the title.
    await makeOrder(t.db, {
      email: 'bob@example.test',
      lines: [{ artworkId: null, type: 'print', title: 'Œuvre disparue', unitPriceCents: 10_000 }],
      paidAt: at('2026-11-02T10:00:00Z'),
    });
    // Accounts: alice registered long ago, gina recently without buying; the owner is no customer.
    await makeUser(t.db, { email: 'alice@example.test', created_at: at('2025-06-01T10:00:00Z') });
    await makeUser(t.db, { email: 'gina@example.test', created_at: at('2026-11-10T10:00:00Z') });
    await makeUser(t.db, { role: 'admin', created_at: at('2026-11-20T10:00:00Z') });
    // Private visit counts.
    await t.db
      .insertInto('visitor_days')
      .values([
        { day: '2026-11-16', visitors: 100 },
        { day: '2026-11-17', visitors: 10 },
        { day: '2026-11-20', visitors: 20 },
        { day: '2026-11-23', visitors: 20 },
      ])
      .execute();
    await t.db
      .insertInto('visit_counts')
      .values([
        { day: '2026-11-17', path: '/', visits: 30 },
        { day: '2026-11-23', path: '/galerie', visits: 12 },
        { day: '2026-11-01', path: '/', visits: 99 },
      ])
      .execute();
    await t.db
      .insertInto('work_views')
      .values([
        { day: '2026-11-20', work: keyA, views: 5 },
        { day: '2026-11-01', work: keyA, views: 3 },
        { day: '2026-11-20', work: 'nothing-by-this-name', views: 100 },
      ])
      .execute();
  });
  afterAll(() => t.dispose());

  it('7 days: cards, daily buckets, types, best sellers, customers, conversion', async () => {
    const a = await analytics(t.db, '7d', { now });
    expect(a.from).toBe('2026-11-17');
    expect(a.to).toBe('2026-11-23');
    expect(a.summary).toEqual({ revenueCents: 511_000, orders: 3, averageCents: 170_333 });
    expect(a.previous).toEqual({ revenueCents: 36_500, orders: 1, averageCents: 36_500 });
    expect(a.change.revenue).toBeCloseTo(1300, 10);
    expect(a.change.orders).toBe(200);
    expect(a.sales.map((b) => [b.from, b.revenueCents, b.orders])).toEqual([
      ['2026-11-17', 36_500, 1],
      ['2026-11-18', 0, 0],
      ['2026-11-19', 0, 0],
      ['2026-11-20', 64_500, 1],
      ['2026-11-21', 0, 0],
      ['2026-11-22', 0, 0],
      ['2026-11-23', 410_000, 1],
    ]);
    // The discount is shared by the lines; shipping belongs to no work.
    expect(a.byType).toEqual({ originalCents: 410_000, printCents: 63_000 + 35_000 });
    expect(a.top).toEqual([
      { title: titleP, key: keyA, type: 'print', quantity: 3, revenueCents: 105_000 },
      { title: titleA, key: keyA, type: 'original', quantity: 1, revenueCents: 410_000 },
    ]);
    expect(a.mostViewed).toEqual([{ title: titleA, key: keyA, views: 5 }]);
    // alice (twice, once in capitals), bob, carol, dave, erin, gina, and frank, whose paid order
    // was refunded: a customer as the customers screen counts them, though never a sale.
    expect(a.customers.total).toBe(7);
    // bob, carol, dave (00:30 on the 25th), gina, frank; erin is 30 minutes too early, alice
    // long ago.
    expect(a.customers.newLast30Days).toBe(5);
    // alice has two sales, bob two (one of a deleted work), erin four.
    expect(a.customers.returning).toBe(3);
    expect(a.customers.buyers).toBe(2);
    expect(a.customers.visitors).toBe(50);
    expect(a.customers.pageViews).toBe(42);
    expect(a.customers.conversionRate).toBe(4);
  });

  it('30 days: the first day begins at midnight summer time, the day summer time ends', async () => {
    const a = await analytics(t.db, '30d', { now });
    expect(a.from).toBe('2026-10-25');
    expect(a.summary).toEqual({
      revenueCents: 511_000 + 36_500 + 200_000 + 10_000,
      orders: 6,
      averageCents: Math.round(757_500 / 6),
    });
    expect(a.previous).toEqual({ revenueCents: 35_000, orders: 1, averageCents: 35_000 });
    expect(a.sales[0]).toMatchObject({ label: 'J-29', revenueCents: 200_000, orders: 1 });
    expect(a.sales.reduce((s, b) => s + b.revenueCents, 0)).toBe(a.summary.revenueCents);
    expect(a.top.map((w) => [w.title, w.quantity])).toEqual([
      [titleP, 4],
      [titleA, 1],
      [expect.any(String), 1],
      ['Œuvre disparue', 1],
    ]);
    expect(a.top.find((w) => w.title === 'Œuvre disparue')?.key).toBeNull();
    expect(a.mostViewed).toEqual([{ title: titleA, key: keyA, views: 8 }]);
  });

  it('90 days: nothing before the 30 days, so the change from 0 is 100 %', async () => {
    const a = await analytics(t.db, '90d', { now });
    expect(a.previous.revenueCents).toBe(0);
    expect(a.summary.revenueCents).toBe(757_500 + 35_000);
    expect(a.change).toEqual({ revenue: 100, orders: 100, average: 100 });
    expect(a.sales.reduce((s, b) => s + b.revenueCents, 0)).toBe(a.summary.revenueCents);
  });

  it('the dashboard counts the same sales: refunded, cancelled and abandoned orders never', async () => {
    const d = await dashboard(t.db);
    expect(d.revenueCents).toBe(511_000 + 36_500 + 200_000 + 35_000 * 3 + 70_000 + 10_000);
    expect(d.paidOrders).toBe(10);
  });

  it('the monthly comparison puts each sale in its Paris month', async () => {
    const a = await analytics(t.db, '1y', { now });
    expect(a.monthly.year).toBe(2026);
    const thisYear = Array(12).fill(0);
    thisYear[0] = 35_000; // 00:30 on 1 January
    thisYear[3] = 35_000; // 00:30 on 1 April (summer time)
    thisYear[9] = 200_000 + 35_000; // 24 and 25 October
    thisYear[10] = 511_000 + 36_500 + 10_000;
    const lastYear = Array(12).fill(0);
    lastYear[11] = 70_000; // 23:30 on 31 December 2025
    expect(a.monthly.thisYear).toEqual(thisYear);
    expect(a.monthly.lastYear).toEqual(lastYear);
    // The year's buckets: January 2026 has one sale, December 2025 the other.
    expect(a.sales.find((b) => b.label === 'Déc. 25')?.revenueCents).toBe(70_000);
    expect(a.sales.find((b) => b.label === 'Janv. 26')?.revenueCents).toBe(35_000);
  });
});

describe('a generated year of orders', () => {
  let t: TestDatabase;
  interface Made {
    email: string;
    paidAt: Date | null;
    total: number;
    sale: boolean;
    lines: { type: 'original' | 'print'; price: number; quantity: number }[];
  }
  const made: Made[] = [];

  beforeAll(async () => {
    t = await createTestDatabase();
    const work = await makeWorkWithPrint(t.db);
    // A small deterministic generator: the same orders on every run.
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const kinds = ['paid', 'paid', 'paid', 'refunded', 'cancelled', 'abandoned'] as const;
    for (let i = 0; i < 260; i++) {
      const kind = kinds[Math.floor(random() * kinds.length)]!;
      const at = new Date(NOW.getTime() - Math.floor(random() * 800 * 86_400_000));
      const original = random() < 0.3;
      const quantity = original ? 1 : 1 + Math.floor(random() * 3);
      const price = original ? 100_000 + Math.floor(random() * 400) * 1000 : 35_000;
      const shipping = random() < 0.5 ? 0 : 1_500;
      const email = `buyer-${Math.floor(random() * 40)}@example.test`;
      const paidAt = kind === 'abandoned' ? null : at;
      const order = await makeOrder(t.db, {
        email,
        lines: [
          {
            artworkId: original ? work.original : work.print,
            type: original ? 'original' : 'print',
            unitPriceCents: price,
            quantity,
          },
        ],
        shippingCents: shipping,
        paidAt,
        createdAt: at,
        payment: kind === 'refunded' ? 'refunded' : kind === 'abandoned' ? 'expired' : 'paid',
        status: kind === 'cancelled' || kind === 'refunded' ? 'cancelled' : 'delivered',
      });
      made.push({
        email,
        paidAt,
        total: order.totalCents,
        sale: kind === 'paid',
        lines: [{ type: original ? 'original' : 'print', price, quantity }],
      });
    }
    // Visits on some days.
    const days = new Map<string, number>();
    for (let d = 0; d < 400; d += 3) {
      const day = parisDay(new Date(NOW.getTime() - d * 86_400_000));
      days.set(day, 1 + Math.floor(random() * 50));
    }
    await t.db
      .insertInto('visitor_days')
      .values([...days].map(([day, visitors]) => ({ day, visitors })))
      .execute();
  });
  afterAll(() => t.dispose());

  /** The reference: the same figures by plain iteration over what was made. */
  function expected(period: (typeof ANALYTICS_PERIODS)[number], visitors: Map<string, number>) {
    const days = PERIOD_DAYS[period];
    const today = parisDay(NOW);
    const dayOf = (d: Date) => parisDay(d);
    const shift = (day: string, n: number) =>
      new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const from = shift(today, -(days - 1));
    const previousFrom = shift(from, -days);
    const inRange = (m: Made, a: string, b: string) =>
      m.sale && m.paidAt !== null && dayOf(m.paidAt) >= a && dayOf(m.paidAt) <= b;
    const current = made.filter((m) => inRange(m, from, today));
    const previous = made.filter((m) => inRange(m, previousFrom, shift(from, -1)));
    const sum = (list: Made[]) => list.reduce((s, m) => s + m.total, 0);
    let seen = 0;
    for (const [day, n] of visitors) if (day >= from && day <= today) seen += n;
    const buyers = new Set(current.map((m) => m.email)).size;
    return {
      revenue: sum(current),
      orders: current.length,
      previousRevenue: sum(previous),
      previousOrders: previous.length,
      original: current
        .flatMap((m) => m.lines)
        .filter((l) => l.type === 'original')
        .reduce((s, l) => s + l.price * l.quantity, 0),
      printQuantity: current
        .flatMap((m) => m.lines)
        .filter((l) => l.type === 'print')
        .reduce((s, l) => s + l.quantity, 0),
      buyers,
      visitors: seen,
      conversion: buyers === 0 ? 0 : Math.round((buyers / Math.max(seen, buyers)) * 1000) / 10,
    };
  }

  it('every period matches the reference', async () => {
    const visitorRows = await t.db
      .selectFrom('visitor_days')
      .select([sql<string>`day::text`.as('day'), 'visitors'])
      .execute();
    const visitors = new Map(visitorRows.map((r) => [r.day, r.visitors]));
    for (const period of ANALYTICS_PERIODS) {
      const a: Analytics = await analytics(t.db, period, { now });
      const e = expected(period, visitors);
      expect(a.summary.revenueCents, period).toBe(e.revenue);
      expect(a.summary.orders, period).toBe(e.orders);
      expect(a.previous.revenueCents, period).toBe(e.previousRevenue);
      expect(a.previous.orders, period).toBe(e.previousOrders);
      expect(a.change.revenue, period).toBeCloseTo(percentChange(e.revenue, e.previousRevenue));
      expect(
        a.sales.reduce((s, b) => s + b.revenueCents, 0),
        period,
      ).toBe(e.revenue);
      expect(
        a.sales.reduce((s, b) => s + b.orders, 0),
        period,
      ).toBe(e.orders);
      expect(a.byType.originalCents, period).toBe(e.original);
      if (e.printQuantity > 0)
        expect(
          a.top.some((w) => w.quantity === e.printQuantity),
          period,
        ).toBe(true);
      expect(a.customers.buyers, period).toBe(e.buyers);
      expect(a.customers.visitors, period).toBe(e.visitors);
      expect(a.customers.conversionRate, period).toBe(e.conversion);
      // Buckets tile the period without gap or overlap.
      for (let i = 1; i < a.sales.length; i++)
        expect(
          Date.parse(`${a.sales[i]!.from}T00:00:00Z`) -
            Date.parse(`${a.sales[i - 1]!.to}T00:00:00Z`),
        ).toBe(86_400_000);
    }
    expect(made.filter((m) => m.sale).length).toBeGreaterThan(100);
  });
});

describe('GET /api/admin/analytics', () => {
  let t: TestDatabase;
  let owner: { cookie: string; token: string };
  beforeAll(async () => {
    t = await createTestDatabase();
    provideDatabase(t);
    owner = await makeUser(t.db, { role: 'admin' });
  });
  afterAll(() => t.dispose());

  const get = (query: string) =>
    callEndpoint(GET, {
      request: new Request(`http://127.0.0.1/api/admin/analytics${query}`, {
        headers: { cookie: owner.cookie },
      }),
      cookies: {
        get: (name: string) => (name === 'session' ? { value: owner.token } : undefined),
      } as never,
    });

  it('answers the default 30 days, each period, and names a wrong one', async () => {
    const byDefault = await get('');
    expect(byDefault.status).toBe(200);
    expect(((await byDefault.json()) as Analytics).period).toBe('30d');
    for (const period of ANALYTICS_PERIODS) {
      const answer = await get(`?period=${period}`);
      expect(((await answer.json()) as Analytics).sales.length).toBeGreaterThan(6);
    }
    const wrong = await get('?period=2y');
    expect(wrong.status).toBe(400);
    const body = (await wrong.json()) as { error: { code: string; fields: { period: string } } };
    expect(body.error.code).toBe('invalid_input');
    expect(body.error.fields.period).toContain('7d');
  });
});

describe('the day rollups the analytics read (migration 20261123_0750)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  const SALE = sql`o.payment_status = 'paid' AND o.status <> 'cancelled' AND o.paid_at IS NOT NULL`;
  const DAY = sql`(o.paid_at AT TIME ZONE 'Europe/Paris')::date`;

  /** The rollups as stored, and as computed afresh from the orders: they must be equal. */
  async function both() {
    const stored = {
      days: (
        await sql<{ day: string; revenue: string; orders: number }>`
          SELECT day::text, revenue_cents::text AS revenue, orders FROM sales_days
          WHERE orders > 0 ORDER BY day`.execute(t.db)
      ).rows,
      works: (
        await sql`SELECT day::text, artwork_id, lost_title, artwork_type, title, quantity,
                         gross_cents::text AS gross, round(net_cents, 6)::text AS net
                  FROM sales_day_works ORDER BY 1, 2, 3, 4`.execute(t.db)
      ).rows,
      buyers: (await sql`SELECT day::text, email FROM sales_day_buyers ORDER BY 1, 2`.execute(t.db))
        .rows,
    };
    const fresh = {
      days: (
        await sql<{ day: string; revenue: string; orders: number }>`
          SELECT ${DAY}::text AS day, sum(o.total_cents - o.refunded_cents)::text AS revenue,
                 count(*)::int AS orders
          FROM orders o WHERE ${SALE} GROUP BY 1 ORDER BY 1`.execute(t.db)
      ).rows,
      works: (
        await sql`SELECT ${DAY}::text AS day, i.artwork_id,
                         CASE WHEN i.artwork_id IS NULL THEN i.title END AS lost_title,
                         i.artwork_type, min(i.title) AS title, sum(i.quantity)::int AS quantity,
                         sum(i.unit_price_cents * i.quantity)::text AS gross,
                         round(sum(i.unit_price_cents * i.quantity
                           * (o.subtotal_cents - o.discount_cents)::numeric
                           / nullif(o.subtotal_cents, 0)), 6)::text AS net
                  FROM orders o JOIN order_items i ON i.order_id = o.id AND i.refunded_at IS NULL
                  WHERE ${SALE}
                  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`.execute(t.db)
      ).rows,
      buyers: (
        await sql`SELECT DISTINCT ${DAY}::text AS day, lower(o.customer_email) AS email
                  FROM orders o WHERE ${SALE} ORDER BY 1, 2`.execute(t.db)
      ).rows,
    };
    return { stored, fresh };
  }

  it('follow sales paid, refunded, cancelled, moved, renamed, discounted, erased and deleted', async () => {
    const work = await makeWorkWithPrint(t.db);
    const lone = await makeArtwork(t.db, { title_fr: 'Œuvre retirée' });
    const a = await makeOrder(t.db, {
      email: 'Ana@Example.test',
      lines: [{ artworkId: work.print, type: 'print', unitPriceCents: 30_000, quantity: 2 }],
      discountCents: 6_000,
      shippingCents: 1_500,
      paidAt: at('2026-11-20T23:30:00Z'), // 00:30 on 21 November in Paris
    });
    const b = await makeOrder(t.db, {
      email: 'ana@example.test',
      lines: [
        { artworkId: work.original, type: 'original', unitPriceCents: 200_000 },
        { artworkId: lone.id, type: 'original', unitPriceCents: 90_000 },
      ],
      paidAt: at('2026-11-21T09:00:00Z'),
    });
    // The webhook's order: created unpaid with its lines, then paid.
    const c = await makeOrder(t.db, {
      email: 'zoe@example.test',
      lines: [{ artworkId: work.print, type: 'print', unitPriceCents: 30_000 }],
      paidAt: null,
    });
    let { stored, fresh } = await both();
    expect(stored).toEqual(fresh);
    expect(stored.days).toEqual([{ day: '2026-11-21', revenue: '345500', orders: 2 }]);
    expect(stored.buyers).toEqual([{ day: '2026-11-21', email: 'ana@example.test' }]);

    const steps: [string, () => Promise<unknown>][] = [
      [
        'paid',
        () =>
          t.db
            .updateTable('orders')
            .set({
              payment_status: 'paid',
              status: 'confirmed',
              paid_at: at('2026-11-22T12:00:00Z'),
            })
            .where('id', '=', c.id)
            .execute(),
      ],
      [
        'refunded',
        () =>
          t.db
            .updateTable('orders')
            .set({ payment_status: 'refunded' })
            .where('id', '=', a.id)
            .execute(),
      ],
      [
        'refund undone',
        () =>
          t.db
            .updateTable('orders')
            .set({ payment_status: 'paid' })
            .where('id', '=', a.id)
            .execute(),
      ],
      [
        // As api/orders/refund-lines.ts records it: the line, then the order's refunded amount.
        'one line refunded (a partial refund)',
        async () => {
          const revenue = async () =>
            (
              await sql<{ revenue: string }>`
                SELECT revenue_cents::text AS revenue FROM sales_days WHERE day = '2026-11-21'`.execute(
                t.db,
              )
            ).rows[0]!.revenue;
          const before = Number(await revenue());
          const [line] = await t.db
            .selectFrom('order_items')
            .select('id')
            .where('order_id', '=', b.id)
            .where('artwork_id', '=', work.original)
            .execute();
          await t.db
            .updateTable('order_items')
            .set({ refunded_at: at('2026-11-22T10:00:00Z') })
            .where('id', '=', line!.id)
            .execute();
          await t.db
            .updateTable('orders')
            .set({ refunded_cents: 200_000 })
            .where('id', '=', b.id)
            .execute();
          // The day keeps the order (still a sale) at what the gallery kept.
          expect(Number(await revenue())).toBe(before - 200_000);
        },
      ],
      [
        'cancelled',
        () =>
          t.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', b.id).execute(),
      ],
      [
        'reinstated and moved to another day',
        () =>
          t.db
            .updateTable('orders')
            .set({ status: 'confirmed', paid_at: at('2026-11-23T08:00:00Z') })
            .where('id', '=', b.id)
            .execute(),
      ],
      [
        'discount changed',
        () =>
          t.db
            .updateTable('orders')
            .set({ discount_cents: 12_000, total_cents: 49_500 })
            .where('id', '=', a.id)
            .execute(),
      ],
      [
        'buyer erased',
        () =>
          t.db
            .updateTable('orders')
            .set({ customer_email: 'erased@example.invalid' })
            .where('id', '=', c.id)
            .execute(),
      ],
      [
        'a line added',
        () =>
          t.db
            .insertInto('order_items')
            .values({
              order_id: c.id,
              artwork_id: work.print,
              artwork_type: 'print',
              title: 'Tirage',
              unit_price_cents: 30_000,
              quantity: 1,
            })
            .execute(),
      ],
      ['a work deleted', () => t.db.deleteFrom('artworks').where('id', '=', lone.id).execute()],
      ['an order deleted', () => t.db.deleteFrom('orders').where('id', '=', a.id).execute()],
    ];
    for (const [step, change] of steps) {
      await change();
      ({ stored, fresh } = await both());
      expect(stored, step).toEqual(fresh);
    }
    expect(stored.works.some((w) => (w as { lost_title: string | null }).lost_title !== null)).toBe(
      true,
    );
  });

  it('two transactions selling on the same day both count', { tags: ['concurrency'] }, async () => {
    const work = await makeWorkWithPrint(t.db);
    const day = at('2026-10-02T10:00:00Z');
    await Promise.all(
      [1, 2, 3, 4].map((n) =>
        t.db.transaction().execute((trx) =>
          makeOrder(trx, {
            email: `buyer-${n}@example.test`,
            lines: [{ artworkId: work.print, type: 'print', unitPriceCents: 10_000 * n }],
            paidAt: day,
          }),
        ),
      ),
    );
    const row = await sql<{ revenue: string; orders: number }>`
      SELECT revenue_cents::text AS revenue, orders FROM sales_days WHERE day = '2026-10-02'`.execute(
      t.db,
    );
    expect(row.rows).toEqual([{ revenue: '100000', orders: 4 }]);
    const { stored, fresh } = await both();
    expect(stored).toEqual(fresh);
  });
});

function at(iso: string): Date {
  return new Date(iso);
}
