// The orders screen's endpoints (back office §2 "Gestion des commandes", §4, §5, §8; issue 13)
// through the real middleware against a real database: only orders that were paid are listed;
// the search finds a part of a name whatever its case and accents, an email, a number, a session
// id; the filters, sorts and pages come from SQL; the detail has everything the modal shows; a
// status change is audited, refused in French when the order cannot take it; 'Expédiée' mails the
// buyer in their language with the tracking number; 'Annulée' asks its two questions and puts the
// works back on sale when told; the CSV parses back as a French spreadsheet reads it.
import { sql } from 'kysely';
import type { APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readAudit } from '#api/admin/audit.ts';
import {
  changeOrderStatus,
  csvAmount,
  csvCell,
  getAdminOrder,
  type RefundOrder,
} from '#api/admin/orders.ts';
import type { Payments } from '#api/payments/index.ts';
import { providePublisher } from '#api/build/publish.ts';
import { provideDatabase } from '#api/db/context.ts';
import { ERRORS } from '#api/http/errors.ts';
import { provideMailer, type Mailer, type MailMessage } from '#api/mail/index.ts';
import type { OrderDetail, OrderList, OrderStatusResult } from '../../src/schemas/admin-orders.ts';
import { GET as LIST } from '../../src/pages/api/admin/orders/index.ts';
import { GET as DETAIL, PATCH } from '../../src/pages/api/admin/orders/[id].ts';
import { GET as EXPORT } from '../../src/pages/api/admin/orders/export.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';

const ORIGIN = 'http://localhost:4321';

let t: TestDatabase;
let owner: { id: string; token: string; email: string };
let customer: { token: string };
const mails: MailMessage[] = [];
const publishes: string[] = [];
let failMail = false;
const mailer: Mailer = {
  description: 'memory',
  send(message) {
    if (failMail) return Promise.reject(new Error('SMTP down'));
    mails.push(message);
    return Promise.resolve();
  },
};

async function call(
  route: APIRoute,
  method: string,
  path: string,
  options: { body?: unknown; session?: string; params?: Record<string, string> } = {},
): Promise<Response> {
  const headers = new Headers({ origin: ORIGIN });
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  const session = options.session ?? owner.token;
  return callEndpoint(route, {
    request: new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
    }),
    params: options.params ?? {},
    cookies: {
      get: (name: string) => (name === 'session' ? { value: session } : undefined),
    } as never,
  });
}

async function list(query: Record<string, string | number> = {}): Promise<OrderList> {
  const params = new URLSearchParams(
    Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string]),
  );
  const response = await call(LIST, 'GET', `/api/admin/orders?${params}`);
  expect(response.status).toBe(200);
  return (await response.json()) as OrderList;
}

const detail = (id: string) => call(DETAIL, 'GET', `/api/admin/orders/${id}`, { params: { id } });
const change = (id: string, body: unknown) =>
  call(PATCH, 'PATCH', `/api/admin/orders/${id}`, { params: { id }, body });

/** A paid order with a buyer of a given name, email, language and session id. */
async function order(
  options: {
    name?: string;
    email?: string;
    locale?: 'fr' | 'en';
    session?: string;
    payment?: string;
    status?: string;
    paidAt?: Date | null;
    createdAt?: Date;
    totalCents?: number;
    promo?: string;
    lines?: Parameters<typeof makeOrder>[1]['lines'];
  } = {},
) {
  const made = await makeOrder(t.db, {
    lines: options.lines ?? [
      { artworkId: null, type: 'print', unitPriceCents: options.totalCents ?? 35_000 },
    ],
    ...(options.email ? { email: options.email } : {}),
    ...(options.payment ? { payment: options.payment } : {}),
    ...(options.status ? { status: options.status } : {}),
    ...(options.paidAt !== undefined ? { paidAt: options.paidAt } : {}),
    ...(options.createdAt ? { createdAt: options.createdAt } : {}),
  });
  await t.db
    .updateTable('orders')
    .set({
      updated_at: new Date(),
      ...(options.name ? { customer_name: options.name } : {}),
      ...(options.locale ? { locale: options.locale } : {}),
      ...(options.session ? { stripe_session_id: options.session } : {}),
      ...(options.promo ? { promo_code: options.promo } : {}),
    })
    .where('id', '=', made.id)
    .execute();
  return made;
}

