// Numbered editions (issue 26, docs/decisions/045) through the real checkout, the payment emulator
// and the webhook: each copy sold takes the lowest free number in the payment's transaction, the
// number shows in every view of the order, a refund, a cancellation or a withdrawal gives it back
// to the owner, who sells it again or retires it from the register; EA and HC copies are counted
// apart; the register exports as CSV and PDF; bad requests are 4xx. And the acceptance race, on
// PostgreSQL: twenty buyers of an edition's last five copies make five paid orders numbered
// 46 to 50, no gap, no duplicate; a refund returns its number.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { APIRoute } from 'astro';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addToCart, newCartId } from '#api/cart/index.ts';
import { createCheckout, type CheckoutRequest } from '#api/checkout/index.ts';
import { providePublisher } from '#api/build/publish.ts';
import { provideDatabase } from '#api/db/context.ts';
import { createStripeEmulator, type StripeEmulator } from '#api/emulator/index.ts';
import { changeOrderStatus, getAdminOrder } from '#api/admin/orders.ts';
import { updateArtwork } from '#api/admin/artworks.ts';
import { editionRegister } from '#api/editions/register.ts';
import { isAppError } from '#api/http/errors.ts';
import { pdfText } from '#api/invoices/pdf-text.ts';
import type { Mailer } from '#api/mail/index.ts';
import { orderStatusForSession, readOrder } from '#api/orders/index.ts';
import { refundOrder } from '#api/orders/refund.ts';
import { orderReturned } from '#api/orders/returns.ts';
import { afterAnswerSettled } from '#api/background.ts';
import { handleWithdrawal } from '#api/withdrawal/index.ts';
import { buyerOrders, BUYER_ORDER_COLUMNS } from '#api/orders/view.ts';
import { createEmulatedPayments, providePayments, type Payments } from '#api/payments/index.ts';
import { handleStripeWebhook } from '#api/payments/webhook.ts';
import { GET as LIST } from '../../src/pages/api/admin/editions/index.ts';
import { GET as REGISTER } from '../../src/pages/api/admin/editions/[id].ts';
import { POST as DECIDE } from '../../src/pages/api/admin/editions/[id]/numbers/[number].ts';
import { GET as EXPORT } from '../../src/pages/api/admin/editions/[id]/export.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { until } from '../helpers/wait.ts';
import { makeArtwork, makeUser } from '../helpers/factories.ts';
import { checkoutRequest } from '../helpers/checkout.ts';

let t: TestDatabase;
let server: http.Server;
let emulator: StripeEmulator;
let payments: Payments;
let siteUrl: string;
let owner: { id: string; email: string; token: string };
let customer: { token: string };
const mailer: Mailer = { description: 'memory', send: () => Promise.resolve() };
const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
const ORIGIN = 'http://localhost:4321';
let clients = 0;
/** Webhook deliveries the shop answered with an error (Stripe would deliver them again). */
let webhookFailures = 0;

