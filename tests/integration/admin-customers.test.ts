// The customers of the back office (issue 13 points 6–8) against a real database: who is a
// customer (accounts and paid orders, one per address whatever its case), the stat cards with
// 'Nouveaux ce mois' across the Paris month boundary, search without case or accents, every
// column sorted both ways, pages of 10, the detail and its history, the JSON export, erasure
// keeping the accounting as it was, and the table the database keeps (customer_summaries) always
// agreeing with the one sale rule — under concurrent payments on PostgreSQL too.
import { sql } from 'kysely';
import type { APIRoute } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytics } from '#api/admin/analytics.ts';
import {
  customerDetail,
  customerHash,
  eraseCustomer,
  exportCustomer,
  listCustomers,
  runErasuresDue,
} from '#api/admin/customers.ts';
import { provideDatabase } from '#api/db/context.ts';
import type { Database } from '#api/db/index.ts';
import { isSale, saleAmount } from '#api/orders/sales.ts';
import type { CustomerRow, CustomerSort } from '../../src/schemas/admin-orders.ts';
import { CUSTOMER_SORTS } from '../../src/schemas/admin-orders.ts';
import type {
  CustomerDetailView,
  CustomerExport,
  CustomerListQuery,
  CustomerListView,
  EraseResult,
} from '../../src/schemas/admin-customers.ts';
import { GET as LIST } from '../../src/pages/api/admin/customers/index.ts';
import { GET as DETAIL } from '../../src/pages/api/admin/customers/detail.ts';
import { GET as EXPORT } from '../../src/pages/api/admin/customers/export.ts';
import { POST as ERASE } from '../../src/pages/api/admin/customers/erase.ts';
import { loginThrottleKeys } from '#api/accounts/throttle.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';
import { reauthenticate } from '../helpers/reauth.ts';

// Monday 23 November 2026, 11:00 in Paris.
const NOW = new Date('2026-11-23T10:00:00Z');
const now = () => NOW;
const ORIGIN = 'http://localhost:4321';
const ALL: CustomerListQuery = { q: '', sort: undefined, dir: 'asc', page: 1 };

/** Every customer of the list, page after page, in the order the list gives. */
async function everyRow(db: Database, query: Partial<CustomerListQuery>): Promise<CustomerRow[]> {
  const rows: CustomerRow[] = [];
  for (let page = 1; ; page++) {
    const list = await listCustomers(db, { ...ALL, ...query, page }, { now });
    rows.push(...list.customers);
    if (page >= list.pages) return rows;
  }
}

async function call(
  route: APIRoute,
  path: string,
  options: { token?: string; method?: string; body?: unknown } = {},
): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers = new Headers({ origin: ORIGIN });
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  return callEndpoint(route, {
    request: new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
    }),
    cookies: {
      get: (name: string) =>
        name === 'session' && options.token ? { value: options.token } : undefined,
    } as never,
  });
}

/** The accounting as a query sees it: every order's amount, the sales, the invoices. */
async function accounting(db: Database) {
  const { rows } = await sql<{ orders: string; total: string; sales: string; revenue: string }>`
    SELECT count(*) AS orders, coalesce(sum(total_cents), 0) AS total,
           count(*) FILTER (WHERE ${isSale()}) AS sales,
           coalesce(sum(${saleAmount()}) FILTER (WHERE ${isSale()}), 0) AS revenue
    FROM orders`.execute(db);
  const invoices = await db.selectFrom('invoices').selectAll().orderBy('number').execute();
  return { ...rows[0], invoices };
}