beforeAll(async () => {
  t = await createTestDatabase();
  provideDatabase(t);
  provideMailer(mailer);
  providePublisher({
    request: (reason) => void publishes.push(reason ?? ''),
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
  customer = await makeUser(t.db);
});

afterAll(async () => {
  providePublisher(undefined);
  await t?.dispose();
});

beforeEach(() => {
  mails.length = 0;
  publishes.length = 0;
  failMail = false;
});

describe('the list', () => {
  let ines: { id: string; orderNumber: string };
  const SESSION = 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV';

  beforeAll(async () => {
    ines = await order({
      name: 'Inês Duarte-Lopes',
      email: 'ines.duarte@example.pt',
      session: SESSION,
      totalCents: 185_000,
    });
    // Checkouts never paid, expired or failed: never orders of the back office.
    await order({ name: 'Inês Ouverte', payment: 'unpaid', paidAt: null });
    await order({ name: 'Inês Expirée', payment: 'expired', paidAt: null });
    await order({ name: 'Inês Échouée', payment: 'failed', paidAt: null });
  });

  it('lists orders that were paid — never open, expired or failed checkouts', async () => {
    const all = await list({ q: 'ines' });
    expect(all.orders.map((o) => o.customerName)).toEqual(['Inês Duarte-Lopes']);
    const counts = await t.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('payment_status', 'in', ['paid', 'refunded'])
      .executeTakeFirstOrThrow();
    expect(all.total).toBe(Number(counts.n));
    expect(all.matching).toBe(1);
    expect(all.orders[0]).toMatchObject({
      id: ines.id,
      number: ines.orderNumber,
      customerEmail: 'ines.duarte@example.pt',
      type: 'Carte bancaire (Stripe)',
      totalCents: 185_000,
      currency: 'EUR',
      fulfilment: 'confirmed',
      payment: 'paid',
      withdrawalRequestedAt: null,
      hasInvoice: false,
    });
  });

  it('finds a part of a name in any case, with or without its accents', async () => {
    for (const q of ['INÊS', 'ines', 'duarte-lo', 'DuArTe', 'Inés', 'NÊS DUA'])
      expect(
        (await list({ q })).orders.map((o) => o.id),
        q,
      ).toEqual([ines.id]);
  });

  it('finds an email, an order number, a session id whole or in part', async () => {
    for (const q of [
      'duarte@example',
      ines.orderNumber.toLowerCase(),
      ines.orderNumber.slice(-4),
      SESSION,
      SESSION.slice(0, 12),
      'd4E5f6G7',
    ])
      expect(
        (await list({ q })).orders.map((o) => o.id),
        q,
      ).toEqual([ines.id]);
  });

  it('takes % and _ literally and trims the search', async () => {
    expect((await list({ q: '%' })).matching).toBe(0);
    expect((await list({ q: 'in%lopes' })).matching).toBe(0);
    expect((await list({ q: 'i_es' })).matching).toBe(0);
    expect((await list({ q: '  ines  ' })).matching).toBe(1);
  });

  it('answers the default view for a query it does not understand', async () => {
    const odd = await list({ status: 'lost', sort: 'colour', dir: 'sideways', page: -3 });
    const plain = await list();
    expect(odd).toEqual(plain);
  });

  it('is for administrators only', async () => {
    const response = await call(LIST, 'GET', '/api/admin/orders', { session: customer.token });
    expect(response.status).toBe(403);
  });
});

describe('filters, sorts and pages', () => {
  const TAG = 'Lisière';
  const made: { id: string; total: number; status: string; payment: string; day: number }[] = [];

  beforeAll(async () => {
    // 30 orders of one tag over 30 days: 6 of each fulfilment status, two refunded (cancelled).
    const statuses = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'];
    for (let i = 0; i < 30; i++) {
      const status = statuses[i % 5]!;
      const payment = status === 'cancelled' && i < 15 ? 'refunded' : 'paid';
      const at = new Date(Date.UTC(2026, 9, 1 + i, 10));
      const total = 10_000 + ((i * 7919) % 30) * 1000;
      const o = await order({
        name: `${TAG} ${String(i).padStart(2, '0')} ${String.fromCharCode(90 - i)}`,
        totalCents: total,
        status,
        payment,
        paidAt: at,
      });
      made.push({ id: o.id, total, status, payment, day: i });
    }
  });

  it('filters by each fulfilment status and by paid payment', async () => {
    for (const status of ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const) {
      const found = await list({ q: TAG, status });
      expect(found.matching, status).toBe(6);
      expect(found.orders.every((o) => o.fulfilment === status)).toBe(true);
    }
    const paid = await list({ q: TAG, status: 'paid' });
    expect(paid.matching).toBe(30 - made.filter((m) => m.payment === 'refunded').length);
    expect(paid.orders.every((o) => o.payment === 'paid')).toBe(true);
    expect((await list({ q: TAG, status: 'all' })).matching).toBe(30);
  });

  it('pages by 25 and keeps a page past the end on the last one', async () => {
    const first = await list({ q: TAG });
    expect(first).toMatchObject({ matching: 30, page: 1, pages: 2 });
    expect(first.orders).toHaveLength(25);
    const second = await list({ q: TAG, page: 2 });
    expect(second.orders).toHaveLength(5);
    expect(new Set([...first.orders, ...second.orders].map((o) => o.id)).size).toBe(30);
    expect(await list({ q: TAG, page: 99 })).toEqual(second);
  });

  it('sorts by date, newest first by default, and by amount, customer, number and status', async () => {
    const byDate = (await list({ q: TAG })).orders.map((o) => o.id);
    expect(byDate).toEqual(
      [...made]
        .sort((a, b) => b.day - a.day)
        .slice(0, 25)
        .map((m) => m.id),
    );
    const oldest = await list({ q: TAG, sort: 'date', dir: 'asc' });
    expect(oldest.orders[0]!.id).toBe(made[0]!.id);

    const all = async (query: Record<string, string>) => [
      ...(await list({ q: TAG, ...query })).orders,
      ...(await list({ q: TAG, ...query, page: 2 })).orders,
    ];
    const totals = (await all({ sort: 'total', dir: 'asc' })).map((o) => o.totalCents);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const desc = (await all({ sort: 'total', dir: 'desc' })).map((o) => o.totalCents);
    expect(desc).toEqual([...totals].reverse());
    const names = (await all({ sort: 'customer', dir: 'asc' })).map((o) => o.customerName);
    expect(names).toEqual([...names].sort());
    const numbers = (await all({ sort: 'number', dir: 'desc' })).map((o) => o.number);
    expect(numbers).toEqual([...numbers].sort().reverse());
    const statuses = (await all({ sort: 'status', dir: 'asc' })).map((o) => o.fulfilment);
    expect(statuses).toEqual(
      ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'].flatMap((s) =>
        Array<string>(6).fill(s),
      ),
    );
  });
});

describe('without a search (each page read through its sort index)', () => {
  beforeAll(async () => {
    for (let i = 0; i < 30; i++)
      await order({
        name: `Sans recherche ${i}`,
        totalCents: 5_000 + i * 100,
        status: i % 3 === 0 ? 'shipped' : 'delivered',
        paidAt: new Date(Date.UTC(2026, 8, 1 + i, 9)),
      });
  });

  const expected = async (status?: string) =>
    Number(
      (
        await sql<{ n: string }>`SELECT count(*) AS n FROM orders
          WHERE payment_status IN ('paid', 'refunded')
          ${status ? sql`AND status = ${status}` : sql``}`.execute(t.db)
      ).rows[0]!.n,
    );

  it('counts every listed order, and each status, as a search would', async () => {
    const all = await list({});
    expect(all.total).toBe(await expected());
    expect(all.matching).toBe(all.total);
    for (const status of ['shipped', 'delivered'] as const) {
      const found = await list({ status });
      expect(found.matching, status).toBe(await expected(status));
      expect(found.total, status).toBe(all.total);
      expect(found.orders.every((o) => o.fulfilment === status)).toBe(true);
    }
  });

  it('sorts every page alike and keeps a page past the end on the last one', async () => {
    const pages = (await list({ sort: 'total', dir: 'asc' })).pages;
    const totals: number[] = [];
    for (let page = 1; page <= pages; page++)
      totals.push(
        ...(await list({ sort: 'total', dir: 'asc', page })).orders.map((o) => o.totalCents),
      );
    expect(totals).toHaveLength(await expected());
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const last = await list({ sort: 'total', dir: 'asc', page: pages });
    expect(await list({ sort: 'total', dir: 'asc', page: pages + 40 })).toEqual(last);
    const shipped = await list({ status: 'shipped' });
    expect(await list({ status: 'shipped', page: 99 })).toEqual(
      await list({ status: 'shipped', page: shipped.pages }),
    );
  });
});

describe('the detail', () => {
  it('has everything the modal shows, its history from the audit log', async () => {
    const work = await makeArtwork(t.db, { artwork_type: 'print', stock: 4 });
    const o = await order({
      name: 'Zoë Kovač',
      promo: 'ART20',
      lines: [
        {
          artworkId: work.id,
          type: 'print',
          title: 'Seuil, tirage',
          unitPriceCents: 24_000,
          quantity: 2,
        },
      ],
    });
    await t.db
      .updateTable('orders')
      .set({
        customer_phone: '+351 912 345 678',
        shipping_address: JSON.stringify({
          street: 'Rua da Rosa 40',
          additionalInfo: '2.º esq.',
          postalCode: '1200-385',
          city: 'Lisboa',
          country: 'PT',
        }),
        discount_cents: 9_600,
        shipping_cents: 0,
        total_cents: 48_000 - 9_600,
        stripe_payment_intent_id: 'pi_test_123',
      })
      .where('id', '=', o.id)
      .execute();
    expect((await change(o.id, { status: 'delivered' })).status).toBe(200);

    const response = await detail(o.id);
    expect(response.status).toBe(200);
    const { order: d } = (await response.json()) as { order: OrderDetail };
    expect(d).toMatchObject({
      id: o.id,
      customerName: 'Zoë Kovač',
      customerPhone: '+351 912 345 678',
      shippingAddress: {
        street: 'Rua da Rosa 40',
        additional_info: '2.º esq.',
        postal_code: '1200-385',
        city: 'Lisboa',
        country: 'PT',
      },
      locale: 'fr',
      lines: [
        {
          title: 'Seuil, tirage',
          type: 'print',
          quantity: 2,
          unitPriceCents: 24_000,
          lineCents: 48_000,
        },
      ],
      subtotalCents: 48_000,
      promoCode: 'ART20',
      discountCents: 9_600,
      shippingCents: 0,
      paymentMethod: 'Carte bancaire (Stripe)',
      refundedCents: 0,
      invoices: [],
      fulfilment: 'delivered',
      // Test mode (no payments configured here): nothing to link to in Stripe's dashboard.
      stripeDashboardUrl: null,
    });
    expect(d.stripeSessionId).toMatch(/^cs_test_/);
    expect(d.paidAt).not.toBeNull();
    expect(d.history.map((h) => [h.action, h.summary, h.actor])).toEqual([
      ['order.paid', 'Payée', null],
      ['order.status', 'Confirmée → Livrée', owner.email],
    ]);
  });

  it("links to the payment in Stripe's dashboard in live mode only", async () => {
    const o = await order();
    await t.db
      .updateTable('orders')
      .set({ stripe_payment_intent_id: 'pi_live_3Q1x' })
      .where('id', '=', o.id)
      .execute();
    const mode = (m: Partial<Payments>) => ({ mode: 'test', emulated: false, ...m }) as Payments;
    expect((await getAdminOrder(t.db, o.id, mode({ mode: 'live' }))).stripeDashboardUrl).toBe(
      'https://dashboard.stripe.com/payments/pi_live_3Q1x',
    );
    for (const payments of [mode({}), mode({ mode: 'live', emulated: true }), undefined])
      expect((await getAdminOrder(t.db, o.id, payments)).stripeDashboardUrl).toBeNull();
  });

  it('says when the automatic refund of a late payment has not gone through yet', async () => {
    const o = await order({ payment: 'refunded', status: 'cancelled', totalCents: 42_000 });
    await t.db
      .updateTable('orders')
      .set({ refund_pending_at: new Date(), stripe_payment_intent_id: 'pi_late_1' })
      .where('id', '=', o.id)
      .execute();
    expect(await getAdminOrder(t.db, o.id)).toMatchObject({
      refundPending: true,
      refundedCents: 0,
    });
    await t.db
      .updateTable('orders')
      .set({ refund_pending_at: null, refunded_cents: 42_000, refunded_at: new Date() })
      .where('id', '=', o.id)
      .execute();
    expect(await getAdminOrder(t.db, o.id)).toMatchObject({
      refundPending: false,
      refundedCents: 42_000,
    });
  });

  it("shows 'Rétractation demandée' once the buyer asked to withdraw", async () => {
    const o = await order({ name: 'Rétractée Withdrawn' });
    const at = new Date('2026-11-20T09:30:00Z');
    await t.db
      .updateTable('orders')
      .set({ withdrawal_requested_at: at })
      .where('id', '=', o.id)
      .execute();
    const [row] = (await list({ q: 'retractee withdrawn' })).orders;
    expect(row!.withdrawalRequestedAt).toBe(at.toISOString());
  });

  it('is not found for an unknown, malformed or never-paid order, as JSON', async () => {
    const unpaid = await order({ payment: 'unpaid', paidAt: null });
    for (const id of [
      '00000000-0000-4000-8000-000000000000',
      'not-a-uuid',
      "1' OR '1'='1",
      unpaid.id,
    ]) {
      const response = await detail(id);
      expect(response.status, id).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});

describe('status changes', () => {
  it('changes the status, audited before → after', async () => {
    const o = await order();
    const response = await change(o.id, { status: 'pending' });
    expect(response.status).toBe(200);
    const result = (await response.json()) as OrderStatusResult;
    expect(result).toMatchObject({ mail: null, refundedCents: null, restocked: false });
    expect(result.order.fulfilment).toBe('pending');
    const [entry] = await readAudit(t.db, { entity: 'order', entityId: o.id });
    expect(entry).toMatchObject({
      actor: owner.email,
      action: 'order.status',
      before: { status: 'confirmed' },
      after: { status: 'pending' },
    });
  });

  it('refuses what the order cannot take, in French, and changes nothing', async () => {
    const cancelled = await order({ status: 'cancelled' });
    const refunded = await order({ payment: 'refunded', status: 'confirmed' });
    const same = await order();
    for (const [id, status, message] of [
      [cancelled.id, 'confirmed', 'une commande annulée ne change plus de statut'],
      [refunded.id, 'shipped', 'une commande remboursée ne peut plus être qu’annulée'],
      [same.id, 'confirmed', 'la commande est déjà « Confirmée »'],
    ] as const) {
      const response = await change(id, { status });
      expect(response.status, message).toBe(ERRORS.rejected.status);
      expect(await response.json()).toEqual({ error: { code: 'rejected', message } });
      expect(await readAudit(t.db, { entity: 'order', entityId: id })).toEqual([]);
    }
    const unpaid = await order({ payment: 'unpaid', paidAt: null });
    expect((await change(unpaid.id, { status: 'shipped' })).status).toBe(404);
  });

  it('refuses details that belong to another status and unknown fields', async () => {
    const o = await order();
    for (const body of [
      { status: 'delivered', trackingNumber: '123' },
      { status: 'shipped', refund: true },
      { status: 'shipped', colour: 'blue' },
      { status: 'lost' },
      { status: 'shipped', carrier: 'x'.repeat(81) },
    ]) {
      const response = await change(o.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'invalid_input',
      );
    }
  });

  it("'Expédiée' stores carrier and tracking number and mails the buyer in their language", async () => {
    const en = await order({ name: 'Joan Miller', email: 'joan@example.org', locale: 'en' });
    const response = await change(en.id, {
      status: 'shipped',
      carrier: ' Colissimo ',
      trackingNumber: '6A12345678901',
    });
    expect(response.status).toBe(200);
    const result = (await response.json()) as OrderStatusResult;
    expect(result.mail).toBe('sent');
    expect(result.order).toMatchObject({
      fulfilment: 'shipped',
      carrier: 'Colissimo',
      trackingNumber: '6A12345678901',
    });
    expect(result.order.shippedAt).not.toBeNull();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.to).toEqual({ name: 'Joan Miller', address: 'joan@example.org' });
    expect(mail!.subject).toBe(`Your order ${en.orderNumber} has shipped`);
    expect(mail!.text).toContain('Carrier: Colissimo');
    expect(mail!.text).toContain('Tracking number: 6A12345678901');
    expect(mail!.html).toContain('6A12345678901');
    expect(mail!.html).toContain('<html lang="en">');
    // Issue 26: a carrier the back office offers gets its tracking page linked.
    expect(mail!.text).toContain(
      'Track the parcel:\nhttps://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901',
    );
    expect(mail!.html).toContain(
      'href="https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901"',
    );

    const fr = await order({ name: 'Léa Martin', locale: 'fr' });
    await change(fr.id, { status: 'shipped', trackingNumber: 'LA987654321FR' });
    expect(mails[1]!.subject).toBe(`Votre commande ${fr.orderNumber} a été expédiée`);
    expect(mails[1]!.text).toContain('Numéro de suivi\u00a0: LA987654321FR');
    expect(mails[1]!.text).not.toContain('Transporteur');
    // No carrier, no page to link.
    expect(mails[1]!.text).not.toContain('Suivre le colis');
    expect(result.order.history.at(-1)!.summary).toBe(
      'Confirmée → Expédiée (Colissimo, n° 6A12345678901)',
    );
  });

  it("'Expédiée' stays shipped when the mail cannot leave, and says so", async () => {
    const o = await order();
    failMail = true;
    // Logged on purpose, for the owner: replaced so the test's console stays clean.
    const logged = vi.mocked(console.error).mockImplementation(() => {});
    const response = await change(o.id, { status: 'shipped' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as OrderStatusResult).mail).toBe('failed');
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining('the shipping mail could not be sent'),
    );
  });

  it("'Annulée' on a paid order asks both questions; without a refund it restocks when told", async () => {
    const original = await makeArtwork(t.db, { is_sold: true, stock: 0 });
    const print = await makeArtwork(t.db, { artwork_type: 'print', stock: 3 });
    const o = await order({
      lines: [
        { artworkId: original.id, type: 'original', unitPriceCents: 410_000 },
        { artworkId: print.id, type: 'print', unitPriceCents: 35_000, quantity: 2 },
      ],
    });
    const unanswered = await change(o.id, { status: 'cancelled' });
    expect(unanswered.status).toBe(400);
    expect(await unanswered.json()).toMatchObject({
      error: {
        code: 'invalid_input',
        fields: { refund: 'admin.orders.error.choose', restock: 'admin.orders.error.choose' },
      },
    });
    expect((await change(o.id, { status: 'cancelled', refund: false })).status).toBe(400);

    const response = await change(o.id, { status: 'cancelled', refund: false, restock: true });
    expect(response.status).toBe(200);
    const result = (await response.json()) as OrderStatusResult;
    expect(result).toMatchObject({ refundedCents: null, restocked: true });
    expect(result.order).toMatchObject({ fulfilment: 'cancelled', payment: 'paid' });
    const works = await t.db
      .selectFrom('artworks')
      .select(['id', 'is_sold', 'stock'])
      .where('id', 'in', [original.id, print.id])
      .orderBy('id')
      .execute();
    expect(works).toEqual([
      { id: original.id, is_sold: false, stock: 1 },
      { id: print.id, is_sold: false, stock: 5 },
    ]);
    expect(publishes).toEqual([expect.stringContaining('back on sale')]);
    const [entry] = await readAudit(t.db, { entity: 'order', entityId: o.id });
    expect(entry).toMatchObject({
      before: { status: 'confirmed' },
      after: { status: 'cancelled', refund: false, restock: true },
    });
    expect(result.order.history.at(-1)!.summary).toBe(
      'Confirmée → Annulée (œuvres remises en vente)',
    );
  });

  it("'Annulée' with a refund leaves the money, the credit note and the restock to refundOrder", async () => {
    const o = await order({ totalCents: 185_000 });
    const calls: unknown[][] = [];
    // As api/orders/refund.ts records a refund: refunded in full, cancelled, in one transaction.
    const refundOrder: RefundOrder = async (db, id, options) => {
      calls.push([id, options]);
      await db
        .updateTable('orders')
        .set({
          payment_status: 'refunded',
          status: 'cancelled',
          refunded_cents: 185_000,
          refunded_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
      return {};
    };
    const actor = { id: owner.id, email: owner.email };
    const result = await changeOrderStatus(
      { db: t.db, refundOrder },
      o.id,
      { status: 'cancelled', refund: true, restock: true },
      actor,
    );
    expect(calls).toEqual([[o.id, { actor, restock: true, reason: 'cancellation' }]]);
    expect(result).toMatchObject({ refundedCents: 185_000, restocked: true, mail: null });
    expect(result.order).toMatchObject({
      fulfilment: 'cancelled',
      payment: 'refunded',
      refundedCents: 185_000,
    });
    // The refund cancelled the order itself: no second record of the same change.
    expect(await readAudit(t.db, { entity: 'order', entityId: o.id })).toEqual([]);

    // Refunded now: a second refund is refused in French, and so is any change but none.
    await expect(
      changeOrderStatus({ db: t.db, refundOrder }, o.id, { status: 'confirmed' }, actor),
    ).rejects.toMatchObject({ code: 'rejected' });
    expect(calls).toHaveLength(1);
  });

  it("refundOrder's own refusals reach the owner in French, and the order is left as it was", async () => {
    const o = await order();
    const refused = Object.assign(
      new Error('Le remboursement n’a pas pu être effectué auprès de Stripe.'),
      { code: 'refund_failed', status: 502 },
    );
    const refundOrder: RefundOrder = () => Promise.reject(refused);
    await expect(
      changeOrderStatus(
        { db: t.db, refundOrder },
        o.id,
        { status: 'cancelled', refund: true, restock: false },
        { id: owner.id, email: owner.email },
      ),
    ).rejects.toMatchObject({
      code: 'rejected',
      message: 'Le remboursement n’a pas pu être effectué auprès de Stripe.',
    });
    expect((await (await detail(o.id)).json()) as { order: OrderDetail }).toMatchObject({
      order: { fulfilment: 'confirmed', payment: 'paid' },
    });
  });

  it("'Annulée' without a refund nor a restock changes the status only", async () => {
    const original = await makeArtwork(t.db, { is_sold: true, stock: 0 });
    const o = await order({
      lines: [{ artworkId: original.id, type: 'original', unitPriceCents: 410_000 }],
    });
    const response = await change(o.id, { status: 'cancelled', refund: false, restock: false });
    expect(((await response.json()) as OrderStatusResult).restocked).toBe(false);
    const work = await t.db
      .selectFrom('artworks')
      .select(['is_sold'])
      .where('id', '=', original.id)
      .executeTakeFirstOrThrow();
    expect(work.is_sold).toBe(true);
    expect(publishes).toEqual([]);
  });
});

/** RFC 4180 with ';' — what a spreadsheet does with the file. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect(cell).toBe('');
  return rows;
}

describe('the CSV export', () => {
  it('is the filtered list, every page, as a French spreadsheet reads it', async () => {
    const TAG = 'Exportée';
    await order({ name: `${TAG} "Atelier; Lisboa"`, totalCents: 185_050, promo: 'ART20' });
    await order({ name: `=HYPERLINK("http://evil.test","${TAG}")`, totalCents: 1_000 });
    await order({ name: `@${TAG} Somme`, totalCents: 2_000 });
    for (let i = 0; i < 26; i++) await order({ name: `${TAG} ${i}`, totalCents: 1_000 + i });
    await order({ name: `${TAG} annulée`, status: 'cancelled' });

    const response = await call(
      EXPORT,
      'GET',
      `/api/admin/orders/export?q=${encodeURIComponent('exportee')}&status=confirmed&sort=total&dir=desc`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="commandes-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    const rows = parseCsv(text.slice(1));
    expect(rows[0]).toEqual([
      'Commande',
      'Date',
      'Client',
      'Email',
      'Statut',
      'Paiement',
      'Sous-total',
      'Remise',
      'Livraison',
      'Total',
      'Devise',
      'Code promo',
    ]);
    // 29 confirmed (every page, the cancelled one filtered out), most expensive first.
    const body = rows.slice(1);
    expect(body).toHaveLength(29);
    expect(body.every((r) => r.length === 12)).toBe(true);
    expect(body[0]).toEqual([
      expect.stringMatching(/^GAL-/),
      expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/),
      `${TAG} "Atelier; Lisboa"`,
      expect.stringMatching(/@example\.test$/),
      'Confirmée',
      'Payée',
      '1850,50',
      '0,00',
      '0,00',
      '1850,50',
      'EUR',
      'ART20',
    ]);
    const names = body.map((r) => r[2]);
    expect(names).toContain(`'=HYPERLINK("http://evil.test","${TAG}")`);
    expect(names).toContain(`'@${TAG} Somme`);
    expect(names).not.toContain(`${TAG} annulée`);
  });

  it('neutralises every formula start and quotes what needs it', () => {
    expect(['=1+1', '+33 6', '-2', '@SUM(A1)', '\tx', 'plain'].map(csvCell)).toEqual([
      "'=1+1",
      "'+33 6",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
      'plain',
    ]);
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect([0, 5, 100, 185_000, 123_456_789].map(csvAmount)).toEqual([
      '0,00',
      '0,05',
      '1,00',
      '1850,00',
      '1234567,89',
    ]);
  });
});