const orderRow = (id: string) =>
  t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const work = (id: number) =>
  t.db
    .selectFrom('artworks')
    .select(['stock', 'edition_size'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const copies = (artworkId: number) =>
  t.db
    .selectFrom('edition_copies')
    .select(['number', 'state', 'order_id'])
    .where('artwork_id', '=', artworkId)
    .orderBy('number')
    .execute();

const request = (items: CheckoutRequest['items'], name = 'Ana Kovač') =>
  checkoutRequest(items, { customer: { name, email: 'ana@example.test' } });

/** A checkout of `items` (its holds taken), not paid yet. */
async function checkout(items: CheckoutRequest['items'], name?: string) {
  const cartId = newCartId();
  for (const item of items) await addToCart(t.db, cartId, item.artworkId, item.quantity);
  // Each buyer from their own address: the per-address checkout limit is not what is tested.
  clients += 1;
  return createCheckout({ db: t.db, payments }, request(items, name), {
    cartId,
    ip: `198.51.${Math.floor(clients / 250)}.${(clients % 250) + 1}`,
    siteUrl,
  });
}

/** Pays a checkout through the emulator's payment page and waits for the webhook's order. */
async function pay(orderId: string, sessionId: string) {
  await emulator.pay(sessionId);
  await until('the payment', async () => (await orderRow(orderId)).payment_status !== 'unpaid');
  return orderRow(orderId);
}

/** Buys `items` through checkout, the payment page and the webhook. */
async function buy(items: CheckoutRequest['items'], name?: string) {
  const { orderId, sessionId } = await checkout(items, name);
  const order = await pay(orderId, sessionId);
  expect(order.payment_status).toBe('paid');
  return { id: orderId, sessionId };
}

/** An edition whose numbers 1…`sold` were sold before the register (as the migration writes). */
async function editionWithSales(size: number, sold: number, stock: number) {
  const print = await makeArtwork(t.db, { artwork_type: 'print', edition_size: size, stock });
  for (let n = 1; n <= sold; n++)
    await t.db
      .insertInto('edition_copies')
      .values({ artwork_id: print.id, number: n, state: 'sold' })
      .execute();
  return print.id;
}

async function call(
  route: APIRoute,
  path: string,
  params: Record<string, string>,
  options: { token?: string | undefined; body?: unknown } = {},
): Promise<Response> {
  const headers = new Headers({ origin: ORIGIN });
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  return callEndpoint(route, {
    request: new Request(`${ORIGIN}${path}`, {
      method: options.body === undefined ? 'GET' : 'POST',
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
    }),
    params,
    cookies: {
      get: (name: string) =>
        name === 'session' && options.token ? { value: options.token } : undefined,
    } as never,
  });
}

const decide = (artworkId: number, number: number, decision: unknown, token = owner.token) =>
  call(
    DECIDE,
    `/api/admin/editions/${artworkId}/numbers/${number}`,
    { id: String(artworkId), number: String(number) },
    { token, body: { decision } },
  );

beforeAll(async () => {
  t = await createTestDatabase({ maxConnections: 25 });
  provideDatabase(t);
  providePublisher({
    request: () => {},
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
      buildMs: 0,
    }),
  });
  owner = await makeUser(t.db, { role: 'admin' });
  customer = await makeUser(t.db);
  server = http.createServer((req, res) => {
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
          () => {
            webhookFailures += 1;
            res.writeHead(500).end();
          },
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
    retryDelaysMs: [50, 100, 200, 400],
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

describe('numbering', () => {
  it('gives each copy sold the lowest free number, shown to the buyer and the owner', async () => {
    const print = (await makeArtwork(t.db, { artwork_type: 'print', edition_size: 50 })).id;
    const original = (await makeArtwork(t.db)).id;
    const first = await buy([
      { artworkId: original, quantity: 1 },
      { artworkId: print, quantity: 2 },
    ]);
    const second = await buy([{ artworkId: print, quantity: 1 }]);
    expect(await copies(print)).toEqual([
      { number: 1, state: 'sold', order_id: first.id },
      { number: 2, state: 'sold', order_id: first.id },
      { number: 3, state: 'sold', order_id: second.id },
    ]);

    // The order summary (mails, invoice), the success page, the account, the back office.
    const summary = (await readOrder(t.db, { id: first.id }))!;
    expect(summary.lines.map((l) => l.editions)).toEqual([[], ['1/50', '2/50']]);
    const success = await orderStatusForSession(t.db, first.sessionId);
    expect(success.order.lines.map((l) => l.editions)).toEqual([[], ['1/50', '2/50']]);
    const rows = await t.db
      .selectFrom('orders')
      .select(BUYER_ORDER_COLUMNS)
      .where('id', 'in', [first.id, second.id])
      .orderBy('created_at')
      .execute();
    const account = await buyerOrders(t.db, rows);
    expect(account.map((o) => o.lines.map((l) => l.editions))).toEqual([
      [[], ['1/50', '2/50']],
      [['3/50']],
    ]);
    const detail = await getAdminOrder(t.db, second.id);
    expect(detail.lines.map((l) => l.editions)).toEqual([['3/50']]);

    // The register says to whom and when.
    const register = await editionRegister(t.db, print);
    expect(register.entries).toHaveLength(50);
    expect(register.entries.slice(0, 4).map((e) => [e.label, e.state, e.buyer])).toEqual([
      ['1/50', 'sold', 'Ana Kovač'],
      ['2/50', 'sold', 'Ana Kovač'],
      ['3/50', 'sold', 'Ana Kovač'],
      ['4/50', 'free', null],
    ]);
    expect(register.entries[0]!.soldAt).not.toBeNull();
    expect(register.counts).toEqual({ free: 47, held: 0, sold: 3, returned: 0, retired: 0 });
  });

  it('says which numbers payments in progress will take, and leaves unnumbered prints alone', async () => {
    const print = await editionWithSales(10, 4, 6);
    const pending = await checkout([{ artworkId: print, quantity: 2 }]);
    const register = await editionRegister(t.db, print);
    expect(register.entries.map((e) => e.state)).toEqual([
      ...Array<string>(4).fill('sold'),
      'held',
      'held',
      ...Array<string>(4).fill('free'),
    ]);
    expect(register.entries[0]!.beforeRegister).toBe(true);
    const order = await pay(pending.orderId, pending.sessionId);
    expect(order.payment_status).toBe('paid');
    expect((await copies(print)).map((c) => c.number)).toEqual([1, 2, 3, 4, 5, 6]);

    const open = (await makeArtwork(t.db, { artwork_type: 'print', edition_size: null, stock: 5 }))
      .id;
    const bought = await buy([{ artworkId: open, quantity: 1 }]);
    expect((await readOrder(t.db, { id: bought.id }))!.lines[0]!.editions).toEqual([]);
    expect(await copies(open)).toEqual([]);
  });

  it('refunds a payment that finds no free number instead of numbering a copy twice', async () => {
    // A stock changed behind the back office: 1 copy for sale, every number taken.
    const print = await editionWithSales(3, 3, 1);
    const { orderId, sessionId } = await checkout([{ artworkId: print, quantity: 1 }]);
    // The webhook says so in the log (an error: it means a bug), and refunds.
    const logged: string[] = [];
    vi.mocked(console.error).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
    const order = await pay(orderId, sessionId);
    expect(logged.join('\n')).toContain(`edition of work ${print} has 0 free number(s)`);
    expect(order).toMatchObject({ payment_status: 'refunded', status: 'cancelled' });
    expect((await copies(print)).map((c) => c.order_id)).toEqual([null, null, null]);
    expect(await work(print)).toMatchObject({ stock: 1 });
  });

  it('keeps the stock the back office sets within the free numbers and the size above the sold', async () => {
    const print = await editionWithSales(10, 6, 2);
    const deps = { db: t.db };
    const refusal = (patch: Parameters<typeof updateArtwork>[2]) =>
      updateArtwork(deps, print, patch, owner).then(
        () => null,
        (e: unknown) => (isAppError(e, 'invalid_input') ? e.fields : e),
      );
    expect(await refusal({ stock: 5 })).toEqual({
      stock: 'admin.artwork.error.stockOverNumbers',
    });
    expect(await refusal({ editionSize: 5 })).toEqual({
      editionSize: 'admin.artwork.error.editionBelowNumbers',
    });
    expect(await refusal({ stock: 4 })).toBeNull();
    expect(await refusal({ editionSize: 12, stock: 6 })).toBeNull();
    expect(await work(print)).toEqual({ stock: 6, edition_size: 12 });
  });
});

describe('returned numbers', () => {
  it('a refund returns the number; the owner sells it again under it, or retires it', async () => {
    const print = (await makeArtwork(t.db, { artwork_type: 'print', edition_size: 20 })).id;
    const a = await buy([{ artworkId: print, quantity: 2 }], 'Bruno Martin');
    const b = await buy([{ artworkId: print, quantity: 1 }], 'Chloé Petit');
    expect(await work(print)).toMatchObject({ stock: 7 });

    await refundOrder(t.db, a.id, { actor: owner, restock: false, reason: 'cancellation' });
    expect((await copies(print)).map((c) => c.state)).toEqual(['returned', 'returned', 'sold']);
    expect(await work(print)).toMatchObject({ stock: 7 });
    // The refunded order still says which copies it had.
    expect((await readOrder(t.db, { id: a.id }))!.lines[0]!.editions).toEqual(['1/20', '2/20']);
    let register = await editionRegister(t.db, print);
    expect(register.entries[0]).toMatchObject({
      state: 'returned',
      buyer: 'Bruno Martin',
      returnReason: 'cancellation',
    });

    // Sold again under the same number: free, its copy back in stock; the next sale takes it
    // before any higher free number.
    const released = await decide(print, 2, 'release');
    expect(released.status).toBe(200);
    register = ((await released.json()) as { register: typeof register }).register;
    expect(register.entries[1]).toMatchObject({ label: '2/20', state: 'free' });
    expect(register.entries[1]!.releasedAt).not.toBeNull();
    expect(await work(print)).toMatchObject({ stock: 8 });
    const c = await buy([{ artworkId: print, quantity: 2 }], 'Dora Maar');
    expect((await readOrder(t.db, { id: c.id }))!.lines[0]!.editions).toEqual(['2/20', '4/20']);

    // Retired: out of the edition for good (its copy was not back in stock).
    expect((await decide(print, 1, 'retire')).status).toBe(200);
    expect(await work(print)).toMatchObject({ stock: 6 });
    register = await editionRegister(t.db, print);
    expect(register.entries[0]).toMatchObject({ state: 'retired' });
    expect(register.counts).toMatchObject({ sold: 3, returned: 0, retired: 1, free: 16 });
    const d = await buy([{ artworkId: print, quantity: 1 }]);
    expect((await readOrder(t.db, { id: d.id }))!.lines[0]!.editions).toEqual(['5/20']);

    // Every decision audited, with the owner's name.
    const audits = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('entity', '=', 'edition')
      .where('entity_id', '=', String(print))
      .orderBy('id')
      .execute();
    expect(audits).toEqual([
      { action: 'edition.returned', actor_email: owner.email },
      { action: 'edition.release', actor_email: owner.email },
      { action: 'edition.retire', actor_email: owner.email },
    ]);

    // Only a returned number is decided on, and the refusal says why, in French.
    for (const [number, decision] of [
      [3, 'release'],
      [1, 'release'],
      [20, 'retire'],
    ] as const) {
      const refused = await decide(print, number, decision);
      expect(refused.status).toBe(409);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('edition_conflict');
      // French typography: a no-break space inside the guillemets and before the colon.
      expect(body.error.message).toMatch(
        /^Le numéro \d+\/20 est «\u00a0(vendu|retiré|libre)\u00a0»\u00a0: seul un numéro retourné/,
      );
    }
    expect(b.id).toBeTruthy();
  });

  it('a return with the works put back on sale frees the numbers at once; the owner may still retire one', async () => {
    const print = (await makeArtwork(t.db, { artwork_type: 'print', edition_size: 3, stock: 3 }))
      .id;
    const a = await buy([{ artworkId: print, quantity: 3 }]);
    expect(await work(print)).toMatchObject({ stock: 0 });
    await refundOrder(t.db, a.id, { actor: owner, restock: true, reason: 'withdrawal' });
    expect((await copies(print)).map((c) => c.state)).toEqual(['free', 'free', 'free']);
    expect(await work(print)).toMatchObject({ stock: 3 });
    // Retiring a freed, unsold number takes its copy out of the stock.
    expect((await decide(print, 2, 'retire')).status).toBe(200);
    expect(await work(print)).toMatchObject({ stock: 2 });
    const b = await buy([{ artworkId: print, quantity: 2 }]);
    expect((await readOrder(t.db, { id: b.id }))!.lines[0]!.editions).toEqual(['1/3', '3/3']);
    const register = await editionRegister(t.db, print);
    expect(register.entries.map((e) => e.state)).toEqual(['sold', 'retired', 'sold']);
  });

  it('an owner’s cancellation and a withdrawal return the numbers too', async () => {
    const print = (await makeArtwork(t.db, { artwork_type: 'print', edition_size: 10 })).id;
    const a = await buy([{ artworkId: print, quantity: 1 }]);
    const b = await buy([{ artworkId: print, quantity: 1 }]);
    await changeOrderStatus(
      { db: t.db, payments },
      a.id,
      { status: 'cancelled', refund: false, restock: false },
      owner,
    );
    expect((await copies(print)).map((c) => c.state)).toEqual(['returned', 'sold']);
    // The buyer, signed in, withdraws from their own order: recorded at once, numbers returned.
    const buyer = await makeUser(t.db, { email: 'ana@example.test' });
    const answer = await handleWithdrawal(
      { db: t.db, mailer, siteUrl },
      {
        orderNumber: (await orderRow(b.id)).order_number,
        email: buyer.email,
        step: 'confirm',
        locale: 'fr',
      },
      { ip: '203.0.113.77', user: buyer },
    );
    expect(answer.step === 'confirm' && 'confirmation' in answer).toBe(true);
    await afterAnswerSettled();
    const register = await editionRegister(t.db, print);
    expect(register.entries.slice(0, 2).map((e) => [e.state, e.returnReason])).toEqual([
      ['returned', 'cancellation'],
      ['returned', 'withdrawal'],
    ]);
    // Returned twice (the withdrawal, then its refund): nothing changes the second time.
    await t.db.transaction().execute((trx) => orderReturned(trx, b.id, new Date(), 'refund'));
    expect((await editionRegister(t.db, print)).entries[1]!.returnReason).toBe('withdrawal');
  });
});

describe('artist’s proofs and hors-commerce copies', () => {
  it('are counted apart, listed after the numbered copies, and never sold by the site', async () => {
    const print = await editionWithSales(3, 2, 1);
    await t.db
      .updateTable('artworks')
      .set({ edition_ea: 2, edition_hc: 1 })
      .where('id', '=', print)
      .execute();
    const a = await buy([{ artworkId: print, quantity: 1 }]);
    expect((await readOrder(t.db, { id: a.id }))!.lines[0]!.editions).toEqual(['3/3']);
    const register = await editionRegister(t.db, print);
    expect(register.entries.map((e) => [e.label, e.state])).toEqual([
      ['1/3', 'sold'],
      ['2/3', 'sold'],
      ['3/3', 'sold'],
      ['EA 1/2', 'ea'],
      ['EA 2/2', 'ea'],
      ['HC 1/1', 'hc'],
    ]);
    expect(register.counts).toEqual({ free: 0, held: 0, sold: 3, returned: 0, retired: 0 });
    const refused = await decide(print, 1, 'retire');
    expect(refused.status).toBe(409);
  });
});

describe('the register’s endpoints', () => {
  it('list the editions, and export one as CSV and PDF', async () => {
    const print = (
      await makeArtwork(t.db, {
        artwork_type: 'print',
        edition_size: 5,
        stock: 5,
        title_fr: 'Lumière du Tage',
        edition_ea: 1,
      })
    ).id;
    await buy([{ artworkId: print, quantity: 1 }], 'Zoé Kovač; "la collectionneuse"');
    const list = await call(LIST, '/api/admin/editions', {}, { token: owner.token });
    expect(list.status).toBe(200);
    const { editions } = (await list.json()) as {
      editions: { id: number; sold: number; free: number }[];
    };
    // With what tells two prints of one title apart in the selector.
    expect(editions.find((e) => e.id === print)).toMatchObject({
      sold: 1,
      free: 4,
      year: 2025,
      technique: 'Tirage giclée',
      dimensions: '50 x 40 cm',
    });

    const one = await call(
      REGISTER,
      `/api/admin/editions/${print}`,
      { id: String(print) },
      { token: owner.token },
    );
    expect(one.status).toBe(200);

    const csv = await call(
      EXPORT,
      `/api/admin/editions/${print}/export?format=csv`,
      { id: String(print) },
      { token: owner.token },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="registre-tirage-${print}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    // As bytes: Response.text() would drop the BOM a French Excel needs.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await csv.arrayBuffer());
    expect(text.startsWith('\uFEFFŒuvre;Numéro;Type;État;Commande;Acheteur;')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines).toHaveLength(1 + 5 + 1 + 1); // header, 5 numbers, 1 EA, the final CRLF
    expect(lines[1]).toMatch(
      /^Lumière du Tage;1\/5;Numéroté;Vendu;[A-Z]+-\d{4}-\d+;"Zoé Kovač; ""la collectionneuse""";ana@example\.test;\d{2}\/\d{2}\/\d{4};;;;$/,
    );
    expect(lines[2]).toBe('Lumière du Tage;2/5;Numéroté;Libre;;;;;;;;');
    expect(lines[6]).toBe('Lumière du Tage;EA 1/1;EA;Épreuve d’artiste (EA);;;;;;;;');

    const pdf = await call(
      EXPORT,
      `/api/admin/editions/${print}/export?format=pdf`,
      { id: String(print) },
      { token: owner.token },
    );
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const content = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    for (const expected of [
      'Registre des tirages',
      'Lumière du Tage',
      'tirage de 5 exemplaires numérotés',
      'Vendus\u00a0: 1 · libres\u00a0: 4',
      '1/5',
      'Vendu',
      'Zoé Kovač',
      'EA 1/1',
      'Épreuve d’artiste (EA)',
    ])
      expect(content).toContain(expected);
  });

  it('answer bad requests with 4xx and a clear error', async () => {
    const print = await editionWithSales(5, 1, 4);
    const original = (await makeArtwork(t.db)).id;
    const expectError = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(code);
      expect(body.error.message.length).toBeGreaterThan(0);
      return body.error;
    };
    await expectError(await decide(print, 1, 'burn'), 400, 'invalid_input');
    await expectError(await decide(print, 1, undefined), 400, 'invalid_input');
    await expectError(await decide(print, 6, 'retire'), 404, 'not_found');
    await expectError(await decide(original, 1, 'retire'), 404, 'not_found');
    const malformed = await call(
      DECIDE,
      '/api/admin/editions/abc/numbers/1',
      { id: 'abc', number: '1' },
      { token: owner.token, body: { decision: 'retire' } },
    );
    await expectError(malformed, 404, 'not_found');
    const unknown = await call(
      REGISTER,
      '/api/admin/editions/999999',
      { id: '999999' },
      { token: owner.token },
    );
    const error = await expectError(unknown, 404, 'not_found');
    expect(error.message).toMatch(/^Ce tirage est introuvable/);
    const format = await call(
      EXPORT,
      `/api/admin/editions/${print}/export?format=xls`,
      { id: String(print) },
      { token: owner.token },
    );
    await expectError(format, 400, 'invalid_input');
    // Not the owner: no register, no decision.
    expect((await call(LIST, '/api/admin/editions', {}, {})).status).toBe(403);
    expect((await call(LIST, '/api/admin/editions', {}, { token: customer.token })).status).toBe(
      403,
    );
    expect((await decide(print, 1, 'retire', customer.token)).status).toBe(403);
    expect((await copies(print)).map((c) => c.state)).toEqual(['sold']);
  });
});

describe('the acceptance race', () => {
  it(
    'twenty buyers of the last five copies: five paid orders, five distinct numbers, no gap; a refund returns its number',
    { tags: ['concurrency'] },
    async () => {
      const print = await editionWithSales(50, 45, 5);
      const attempts = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          checkout([{ artworkId: print, quantity: 1 }], `Acheteur ${i + 1}`),
        ),
      );
      const held = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
      expect(held).toHaveLength(5);
      for (const refused of attempts.filter((a) => a.status === 'rejected'))
        expect(isAppError(refused.reason)).toBe(true);
      // The five pay at the same moment: five webhooks number in five concurrent transactions,
      // each at its first delivery (the work's lock orders them; without it two would pick the
      // same number, one would fail on the unique index and wait for Stripe's retry).
      const failures = webhookFailures;
      await Promise.all(held.map((h) => emulator.pay(h.sessionId)));
      await until('five paid orders', async () => {
        const rows = await t.db
          .selectFrom('orders')
          .select('payment_status')
          .where(
            'id',
            'in',
            held.map((h) => h.orderId),
          )
          .execute();
        return rows.every((r) => r.payment_status === 'paid');
      });
      expect(webhookFailures).toBe(failures);
      const numbered = await copies(print);
      expect(numbered.map((c) => c.number)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      const sold = numbered.filter((c) => c.order_id !== null);
      expect(sold.map((c) => c.number)).toEqual([46, 47, 48, 49, 50]);
      expect(new Set(sold.map((c) => c.order_id))).toEqual(new Set(held.map((h) => h.orderId)));
      for (const h of held) {
        const editions = (await readOrder(t.db, { id: h.orderId }))!.lines[0]!.editions;
        expect(editions).toHaveLength(1);
        expect(editions[0]).toMatch(/^(4[6-9]|50)\/50$/);
      }
      expect(await work(print)).toMatchObject({ stock: 0 });

      // A refund returns its number to the owner.
      const refunded = sold[2]!;
      await refundOrder(t.db, refunded.order_id!, {
        actor: owner,
        restock: false,
        reason: 'cancellation',
      });
      const after = await copies(print);
      expect(after.find((c) => c.number === refunded.number)!.state).toBe('returned');
      expect(after.filter((c) => c.state === 'sold')).toHaveLength(49);
    },
  );
});