describe('who is a customer', () => {
  let t: TestDatabase;
  let work: number;
  beforeAll(async () => {
    t = await createTestDatabase();
    work = (await makeArtwork(t.db)).id;
  });
  afterAll(() => t.dispose());
  const line = () => [{ artworkId: work, type: 'print' as const, unitPriceCents: 10_000 }];

  it('is a registered customer with no order, never an administrator', async () => {
    const registered = await makeUser(t.db, { full_name: 'Inès Sans-Commande' });
    await makeUser(t.db, { role: 'admin', full_name: 'Owner' });
    const rows = await everyRow(t.db, {});
    expect(rows).toEqual([
      expect.objectContaining({
        email: registered.email,
        name: 'Inès Sans-Commande',
        orders: 0,
        spentCents: 0,
        lastOrderAt: null,
        hasAccount: true,
      }),
    ]);
  });

  it('is one customer per address whatever its case, counting sales only', async () => {
    const account = await makeUser(t.db, {
      email: 'Anne.Martin@Example.test',
      full_name: null,
      last_sign_in_at: new Date('2026-11-20T08:00:00Z'),
    });
    await makeOrder(t.db, {
      email: 'anne.martin@example.TEST',
      lines: line(),
      paidAt: new Date('2026-10-02T10:00:00Z'),
    });
    await makeOrder(t.db, {
      email: 'ANNE.MARTIN@example.test',
      lines: line(),
      shippingCents: 1500,
      paidAt: new Date('2026-11-02T10:00:00Z'),
    });
    // Refunded: in the history, not in the figures. Cancelled while paid: the same.
    await makeOrder(t.db, {
      email: 'anne.martin@example.test',
      lines: line(),
      payment: 'refunded',
      status: 'cancelled',
      paidAt: new Date('2026-11-10T10:00:00Z'),
    });
    // An abandoned checkout makes no one a customer.
    await makeOrder(t.db, { email: 'abandon@example.test', lines: line(), paidAt: null });
    await makeOrder(t.db, {
      email: 'expired@example.test',
      lines: line(),
      paidAt: null,
      payment: 'expired',
    });

    const rows = await everyRow(t.db, {});
    const anne = rows.filter((r) => r.email.toLowerCase() === 'anne.martin@example.test');
    expect(anne).toEqual([
      {
        email: account.email,
        // No name on the account: the latest order's.
        name: expect.stringMatching(/^Acheteur /) as string,
        registeredAt: expect.any(String) as string,
        lastSignInAt: '2026-11-20T08:00:00.000Z',
        orders: 2,
        spentCents: 21_500,
        // The refunded order is named beside the count, so its date as the last one reads true.
        refunded: 1,
        cancelled: 0,
        lastOrderAt: '2026-11-10T10:00:00.000Z',
        hasAccount: true,
      },
    ]);
    expect(rows.map((r) => r.email)).not.toContain('abandon@example.test');
    expect(rows.map((r) => r.email)).not.toContain('expired@example.test');
  });

  it('counts a buyer without an account, and one whose only order was refunded', async () => {
    await makeOrder(t.db, { email: 'guest@example.test', lines: line() });
    await makeOrder(t.db, {
      email: 'refunded@example.test',
      lines: line(),
      payment: 'refunded',
      status: 'cancelled',
    });
    const rows = await everyRow(t.db, {});
    expect(rows.find((r) => r.email === 'guest@example.test')).toMatchObject({
      orders: 1,
      spentCents: 10_000,
      registeredAt: null,
      lastSignInAt: null,
      hasAccount: false,
    });
    expect(rows.find((r) => r.email === 'refunded@example.test')).toMatchObject({
      orders: 0,
      spentCents: 0,
      refunded: 1,
      cancelled: 0,
      lastOrderAt: expect.any(String) as string,
      hasAccount: false,
    });
    const list = await listCustomers(t.db, ALL, { now });
    expect(list.stats).toMatchObject({ total: rows.length, withOrders: 2 });
  });

  it('says beside the count what was refunded or cancelled, in the list and the detail (issue 27 §6)', async () => {
    const email = 'rembourse.annule@example.test';
    await makeOrder(t.db, { email, lines: line(), paidAt: new Date('2026-11-01T10:00:00Z') });
    await makeOrder(t.db, {
      email,
      lines: line(),
      payment: 'refunded',
      status: 'cancelled',
      paidAt: new Date('2026-11-05T10:00:00Z'),
    });
    // Cancelled while paid, the refund still to make: not a sale either.
    await makeOrder(t.db, {
      email,
      lines: line(),
      status: 'cancelled',
      paidAt: new Date('2026-11-08T10:00:00Z'),
    });
    const [listed] = (await listCustomers(t.db, { ...ALL, q: 'rembourse.annule' }, { now }))
      .customers;
    const expected = {
      orders: 1,
      spentCents: 10_000,
      refunded: 1,
      cancelled: 1,
      lastOrderAt: '2026-11-08T10:00:00.000Z',
    };
    expect(listed).toMatchObject(expected);
    const detail = await customerDetail(t.db, email);
    expect(detail).toMatchObject({ ...expected, averageCents: 10_000 });
    // Every order of the history is counted once: a sale, refunded or cancelled.
    expect(detail.history).toHaveLength(detail.orders + detail.refunded + detail.cancelled);
  });

  it('follows the orders and accounts as they change', async () => {
    const order = await makeOrder(t.db, {
      email: 'later@example.test',
      lines: line(),
      paidAt: null,
    });
    expect((await everyRow(t.db, {})).map((r) => r.email)).not.toContain('later@example.test');
    // The webhook marks it paid; the buyer then signs up with the same address.
    await t.db
      .updateTable('orders')
      .set({ payment_status: 'paid', status: 'confirmed', paid_at: NOW })
      .where('id', '=', order.id)
      .execute();
    await makeUser(t.db, { email: 'Later@example.test', full_name: 'Léa Tard' });
    expect((await everyRow(t.db, {})).find((r) => r.email === 'Later@example.test')).toMatchObject({
      name: 'Léa Tard',
      orders: 1,
      spentCents: 10_000,
      hasAccount: true,
    });
    // Refunded: still a customer, no longer a sale.
    await t.db
      .updateTable('orders')
      .set({ payment_status: 'refunded', status: 'cancelled' })
      .where('id', '=', order.id)
      .execute();
    expect((await everyRow(t.db, {})).find((r) => r.email === 'Later@example.test')).toMatchObject({
      orders: 0,
      spentCents: 0,
    });
    // The account becomes an administrator's: the address stays a customer by its order only.
    await t.db
      .updateTable('users')
      .set({ role: 'admin' })
      .where(sql<string>`lower(email)`, '=', 'later@example.test')
      .execute();
    expect((await everyRow(t.db, {})).find((r) => r.email === 'later@example.test')).toMatchObject({
      hasAccount: false,
      registeredAt: null,
    });
  });
});

