// Invoices (issue 13 §4, docs/decisions/019) against a real database: numbers taken in the
// payment's transaction stay gapless and unique under 20 concurrent payments (PostgreSQL runs them
// side by side; PGlite one after the other), a rolled-back payment gives its number back, an issued
// invoice can be neither changed nor deleted, the PDF prints what the snapshot holds and the same
// bytes every time, and a buyer downloads their own invoice only — anything else is a 404.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRoute } from 'astro';
import type Stripe from 'stripe';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { provideDatabase } from '#api/db/context.ts';
import {
  findInvoice,
  invoiceNumber,
  issueCreditNote,
  issueInvoice,
  type InvoiceSnapshot,
} from '#api/invoices/index.ts';
import { renderInvoicePdf } from '#api/invoices/pdf.ts';
import { pdfText } from '#api/invoices/pdf-text.ts';
import { listAccountOrders } from '#api/accounts/orders.ts';
import { applyStripeEvent } from '#api/orders/index.ts';
import { saveSettings, DEFAULT_SETTINGS } from '#api/settings/index.ts';
import { GET as ADMIN_INVOICE } from '../../src/pages/api/admin/orders/[id]/invoice.ts';
import { GET as ACCOUNT_INVOICE } from '../../src/pages/api/account/orders/[id]/invoice.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';

const ORIGIN = 'http://localhost:4321';
let t: TestDatabase;

/** A pending order for one new original (or `lines`), ready to be paid. */
async function pendingOrder(
  options: { lines?: Parameters<typeof makeOrder>[1]['lines']; shippingCents?: number } = {},
) {
  const lines = options.lines ?? [
    {
      artworkId: (await makeArtwork(t.db)).id,
      type: 'original' as const,
      unitPriceCents: 410_000,
      title: 'Lumière sur le Tage',
    },
  ];
  return makeOrder(t.db, {
    lines,
    paidAt: null,
    ...(options.shippingCents === undefined ? {} : { shippingCents: options.shippingCents }),
  });
}