describe('the stat cards', () => {
  let t: TestDatabase;
  let work: number;
  beforeAll(async () => {
    t = await createTestDatabase();
    work = (await makeArtwork(t.db)).id;
  });
  afterAll(() => t.dispose());

  it("'Nouveaux ce mois' counts first appearances in the Paris calendar month", async () => {
    const line = [{ artworkId: work, type: 'print' as const, unitPriceCents: 5_000 }];
    // 1 November 00:30 in Paris (still October in UTC): new this month.
    await makeUser(t.db, { created_at: new Date('2026-10-31T23:30:00Z') });
    // 31 October 23:30 in Paris: last month.
    await makeUser(t.db, { created_at: new Date('2026-10-31T22:30:00Z') });
    // An old account whose first order is this month: not new, it appeared long ago.
    const old = await makeUser(t.db, { created_at: new Date('2025-03-01T10:00:00Z') });
    await makeOrder(t.db, { email: old.email, lines: line, paidAt: new Date('2026-11-05T10:00Z') });
    // A guest whose first paid order is this month: new; one whose first was in October: not.
    await makeOrder(t.db, {
      email: 'new@example.test',
      lines: line,
      paidAt: new Date('2026-11-01T09:00Z'),
    });
    await makeOrder(t.db, {
      email: 'back@example.test',
      lines: line,
      paidAt: new Date('2026-10-20T09:00Z'),
    });
    await makeOrder(t.db, {
      email: 'back@example.test',
      lines: line,
      paidAt: new Date('2026-11-20T09:00Z'),
    });
    const list = await listCustomers(t.db, ALL, { now });
    expect(list.stats).toEqual({ total: 5, withOrders: 3, newThisMonth: 2 });
    expect(list.matching).toBe(5);
  });

  it('agree with the analytics: the same customers, the same definition', async () => {
    const list = await listCustomers(t.db, ALL, { now });
    expect((await analytics(t.db, '30d', { now })).customers.total).toBe(list.stats.total);
  });
});

describe('search, sorting and pages', () => {
  let t: TestDatabase;
  let owner: { token: string };
  let customer: { token: string };
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n, 9));
  beforeAll(async () => {
    t = await createTestDatabase();
    provideDatabase(t);
    owner = await makeUser(t.db, { role: 'admin' });
    const work = (await makeArtwork(t.db)).id;
    // Index 8 has no name and no order: 'Client sans nom'.
    const names = [
      'Hélène Dupré',
      'Émile Zola',
      'Zoé Kovač',
      'anaïs Lefèvre',
      'Œdipe Roi',
      'Jérôme Nuñez',
      'Bruno Martin',
      'Camille 100% Vrai',
      null,
      'Élodie Blanc',
    ];
    // 25 customers with every column different from one to the next (and some missing).
    for (let i = 0; i < 25; i++) {
      const email = `client${String(i).padStart(2, '0')}@example.test`;
      const name = i < names.length ? names[i]! : `Client ${String(i).padStart(2, '0')}`;
      // Three buyers without an account.
      const guest = i >= 10 && i % 5 === 4;
      if (!guest)
        await makeUser(t.db, {
          email,
          full_name: name,
          created_at: day(i * 3),
          last_sign_in_at: i % 3 === 0 ? null : day(100 + ((i * 7) % 25)),
        });
      for (let k = 0; k < (guest ? 1 + (i % 3) : i % 4); k++)
        await makeOrder(t.db, {
          email,
          lines: [
            { artworkId: work, type: 'print', unitPriceCents: 1_000 * (1 + ((i * 13) % 25)) },
          ],
          paidAt: day(200 + ((i * 11) % 25) + k),
        });
    }
    customer = await makeUser(t.db, { email: 'client99@example.test', full_name: 'Zz Dernier' });
  });
  afterAll(() => t.dispose());

  it('pages by 10 across 26 customers, each once, and a page past the end shows the last', async () => {
    const first = await listCustomers(t.db, ALL, { now });
    expect(first).toMatchObject({ matching: 26, page: 1, pages: 3 });
    expect(first.customers).toHaveLength(10);
    const rows = await everyRow(t.db, {});
    expect(rows).toHaveLength(26);
    expect(new Set(rows.map((r) => r.email)).size).toBe(26);
    const beyond = await listCustomers(t.db, { ...ALL, page: 9 }, { now });
    expect(beyond).toMatchObject({ page: 3, pages: 3 });
    expect(beyond.customers).toHaveLength(6);
  });

  const value: Record<CustomerSort, (r: CustomerRow) => string | number | null> = {
    name: (r) =>
      r.name === null
        ? null
        : r.name.normalize('NFD').replace(/\p{M}/gu, '').replace(/œ/gi, 'oe').toLowerCase(),
    registered: (r) => r.registeredAt,
    lastSignIn: (r) => r.lastSignInAt,
    orders: (r) => r.orders,
    spent: (r) => r.spentCents,
    lastOrder: (r) => r.lastOrderAt,
  };

  it.each(
    CUSTOMER_SORTS.flatMap((sort) => (['asc', 'desc'] as const).map((dir) => ({ sort, dir }))),
  )(
    'sorts by $sort $dir, missing values last, the address breaking ties',
    async ({ sort, dir }) => {
      const rows = await everyRow(t.db, { sort, dir });
      const expected = [...rows].sort((a, b) => {
        const x = value[sort](a);
        const y = value[sort](b);
        if ((x === null) !== (y === null)) return x === null ? 1 : -1;
        const by = x === null || y === null ? 0 : x < y ? -1 : x > y ? 1 : 0;
        const key = a.email.toLowerCase() < b.email.toLowerCase() ? -1 : 1;
        return dir === 'asc' ? by || key : -by || -key;
      });
      expect(rows.map((r) => r.email)).toEqual(expected.map((r) => r.email));
      // Something to sort: the column is not constant.
      expect(new Set(rows.map(value[sort])).size).toBeGreaterThan(3);
    },
  );

  it('searches names and addresses without case or accents', async () => {
    const found = async (q: string) =>
      (await everyRow(t.db, { q })).map((r) => r.name ?? r.email).sort();
    expect(await found('helene')).toEqual(['Hélène Dupré']);
    expect(await found('DUPRE')).toEqual(['Hélène Dupré']);
    expect(await found('hélè')).toEqual(['Hélène Dupré']);
    expect(await found('kovac')).toEqual(['Zoé Kovač']);
    expect(await found('oedipe')).toEqual(['Œdipe Roi']);
    expect(await found('NUNEZ')).toEqual(['Jérôme Nuñez']);
    expect(await found('emile')).toEqual(['Émile Zola']);
    expect(await found('ANAIS')).toEqual(['anaïs Lefèvre']);
    const emails = async (q: string) => (await everyRow(t.db, { q })).map((r) => r.email);
    expect(await emails('CLIENT05@')).toEqual(['client05@example.test']);
    expect((await everyRow(t.db, { q: 'client08' }))[0]).toMatchObject({ name: null, orders: 0 });
    // '%' and '_' are letters here, not wildcards.
    expect(await found('100%')).toEqual(['Camille 100% Vrai']);
    expect(await found('_')).toEqual([]);
    const list = await listCustomers(t.db, { ...ALL, q: 'example.test' }, { now });
    expect(list.matching).toBe(26);
    expect((await listCustomers(t.db, { ...ALL, q: 'personne' }, { now })).matching).toBe(0);
  });

  it('answers through the endpoint, refuses anyone but an administrator', async () => {
    const response = await call(
      LIST,
      '/api/admin/customers?q=%C3%89MILE&sort=spent&dir=desc&page=1',
      {
        token: owner.token,
      },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as CustomerListView;
    expect(body.customers.map((c) => c.name)).toEqual(['Émile Zola']);
    expect(body).toMatchObject({ currency: 'EUR', matching: 1, pages: 1 });
    // Nonsense parameters fall back to their defaults.
    const lenient = await call(LIST, '/api/admin/customers?sort=x&dir=y&page=-3', {
      token: owner.token,
    });
    expect(lenient.status).toBe(200);
    expect(((await lenient.json()) as CustomerListView).page).toBe(1);
    for (const token of [undefined, customer.token]) {
      const refused = await call(LIST, '/api/admin/customers', token ? { token } : {});
      expect(refused.status).toBe(403);
    }
  });
});