/** Stripe's `checkout.session.completed` for an order, as the webhook receives it once verified. */
function paidEvent(order: { id: string; totalCents: number; sessionId: string }): Stripe.Event {
  const key = randomUUID().replaceAll('-', '');
  return {
    id: `evt_${key}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: order.sessionId,
        object: 'checkout.session',
        metadata: { order_id: order.id },
        status: 'complete',
        payment_status: 'paid',
        amount_total: order.totalCents,
        currency: 'eur',
        payment_intent: `pi_${key}`,
      },
    },
  } as unknown as Stripe.Event;
}

const spaces = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

async function counter(kind: 'invoice' | 'credit_note'): Promise<number> {
  const row = await t.db
    .selectFrom('invoice_counters')
    .select('last')
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return row.last;
}

/** Resolves once another session of this database waits for a row lock (PostgreSQL). */
async function waitingOnALock(): Promise<void> {
  const end = Date.now() + 120_000;
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
    if (rows[0]!.n > 0) return;
    if (Date.now() > end) throw new Error('no session came to wait for the counter row');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function errorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return String((error as Error).message);
  }
  return 'no error';
}

beforeAll(async () => {
  t = await createTestDatabase({ maxConnections: 25 });
  provideDatabase(t);
});
afterAll(async () => {
  await t?.dispose();
});

describe('numbering', () => {
  it(
    'gives 20 concurrent payments the numbers F-000001 to F-000020, each once',
    { tags: ['concurrency'] },
    async () => {
      const orders = await Promise.all(Array.from({ length: 20 }, () => pendingOrder()));
      const outcomes = await Promise.all(orders.map((o) => applyStripeEvent(t.db, paidEvent(o))));
      expect(outcomes.map((o) => o.kind)).toEqual(Array(20).fill('paid'));
      const rows = await t.db
        .selectFrom('invoices')
        .select(['number', 'sequence', 'order_id'])
        .where('kind', '=', 'invoice')
        .execute();
      expect(rows.map((r) => r.number).sort()).toEqual(
        Array.from({ length: 20 }, (_, i) => invoiceNumber('invoice', i + 1)),
      );
      expect(new Set(rows.map((r) => r.order_id))).toEqual(new Set(orders.map((o) => o.id)));
      expect(await counter('invoice')).toBe(20);
    },
  );

  it(
    'gives a rolled-back payment’s number to the next one: no gap, even while it waited',
    { tags: ['concurrency'] },
    async () => {
      const before = await counter('invoice');
      const [failing, next] = [await pendingOrder(), await pendingOrder()];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let taken!: (number: string) => void;
      const numbered = new Promise<string>((resolve) => (taken = resolve));
      const rolledBack = t.db
        .transaction()
        .execute(async (trx) => {
          taken((await issueInvoice(trx, failing.id, new Date())).number);
          await gate;
          throw new Error('the payment failed after its invoice');
        })
        .catch((error: unknown) => (error as Error).message);
      expect(await numbered).toBe(invoiceNumber('invoice', before + 1));
      // On PostgreSQL this payment waits on the counter row the failing one holds: released once
      // it does (PGlite runs one transaction at a time: there it waits for the connection).
      const paid = applyStripeEvent(t.db, paidEvent(next));
      if (t.kind === 'postgres') await waitingOnALock();
      release();
      expect(await rolledBack).toBe('the payment failed after its invoice');
      expect((await paid).kind).toBe('paid');
      expect((await findInvoice(t.db, next.id))?.number).toBe(invoiceNumber('invoice', before + 1));
      expect(await findInvoice(t.db, failing.id)).toBeNull();
      expect(await counter('invoice')).toBe(before + 1);
    },
  );

  it('issues one invoice per order: a repeated event or a second call changes nothing', async () => {
    const order = await pendingOrder();
    const event = paidEvent(order);
    expect((await applyStripeEvent(t.db, event)).kind).toBe('paid');
    expect((await applyStripeEvent(t.db, event)).kind).toBe('duplicate');
    const first = await findInvoice(t.db, order.id);
    const again = await t.db
      .transaction()
      .execute((trx) => issueInvoice(trx, order.id, new Date()));
    expect(again.number).toBe(first?.number);
    const count = await t.db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('issues no invoice for a payment refunded on arrival', async () => {
    const before = await counter('invoice');
    const order = await pendingOrder();
    const outcome = await applyStripeEvent(t.db, paidEvent({ ...order, totalCents: 1 }));
    expect(outcome.kind).toBe('refund');
    expect(await findInvoice(t.db, order.id)).toBeNull();
    expect(await counter('invoice')).toBe(before);
  });
});

describe('immutability', () => {
  it('refuses to change or delete an issued invoice', async () => {
    const order = await pendingOrder();
    await applyStripeEvent(t.db, paidEvent(order));
    const invoice = (await findInvoice(t.db, order.id))!;
    expect(
      await errorOf(
        t.db.updateTable('invoices').set({ total_cents: 1 }).where('id', '=', invoice.id).execute(),
      ),
    ).toContain('an issued invoice can never be changed or deleted');
    expect(
      await errorOf(t.db.deleteFrom('invoices').where('id', '=', invoice.id).execute()),
    ).toContain('an issued invoice can never be changed or deleted');
    expect((await findInvoice(t.db, order.id))?.totalCents).toBe(invoice.totalCents);
  });

  it('keeps the seller as the settings named it at payment', async () => {
    await saveSettings(t.db, {
      legal_identity: {
        name: 'Sasha Kovač EI',
        address: 'Rua da Rosa 112, 1200-389 Lisboa, Portugal',
        siret: '123 456 789 00012',
        vat_mention: 'TVA non applicable, art. 293 B du CGI',
        vat_regime: 'franchise',
        vat_rate_bp: 0,
      },
    });
    const order = await pendingOrder();
    await applyStripeEvent(t.db, paidEvent(order));
    await saveSettings(t.db, { legal_identity: DEFAULT_SETTINGS.legal_identity });
    const { snapshot } = (await findInvoice(t.db, order.id))!;
    expect(snapshot.seller).toEqual({
      name: 'Sasha Kovač EI',
      address: 'Rua da Rosa 112, 1200-389 Lisboa, Portugal',
      siret: '12345678900012',
      vatMention: 'TVA non applicable, art. 293 B du CGI',
      email: DEFAULT_SETTINGS.contact_email,
      vat: { regime: 'franchise', rateBp: 0 },
    });
  });
});

describe('the PDF', () => {
  let snapshot: InvoiceSnapshot;
  let bytes: Uint8Array;

  beforeAll(async () => {
    const print = await makeArtwork(t.db, { artwork_type: 'print', stock: 5, price_cents: 35_000 });
    const order = await pendingOrder({
      lines: [
        {
          artworkId: (await makeArtwork(t.db)).id,
          type: 'original',
          unitPriceCents: 410_000,
          title: 'Lumière sur le Tage',
        },
        { artworkId: print.id, type: 'print', unitPriceCents: 35_000, quantity: 2, title: 'Ora' },
      ],
      shippingCents: 1500,
    });
    await t.db
      .updateTable('orders')
      .set({ customer_name: 'Zoë Kovačević', promo_code: 'SASHA25' })
      .where('id', '=', order.id)
      .execute();
    await applyStripeEvent(t.db, paidEvent(order));
    snapshot = (await findInvoice(t.db, order.id))!.snapshot;
    bytes = await renderInvoicePdf(snapshot, 'invoice');
  });

  it('prints the number, the buyer, the lines and the total', async () => {
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const text = spaces(await pdfText(bytes));
    for (const expected of [
      'FACTURE',
      `N° ${snapshot.number}`,
      `Commande : ${snapshot.orderNumber}`,
      'Zoë Kovačević',
      '1 rue de la Paix',
      '75002 Paris',
      'France',
      'Lumière sur le Tage',
      'Ora',
      '4 100,00 €',
      '700,00 €',
      '4 800,00 €',
      '15,00 €',
      '4 815,00 €',
      'Carte bancaire (Stripe)',
    ])
      expect(text).toContain(expected);
  });

  it('renders the same bytes for the same snapshot, later and after other documents', async () => {
    await renderInvoicePdf({ ...snapshot, buyer: { ...snapshot.buyer, name: 'Ćiro Čapek' } });
    // A day later by the clock the PDF library would read (a creation date would show).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 86_400_000 });
    try {
      const again = await renderInvoicePdf(structuredClone(snapshot), 'invoice');
      expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  const pdftotext = (() => {
    try {
      execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!pdftotext)('reads the same in pdftotext (when installed)', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-')), 'f.pdf');
    fs.writeFileSync(file, bytes);
    const text = spaces(execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));
    expect(text).toContain(snapshot.number);
    expect(text).toContain('Zoë Kovačević');
    expect(text).toContain('4 815,00 €');
  });

  it('prints a credit note with negative amounts, referring to the invoice', async () => {
    const order = await pendingOrder();
    await applyStripeEvent(t.db, paidEvent(order));
    const invoice = (await findInvoice(t.db, order.id))!;
    const note = await t.db
      .transaction()
      .execute((trx) => issueCreditNote(trx, order.id, new Date(), 'withdrawal'));
    expect(note.number).toMatch(/^A-\d{6}$/);
    expect(note.totalCents).toBe(-invoice.totalCents);
    const text = spaces(await pdfText(await renderInvoicePdf(note.snapshot, 'credit_note')));
    expect(text).toContain('AVOIR');
    expect(text).toContain(`Avoir n° ${note.number} — se rapporte à la facture ${invoice.number}`);
    expect(text).toContain('-4 100,00 €');
    expect(text).toContain('Motif : exercice du droit de rétractation');
  });

  it('credits an order paid before invoices existed by its order number', async () => {
    const order = await makeOrder(t.db, {
      lines: [{ artworkId: null, type: 'print', unitPriceCents: 20_000 }],
    });
    const note = await t.db
      .transaction()
      .execute((trx) => issueCreditNote(trx, order.id, new Date()));
    const refersTo = await t.db
      .selectFrom('invoices')
      .select('refers_to')
      .where('id', '=', note.id)
      .executeTakeFirstOrThrow();
    expect(refersTo.refers_to).toBeNull();
    const text = spaces(await pdfText(await renderInvoicePdf(note.snapshot)));
    expect(text).toContain(`se rapporte à la commande ${order.orderNumber}`);
  });
});

describe('downloads', () => {
  let admin: { token: string };
  let buyer: { id: string; email: string; token: string };
  let other: { token: string };
  let mine: { id: string; orderNumber: string; invoice: string };
  let guest: { id: string; orderNumber: string };
  let theirs: { id: string; orderNumber: string };

  function get(route: APIRoute, path: string, id: string, token?: string): Promise<Response> {
    return callEndpoint(route, {
      request: new Request(`${ORIGIN}${path}`),
      params: { id },
      cookies: {
        get: (name: string) => (name === 'session' && token ? { value: token } : undefined),
      } as never,
    });
  }
  const account = (id: string, token?: string, query = '') =>
    get(
      ACCOUNT_INVOICE,
      `/api/account/orders/${encodeURIComponent(id)}/invoice${query}`,
      id,
      token,
    );
  const back = (id: string, token?: string, query = '') =>
    get(ADMIN_INVOICE, `/api/admin/orders/${encodeURIComponent(id)}/invoice${query}`, id, token);

  async function paidFor(user: { id: string } | null, email?: string) {
    const order = await pendingOrder();
    await t.db
      .updateTable('orders')
      .set({ user_id: user?.id ?? null, ...(email ? { customer_email: email } : {}) })
      .where('id', '=', order.id)
      .execute();
    await applyStripeEvent(t.db, paidEvent(order));
    return { ...order, invoice: (await findInvoice(t.db, order.id))!.number };
  }

  beforeAll(async () => {
    admin = await makeUser(t.db, { role: 'admin' });
    buyer = await makeUser(t.db);
    other = await makeUser(t.db);
    mine = await paidFor(buyer);
    // A guest order with the buyer's address, in other letter case: theirs once verified.
    guest = await paidFor(null, buyer.email.toUpperCase());
    theirs = await paidFor(null);
  });

  it('gives the buyer their invoice as a PDF attachment', async () => {
    const response = await account(mine.orderNumber, buyer.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="facture-${mine.invoice}.pdf"`,
    );
    expect(response.headers.get('cache-control')).toContain('no-store');
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain(mine.invoice);
    // By its id as well, and a guest order of the verified address.
    expect((await account(mine.id, buyer.token)).status).toBe(200);
    expect((await account(guest.orderNumber, buyer.token)).status).toBe(200);
  });

  it('lists the invoice number on the account page’s orders', async () => {
    const orders = await listAccountOrders(t.db, buyer);
    expect(orders.find((o) => o.number === mine.orderNumber)?.invoiceNumber).toBe(mine.invoice);
  });

  it('answers 404 to anybody else, a guessed or a malformed id — never 403 or 500', async () => {
    for (const [id, token] of [
      [theirs.orderNumber, buyer.token],
      [theirs.id, buyer.token],
      [mine.orderNumber, other.token],
      [mine.id, other.token],
      [mine.id, admin.token],
      [randomUUID(), buyer.token],
      ['GS-2099-99999', buyer.token],
      ['../../etc/passwd', buyer.token],
      ["1' OR '1'='1", buyer.token],
      ['x'.repeat(500), buyer.token],
      ['', buyer.token],
    ] as const) {
      const response = await account(id, token);
      expect(response.status, `${id}`).toBe(404);
    }
    expect((await account(mine.orderNumber, buyer.token, '?kind=credit_note')).status).toBe(404);
    expect((await account(mine.orderNumber, buyer.token, '?kind=other')).status).toBe(404);
    expect((await account(mine.orderNumber)).status).toBe(401);
  });

  it('shows a refund in parts on the account page, each credit note downloadable by its number', async () => {
    const lines = [
      {
        artworkId: (await makeArtwork(t.db)).id,
        type: 'original' as const,
        unitPriceCents: 300_000,
        title: 'Le grand large',
      },
      {
        artworkId: (await makeArtwork(t.db)).id,
        type: 'original' as const,
        unitPriceCents: 90_000,
        title: 'Estran',
      },
    ];
    const order = await pendingOrder({ lines });
    await t.db
      .updateTable('orders')
      .set({ user_id: buyer.id })
      .where('id', '=', order.id)
      .execute();
    await applyStripeEvent(t.db, paidEvent(order));
    const items = await t.db
      .selectFrom('order_items')
      .select('id')
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    // The owner refunds the second work (as api/orders/refund-lines.ts records it).
    const note = await t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('order_items')
        .set({ refunded_at: new Date() })
        .where('id', '=', items[1]!.id)
        .execute();
      await trx
        .updateTable('orders')
        .set({ refunded_cents: 90_000, refunded_at: new Date() })
        .where('id', '=', order.id)
        .execute();
      return issueCreditNote(trx, order.id, new Date(), 'partial', {
        lineIndexes: [1],
        discountCents: 0,
        shippingCents: 0,
        totalCents: 90_000,
      });
    });
    const shown = (await listAccountOrders(t.db, buyer)).find(
      (o) => o.number === order.orderNumber,
    )!;
    expect(shown.paymentStatus).toBe('paid');
    expect(shown.refundedCents).toBe(90_000);
    expect(shown.lines.map((l) => [l.title, l.refunded])).toEqual([
      ['Le grand large', false],
      ['Estran', true],
    ]);
    expect(shown.creditNotes.map((n) => [n.number, n.totalCents])).toEqual([
      [note.number, -90_000],
    ]);
    expect(shown.creditNotes[0]!.date).toBe(note.issuedAt);

    const download = await account(
      order.orderNumber,
      buyer.token,
      `?kind=credit_note&number=${note.number}`,
    );
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="avoir-${note.number}.pdf"`,
    );
    expect(await pdfText(new Uint8Array(await download.arrayBuffer()))).toContain('Estran');
    // Another order's credit note, an invoice's number as a credit note, or nonsense: 404.
    for (const query of [
      `?kind=credit_note&number=A-999999`,
      `?kind=credit_note&number=${mine.invoice}`,
      `?kind=credit_note&number=../../x`,
      `?kind=credit_note&number=${'A'.repeat(300)}`,
    ])
      expect((await account(order.orderNumber, buyer.token, query)).status, query).toBe(404);
    expect(
      (await account(order.orderNumber, other.token, `?kind=credit_note&number=${note.number}`))
        .status,
    ).toBe(404);
  });

  it('keeps a guest order from an account whose address is not verified', async () => {
    const unverified = await makeUser(t.db, { email_verified_at: null });
    const order = await paidFor(null, unverified.email);
    expect((await account(order.orderNumber, unverified.token)).status).toBe(404);
  });

  it('gives the back office any order’s invoice, and 404 when there is none', async () => {
    const response = await back(theirs.id, admin.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="facture-F-\d{6}\.pdf"$/,
    );
    expect((await back(theirs.id, admin.token, '?kind=credit_note')).status).toBe(404);
    expect((await back(randomUUID(), admin.token)).status).toBe(404);
    expect((await back('1', admin.token)).status).toBe(404);
    expect((await back(theirs.id, buyer.token)).status).toBe(403);
  });
});