describe('one customer: detail, export, erasure', () => {
  let t: TestDatabase;
  let owner: { id: string; email: string; token: string };
  let work: number;
  let client: { id: string; email: string; token: string };
  let orders: { id: string; orderNumber: string; totalCents: number }[];
  beforeAll(async () => {
    t = await createTestDatabase();
    provideDatabase(t);
    owner = await makeUser(t.db, { role: 'admin', full_name: 'Owner' });
    // Erasing needs a re-authentication (docs/decisions/037): given once, as in the dialog.
    expect((await reauthenticate(t.db, owner)).status).toBe(200);
    work = (await makeArtwork(t.db)).id;
    client = await makeUser(t.db, {
      email: 'Sophie.Kovac@example.test',
      full_name: 'Sophie Kovač',
      password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
      created_at: new Date('2026-02-03T10:00:00Z'),
      last_sign_in_at: new Date('2026-11-21T18:00:00Z'),
    });
    const line = (cents: number) => [
      { artworkId: work, type: 'print' as const, unitPriceCents: cents, title: 'Le Tage' },
    ];
    orders = [
      await makeOrder(t.db, {
        email: 'sophie.kovac@example.test',
        lines: line(30_000),
        shippingCents: 1_500,
        paidAt: new Date('2026-03-10T10:00:00Z'),
      }),
      await makeOrder(t.db, {
        email: 'SOPHIE.KOVAC@example.test',
        lines: line(50_000),
        paidAt: new Date('2026-09-10T10:00:00Z'),
        status: 'shipped',
      }),
      await makeOrder(t.db, {
        email: 'sophie.kovac@example.test',
        lines: line(20_000),
        paidAt: new Date('2026-10-10T10:00:00Z'),
        payment: 'refunded',
        status: 'cancelled',
      }),
      // An abandoned checkout: not in the history, but personal data all the same.
      await makeOrder(t.db, {
        email: 'sophie.kovac@example.test',
        lines: line(9_000),
        paidAt: null,
      }),
    ];
    await t.db
      .updateTable('orders')
      .set({
        customer_phone: '+33 6 12 34 56 78',
        billing_address: JSON.stringify({
          street: '3 rue B',
          postal_code: '69001',
          city: 'Lyon',
          country: 'FR',
        }),
        user_id: client.id,
      })
      .where(
        'id',
        'in',
        orders.map((o) => o.id),
      )
      .execute();
    // The invoice of the first order, as the payment issued it.
    await t.db
      .insertInto('invoices')
      .values({
        kind: 'invoice',
        sequence: 1,
        number: 'F-2026-000001',
        order_id: orders[0]!.id,
        issued_at: new Date('2026-03-10T10:00:01Z'),
        total_cents: orders[0]!.totalCents,
        currency: 'EUR',
        snapshot: JSON.stringify({
          buyer: { name: 'Sophie Kovač', email: 'sophie.kovac@example.test' },
        }),
      })
      .execute();
    await t.db
      .insertInto('withdrawals')
      .values({
        order_id: orders[1]!.id,
        requested_at: new Date('2026-09-12T10:00:00Z'),
        locale: 'fr',
        statement: 'Je me rétracte.',
        state: 'confirmed',
        confirmed_at: new Date('2026-09-12T10:00:00Z'),
        confirmed_via: 'page',
      })
      .execute();
    await t.db
      .insertInto('contact_messages')
      .values({
        name: 'Sophie',
        email: 'sophie.KOVAC@example.test',
        subject: 'Question',
        message: 'Le tirage existe-t-il plus grand ?',
        created_at: new Date('2026-09-01T10:00:00Z'),
      })
      .execute();
    // An enquiry about a work (issue 25) is hers too: exported and erased with the rest.
    await t.db
      .insertInto('contact_messages')
      .values({
        kind: 'enquiry',
        work_title: 'Le Tage',
        name: 'Sophie',
        email: 'sophie.kovac@EXAMPLE.test',
        message: 'L’original est-il encadré ?',
        created_at: new Date('2026-09-02T10:00:00Z'),
      })
      .execute();
    await t.db
      .insertInto('audit_log')
      .values({
        actor_id: owner.id,
        actor_email: owner.email,
        action: 'order.status',
        entity: 'order',
        entity_id: orders[1]!.id,
        before: JSON.stringify({ status: 'confirmed' }),
        after: JSON.stringify({ status: 'shipped' }),
      })
      .execute();
    // Someone else, who must not be touched.
    await makeOrder(t.db, { email: 'other@example.test', lines: line(12_000) });
    await makeUser(t.db, { email: 'other@example.test', full_name: 'Autre Client' });
  });
  afterAll(() => t.dispose());

  it("shows 'Détails du client': identity, dates, statistics, every paid or refunded order", async () => {
    const detail = await customerDetail(t.db, 'SOPHIE.kovac@example.test');
    expect(detail).toEqual({
      email: 'Sophie.Kovac@example.test',
      name: 'Sophie Kovač',
      registeredAt: '2026-02-03T10:00:00.000Z',
      lastSignInAt: '2026-11-21T18:00:00.000Z',
      orders: 2,
      spentCents: 81_500,
      refunded: 1,
      cancelled: 0,
      averageCents: 40_750,
      firstOrderAt: '2026-03-10T10:00:00.000Z',
      lastOrderAt: '2026-10-10T10:00:00.000Z',
      hasAccount: true,
      currency: 'EUR',
      history: [
        expect.objectContaining({
          number: orders[2]!.orderNumber,
          date: '2026-10-10T10:00:00.000Z',
          totalCents: 20_000,
          fulfilment: 'cancelled',
          payment: 'refunded',
        }),
        expect.objectContaining({
          number: orders[1]!.orderNumber,
          totalCents: 50_000,
          fulfilment: 'shipped',
          payment: 'paid',
        }),
        expect.objectContaining({
          number: orders[0]!.orderNumber,
          totalCents: 31_500,
          currency: 'EUR',
          fulfilment: 'confirmed',
        }),
      ],
    });
    const response = await call(
      DETAIL,
      `/api/admin/customers/detail?email=${encodeURIComponent('sophie.kovac@example.test')}`,
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as CustomerDetailView).history).toHaveLength(3);
    expect(
      (
        await call(DETAIL, '/api/admin/customers/detail?email=nobody%40example.test', {
          token: owner.token,
        })
      ).status,
    ).toBe(404);
    expect((await call(DETAIL, '/api/admin/customers/detail', { token: owner.token })).status).toBe(
      400,
    );
  });

  it('exports everything held about the address, never a password hash', async () => {
    const response = await call(
      EXPORT,
      `/api/admin/customers/export?email=${encodeURIComponent('sophie.kovac@example.test')}`,
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="donnees-client-sophie\.kovac@example\.test-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const text = await response.text();
    expect(text).not.toContain('argon2');
    expect(text).not.toContain('secret');
    const data = JSON.parse(text) as CustomerExport;
    expect(data.account).toMatchObject({
      id: client.id,
      email: 'Sophie.Kovac@example.test',
      fullName: 'Sophie Kovač',
      role: 'customer',
      sessions: [expect.objectContaining({ expiresAt: expect.any(String) as string }) as unknown],
    });
    expect(data.orders.map((o) => o.number).sort()).toEqual(
      orders.map((o) => o.orderNumber).sort(),
    );
    const first = data.orders.find((o) => o.number === orders[0]!.orderNumber)!;
    expect(first).toMatchObject({
      customerPhone: '+33 6 12 34 56 78',
      shippingAddress: { street: '1 rue de la Paix', city: 'Paris', country: 'FR' },
      billingAddress: { city: 'Lyon' },
      lines: [{ title: 'Le Tage', type: 'print', quantity: 1, unitPriceCents: 30_000 }],
      invoices: [{ kind: 'invoice', number: 'F-2026-000001', totalCents: 31_500 }],
    });
    expect(data.orders.find((o) => o.number === orders[1]!.orderNumber)!.withdrawals).toEqual([
      expect.objectContaining({ statement: 'Je me rétracte.' }),
    ]);
    expect(data.contactMessages).toEqual([
      expect.objectContaining({
        kind: 'contact',
        work: null,
        subject: 'Question',
        message: 'Le tirage existe-t-il plus grand ?',
      }),
      expect.objectContaining({
        kind: 'enquiry',
        work: 'Le Tage',
        subject: null,
        message: 'L’original est-il encadré ?',
      }),
    ]);
    expect(data.audit).toEqual([
      expect.objectContaining({ action: 'order.status', entityId: orders[1]!.id }),
    ]);
    expect(JSON.stringify(data)).not.toContain('other@example.test');
    expect(
      (
        await call(EXPORT, '/api/admin/customers/export?email=nobody%40example.test', {
          token: owner.token,
        })
      ).status,
    ).toBe(404);
  });

  it('refuses an erasure without the address typed again, or of an administrator', async () => {
    const wrong = await call(ERASE, '/api/admin/customers/erase', {
      token: owner.token,
      method: 'POST',
      body: { email: 'sophie.kovac@example.test', confirmation: 'sophie' },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      error: { code: 'invalid_input', fields: { confirmation: expect.any(String) as string } },
    });
    const admin = await call(ERASE, '/api/admin/customers/erase', {
      token: owner.token,
      method: 'POST',
      body: { email: owner.email, confirmation: owner.email },
    });
    expect(admin.status).toBe(400);
    expect(
      await t.db.selectFrom('users').where('id', '=', owner.id).select('id').execute(),
    ).toHaveLength(1);
  });

  it('refuses to erase while an order is open, naming it, and touches nothing', async () => {
    // One unshipped, one shipped (its withdrawal period has not even started), a checkout that
    // may still be paid: each still needs the customer's name and address (issue 24).
    const body = { email: 'sophie.kovac@example.test', confirmation: 'sophie.kovac@example.test' };
    const before = await t.db.selectFrom('orders').selectAll().orderBy('id').execute();
    const blocked = await call(ERASE, '/api/admin/customers/erase', {
      token: owner.token,
      method: 'POST',
      body,
    });
    expect(blocked.status).toBe(409);
    const refusal = (await blocked.json()) as {
      error: { code: string; details: { orders: { number: string; reasons: string[] }[] } };
    };
    expect(refusal.error.code).toBe('erase_blocked');
    expect(refusal.error.details.orders).toEqual(
      expect.arrayContaining([
        { number: orders[0]!.orderNumber, reasons: ['unshipped'] },
        { number: orders[1]!.orderNumber, reasons: ['withdrawal_period'] },
        { number: orders[3]!.orderNumber, reasons: ['awaiting_payment'] },
      ]),
    );
    expect(refusal.error.details.orders).toHaveLength(3);
    expect(await t.db.selectFrom('orders').selectAll().orderBy('id').execute()).toEqual(before);
    expect(
      await t.db.selectFrom('users').where('id', '=', client.id).select('id').execute(),
    ).toHaveLength(1);
    // Asked to, the erasure is recorded and waits: the sweeper finds the orders still open.
    const scheduled = await call(ERASE, '/api/admin/customers/erase', {
      token: owner.token,
      method: 'POST',
      body: { ...body, whenClosed: true },
    });
    expect(scheduled.status).toBe(200);
    expect(await scheduled.json()).toMatchObject({ scheduled: true });
    expect(await runErasuresDue(t.db)).toBe(0);
    expect(await t.db.selectFrom('orders').selectAll().orderBy('id').execute()).toEqual(before);
    // The orders close: delivered long ago, the checkout expired.
    await t.db
      .updateTable('orders')
      .set({ status: 'delivered', shipped_at: new Date('2026-09-12T10:00:00Z') })
      .where('id', 'in', [orders[0]!.id, orders[1]!.id])
      .execute();
    await t.db
      .updateTable('orders')
      .set({ payment_status: 'expired' })
      .where('id', '=', orders[3]!.id)
      .execute();
  });

  it('erases the customer and keeps the accounting exactly as it was', async () => {
    // Failed sign-ins on the account, from anywhere and from one address: erased with it.
    const throttled = loginThrottleKeys('sophie.kovac@example.test', '203.0.113.0');
    await t.db
      .insertInto('login_throttle')
      .values([throttled.account.key, throttled.accountAddress.key].map((key) => ({ key })))
      .execute();
    const before = await accounting(t.db);
    const customersBefore = (await listCustomers(t.db, ALL, { now })).stats;
    const analyticsBefore = (await analytics(t.db, '1y', { now })).customers.total;
    const response = await call(ERASE, '/api/admin/customers/erase', {
      token: owner.token,
      method: 'POST',
      body: { email: 'Sophie.Kovac@example.test', confirmation: ' sophie.kovac@EXAMPLE.test ' },
    });
    expect(response.status).toBe(200);
    const result = (await response.json()) as EraseResult;
    expect(result).toEqual({
      pseudonym: expect.stringMatching(/^efface-[0-9a-f]{8}@invalid$/) as string,
      accountDeleted: true,
      ordersAnonymised: 4,
      // Her contact message and her enquiry about a work.
      contactMessagesDeleted: 2,
    });

    // Accounting: every amount, every sale, every invoice as before.
    expect(await accounting(t.db)).toEqual(before);
    expect((await analytics(t.db, '1y', { now })).customers.total).toBe(analyticsBefore);
    // The account and what hangs on it are gone.
    expect(
      await t.db.selectFrom('users').where('id', '=', client.id).selectAll().execute(),
    ).toEqual([]);
    expect(
      await t.db.selectFrom('sessions').where('user_id', '=', client.id).selectAll().execute(),
    ).toEqual([]);
    expect(await t.db.selectFrom('contact_messages').selectAll().execute()).toEqual([]);
    expect(
      await t.db
        .selectFrom('login_throttle')
        .where('key', 'in', [throttled.account.key, throttled.accountAddress.key])
        .selectAll()
        .execute(),
    ).toEqual([]);
    // The orders carry no personal data any more.
    const anonymised = await t.db
      .selectFrom('orders')
      .selectAll()
      .where(
        'id',
        'in',
        orders.map((o) => o.id),
      )
      .execute();
    for (const order of anonymised)
      expect(order).toMatchObject({
        customer_name: 'Client effacé',
        customer_email: result.pseudonym,
        customer_phone: null,
        billing_address: null,
        user_id: null,
        shipping_address: { street: '', postal_code: '', city: '', country: 'FR' },
        erased_at: expect.any(Date) as Date,
      });
    const everything = JSON.stringify(
      await t.db
        .selectFrom('orders')
        .selectAll()
        .where(
          'id',
          'in',
          orders.map((o) => o.id),
        )
        .execute(),
    );
    expect(everything).not.toMatch(/sophie|kova|paix|lyon|\+33/i);
    // The one customer is still one (its sales count), under its pseudonym, without an account.
    const after = await listCustomers(t.db, ALL, { now });
    expect(after.stats).toEqual(customersBefore);
    expect(after.customers.find((c) => c.email === result.pseudonym)).toMatchObject({
      name: 'Client effacé',
      orders: 2,
      spentCents: 81_500,
      hasAccount: false,
    });
    expect((await listCustomers(t.db, { ...ALL, q: 'kovac' }, { now })).matching).toBe(0);
    // Audited under the address's hash, never in clear.
    const entries = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'customer.erase')
      .execute();
    expect(entries).toEqual([
      expect.objectContaining({
        actor_email: owner.email,
        entity: 'customer',
        entity_id: customerHash('sophie.kovac@example.test'),
      }),
    ]);
    expect(JSON.stringify(await t.db.selectFrom('audit_log').selectAll().execute())).not.toMatch(
      /sophie|kova/i,
    );
    // Someone else was not touched.
    expect((await customerDetail(t.db, 'other@example.test')).orders).toBe(1);
    // Nothing is left to export or erase.
    await expect(exportCustomer(t.db, 'sophie.kovac@example.test')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      eraseCustomer(
        t.db,
        { email: 'sophie.kovac@example.test', confirmation: 'sophie.kovac@example.test' },
        owner,
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('customer_summaries agrees with the one sale rule', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ maxConnections: 20 });
  });
  afterAll(() => t.dispose());

  /** The customers computed from scratch, as the list defines them, with api/orders/sales.ts. */
  async function reference(db: Database) {
    const { rows } = await sql<{ key: string; orders: string; spent: string; last: Date | null }>`
      WITH people AS (
        SELECT lower(email) AS key, 0 AS sale, 0 AS amount, NULL::timestamptz AS at
        FROM users WHERE role = 'customer'
        UNION ALL
        SELECT lower(customer_email), CASE WHEN ${isSale()} THEN 1 ELSE 0 END,
               CASE WHEN ${isSale()} THEN ${saleAmount()} ELSE 0 END, coalesce(paid_at, created_at)
        FROM orders WHERE payment_status IN ('paid', 'refunded')
      )
      SELECT key, sum(sale) AS orders, sum(amount) AS spent, max(at) AS last
      FROM people GROUP BY key ORDER BY key`.execute(db);
    return rows.map((r) => ({
      key: r.key,
      orders: Number(r.orders),
      spent: Number(r.spent),
      last: r.last ? new Date(r.last).toISOString() : null,
    }));
  }
  async function kept(db: Database) {
    const rows = await db
      .selectFrom('customer_summaries')
      .select(['key', 'orders', 'spent_cents', 'last_order_at'])
      .orderBy('key')
      .execute();
    return rows.map((r) => ({
      key: r.key,
      orders: r.orders,
      spent: Number(r.spent_cents),
      last: r.last_order_at ? new Date(r.last_order_at).toISOString() : null,
    }));
  }

  it('after inserts, payments, refunds, cancellations, address changes and deletions', async () => {
    const work = (await makeArtwork(t.db)).id;
    const created: string[] = [];
    const payments = ['paid', 'paid', 'paid', 'refunded', 'unpaid', 'expired', 'failed'];
    for (let i = 0; i < 60; i++) {
      const payment = payments[i % payments.length]!;
      const settled = payment === 'paid' || payment === 'refunded';
      const order = await makeOrder(t.db, {
        email: `${i % 3 === 0 ? 'Buyer' : 'buyer'}${i % 11}@example.test`,
        lines: [{ artworkId: work, type: 'print', unitPriceCents: 1_000 + i * 37 }],
        payment,
        status: i % 9 === 0 ? 'cancelled' : settled ? 'delivered' : 'pending',
        paidAt: settled ? new Date(Date.UTC(2026, 5, 1 + i)) : null,
      });
      created.push(order.id);
    }
    for (let i = 0; i < 8; i++)
      await makeUser(t.db, {
        email: `buyer${i * 2}@EXAMPLE.test`,
        role: i === 3 ? 'admin' : 'customer',
      });
    expect(await kept(t.db)).toEqual(await reference(t.db));

    await t.db
      .updateTable('orders')
      .set({ payment_status: 'refunded', status: 'cancelled' })
      .where('id', 'in', created.slice(0, 10))
      .execute();
    await t.db
      .updateTable('orders')
      .set({ payment_status: 'paid', status: 'confirmed', paid_at: new Date('2026-11-01T10:00Z') })
      .where('id', 'in', created.slice(30, 40))
      .execute();
    await t.db
      .updateTable('orders')
      .set({ customer_email: 'moved@example.test' })
      .where('id', 'in', created.slice(40, 45))
      .execute();
    await t.db.deleteFrom('order_items').where('order_id', 'in', created.slice(50, 55)).execute();
    await t.db.deleteFrom('orders').where('id', 'in', created.slice(50, 55)).execute();
    await t.db
      .deleteFrom('users')
      .where(sql<string>`lower(email)`, '=', 'buyer4@example.test')
      .execute();
    await t.db
      .updateTable('users')
      .set({ email: 'renamed@example.test' })
      .where(sql<string>`lower(email)`, '=', 'buyer6@example.test')
      .execute();
    expect(await kept(t.db)).toEqual(await reference(t.db));

    // Partial refunds (issue 27): the order stays a sale, its customer's spending goes down.
    const spent = async () => (await kept(t.db)).reduce((sum, c) => sum + c.spent, 0);
    const before = await spent();
    const partly = created.slice(14, 17);
    await t.db
      .updateTable('orders')
      .set({ refunded_cents: 500 })
      .where('id', 'in', partly)
      .where('payment_status', '=', 'paid')
      .where('status', '<>', 'cancelled')
      .execute();
    const sales = await t.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', 'in', partly)
      .where('refunded_cents', '=', 500)
      .executeTakeFirstOrThrow();
    expect(Number(sales.n)).toBeGreaterThan(0);
    expect(await spent()).toBe(before - 500 * Number(sales.n));
    expect(await kept(t.db)).toEqual(await reference(t.db));
  });

  it(
    'loses no payment when two arrive at once for a new customer',
    { tags: ['concurrency'] },
    async () => {
      const work = (await makeArtwork(t.db)).id;
      const pending = await Promise.all(
        Array.from({ length: 6 }, () =>
          makeOrder(t.db, {
            email: 'rush@example.test',
            lines: [{ artworkId: work, type: 'print', unitPriceCents: 2_000 }],
            paidAt: null,
          }),
        ),
      );
      // Six webhooks in six transactions at the same moment (truly parallel on PostgreSQL).
      await Promise.all(
        pending.map((order) =>
          t.db.transaction().execute(async (trx) => {
            await trx
              .updateTable('orders')
              .set({ payment_status: 'paid', status: 'confirmed', paid_at: NOW })
              .where('id', '=', order.id)
              .execute();
            await sql`SELECT pg_sleep(0.05)`.execute(trx);
          }),
        ),
      );
      const row = await t.db
        .selectFrom('customer_summaries')
        .selectAll()
        .where('key', '=', 'rush@example.test')
        .executeTakeFirstOrThrow();
      expect({ orders: row.orders, spent: Number(row.spent_cents) }).toEqual({
        orders: 6,
        spent: 12_000,
      });
    },
  );
});
