// Invoices and mails a French collector can file (issue 26, docs/decisions/047), end to end: a
// real checkout paid on the payment emulator, the webhook's own mails, the owner's cancellation
// with a refund through the emulator. Checked in both languages: the invoice and credit note PDFs
// read back (décret 81-255 description, VAT mention and amounts, no "non renseigné", one gapless
// numbering), the order confirmation (seller, editions, withdrawal terms and form, terms of sale,
// the invoice attached and behind a signed link that opens without an account — a wrong
// signature is a 404 JSON), the cancellation mail with its credit note, the order's history
// ('→ Annulée') and the dashboard's list of what the legal identity still lacks.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeOrderStatus, getAdminOrder } from '#api/admin/orders.ts';
import { dashboard } from '#api/admin/dashboard.ts';
import { providePublisher } from '#api/build/publish.ts';
import { addToCart, newCartId } from '#api/cart/index.ts';
import { createCheckout, type CheckoutRequest } from '#api/checkout/index.ts';
import { provideDatabase } from '#api/db/context.ts';
import { createStripeEmulator, type StripeEmulator } from '#api/emulator/index.ts';
import { findInvoice, type InvoiceSnapshot } from '#api/invoices/index.ts';
import { invoiceLinkUrl } from '#api/invoices/link.ts';
import { renderInvoicePdf } from '#api/invoices/pdf.ts';
import { pdfText } from '#api/invoices/pdf-text.ts';
import type { Mailer, MailMessage } from '#api/mail/index.ts';
import { refundOrder } from '#api/orders/refund.ts';
import { createEmulatedPayments, providePayments, type Payments } from '#api/payments/index.ts';
import { handleStripeWebhook } from '#api/payments/webhook.ts';
import { DEFAULT_SETTINGS, invalidateSettings, saveSettings } from '#api/settings/index.ts';
import type { LegalIdentity } from '../../src/domain/legal.ts';
import { GET as SIGNED_INVOICE } from '../../src/pages/api/invoices/[id].ts';
import { checkoutRequest } from '../helpers/checkout.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeUser } from '../helpers/factories.ts';
import { until } from '../helpers/wait.ts';

let t: TestDatabase;
let server: http.Server;
let emulator: StripeEmulator;
let payments: Payments;
let siteUrl: string;
let owner: { id: string; email: string };
const sent: MailMessage[] = [];
const mailer: Mailer = {
  description: 'memory',
  send: (message) => {
    sent.push(message);
    return Promise.resolve();
  },
};
const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
const NBSP = '\u00a0';
/** Spaces as a reader compares them (Intl puts narrow no-break spaces in amounts). */
const spaces = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

const IDENTITY: LegalIdentity = {
  name: 'Sasha Kovač EI',
  address: 'Rua da Rosa 112\n1200-389 Lisboa, Portugal',
  siret: '12345678900012',
  vat_mention: '',
  vat_regime: 'franchise',
  vat_rate_bp: 0,
};

async function legal(identity: Partial<LegalIdentity>) {
  await saveSettings(t.db, { legal_identity: { ...IDENTITY, ...identity } });
  invalidateSettings(t.db);
}

const orderRow = (id: string) =>
  t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Buys `items` in `locale` through checkout, the emulator's payment page and the webhook. */
async function buy(items: CheckoutRequest['items'], locale: 'fr' | 'en', name: string) {
  const cartId = newCartId();
  for (const item of items) await addToCart(t.db, cartId, item.artworkId, item.quantity);
  const { orderId, sessionId } = await createCheckout(
    { db: t.db, payments },
    checkoutRequest(items, {
      locale,
      customer: { name, email: `${name.split(' ')[0]}@example.test` },
    }),
    { cartId, ip: '192.0.2.10', siteUrl },
  );
  const before = sent.length;
  await emulator.pay(sessionId);
  await until('the paid order’s mails', () => sent.length >= before + 2);
  const order = await orderRow(orderId);
  const confirmation = sent.slice(before).find((m) => m.to && typeof m.to === 'object')!;
  return { id: orderId, number: order.order_number, total: order.total_cents, confirmation };
}

/** The signed link's path and query as the endpoint receives them. */
async function openLink(url: string): Promise<Response> {
  const parsed = new URL(url);
  const id = parsed.pathname.split('/').at(-1)!;
  return callEndpoint(SIGNED_INVOICE, {
    request: new Request(`http://localhost:4321${parsed.pathname}${parsed.search}`),
    params: { id },
  });
}

/** The link printed after `label` in a mail's text (label, colon, then the URL on its own line). */
function linkAfter(text: string, label: string): string {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.startsWith(label));
  expect(index, `no "${label}" in the mail`).toBeGreaterThanOrEqual(0);
  return lines[index + 1]!;
}

beforeAll(async () => {
  t = await createTestDatabase({ maxConnections: 10 });
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
      buildMs: 6000,
    }),
  });
  owner = await makeUser(t.db, { role: 'admin' });
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
          () => res.writeHead(500).end(),
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
    retryDelaysMs: [50, 100],
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

describe('an English buyer, a seller under the VAT franchise', () => {
  let order: Awaited<ReturnType<typeof buy>>;
  let invoice: { id: string; number: string; snapshot: InvoiceSnapshot };
  let invoiceText: string;

  beforeAll(async () => {
    await legal({});
    const original = await makeArtwork(t.db, {
      title_en: 'Tagus light',
      title_fr: 'Lumière du Tage',
    });
    const print = await makeArtwork(t.db, {
      artwork_type: 'print',
      title_fr: 'Seuil',
      title_en: 'Threshold',
    });
    order = await buy(
      [
        { artworkId: original.id, quantity: 1 },
        { artworkId: print.id, quantity: 2 },
      ],
      'en',
      'Joan Miller',
    );
    invoice = (await findInvoice(t.db, order.id))!;
    invoiceText = spaces(await pdfText(await renderInvoicePdf(invoice.snapshot)));
  });

  it('gets an invoice in English describing each work as the décret asks', () => {
    for (const expected of [
      'INVOICE',
      `No. ${invoice.number}`,
      'BILLED TO',
      'Joan Miller',
      'Original work, unique piece',
      'Oil on canvas · 100 x 80 cm · 2025',
      'Print no. 1/50, Print no. 2/50',
      'Giclée print · 50 x 40 cm · 2025',
      'VAT not applicable, article 293 B of the French tax code (CGI)',
      'Sasha Kovač EI',
      'Rua da Rosa 112',
      'SIRET: 12345678900012',
      'Paid on',
      'Card (Stripe)',
    ])
      expect(invoiceText).toContain(expected);
    for (const french of ['FACTURE', 'Désignation', 'Œuvre originale', 'non renseigné', 'TVA'])
      expect(invoiceText).not.toContain(french);
    expect(invoice.snapshot.locale).toBe('en');
  });

  it('is confirmed by a mail that is the contract on a durable medium', async () => {
    const mail = order.confirmation;
    expect(mail.subject).toBe(`Your order ${order.number} is confirmed`);
    const text = mail.text;
    for (const body of [text, mail.html!]) {
      // The seller's identity.
      for (const line of ['Sasha Kovač EI', 'Rua da Rosa 112', 'SIRET 12345678900012'])
        expect(body).toContain(line);
      expect(body).toContain('VAT not applicable, article 293 B of the French tax code (CGI)');
      // The works with their edition numbers.
      expect(body).toContain('Original work, unique piece, quantity 1');
      expect(body).toContain('Print no. 1/50, Print no. 2/50, quantity 2');
      // The withdrawal terms and the form, the terms of sale and their key points.
      expect(body).toContain('You have 14 days from receiving the works to withdraw');
      expect(body).toContain('http://localhost:4321/en/withdrawal');
      expect(body).toContain('http://localhost:4321/en/terms');
      expect(body).toContain('Report any damage in transit within 48 hours');
      expect(body).toContain(`Your invoice ${invoice.number} is attached to this message (PDF).`);
    }
    expect(linkAfter(text, 'Withdrawal form:')).toBe('http://localhost:4321/en/withdrawal');
    expect(linkAfter(text, 'Terms of sale:')).toBe('http://localhost:4321/en/terms');
    // English typography: no space before a colon, no French no-break space anywhere.
    expect(text).toContain('Subtotal: ');
    expect(text).toContain('Shipping address:');
    expect(text).not.toContain(NBSP);
    expect(text).not.toMatch(/ :/);

    // The invoice, attached: the same document as the one issued.
    expect(mail.attachments).toHaveLength(1);
    const [file] = mail.attachments!;
    expect(file!.filename).toBe(`invoice-${invoice.number}.pdf`);
    expect(file!.contentType).toBe('application/pdf');
    expect(spaces(await pdfText(file!.content))).toBe(invoiceText);
  });

  it('links the invoice by a signed link that opens without an account, and only that one', async () => {
    const link = linkAfter(order.confirmation.text, 'Download the invoice (PDF):');
    expect(link).toBe(await invoiceLinkUrl(t.db, invoice.id, 'http://localhost:4321'));
    expect(order.confirmation.html).toContain(`href="${link}"`);
    const response = await openLink(link);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="invoice-${invoice.number}.pdf"`,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(spaces(await pdfText(bytes))).toBe(invoiceText);

    const url = new URL(link);
    const signature = url.searchParams.get('sig')!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const otherId = (
      await t.db
        .selectFrom('invoices')
        .select('id')
        .where('id', '!=', invoice.id)
        .executeTakeFirst()
    )?.id;
    for (const wrong of [
      `${url.pathname}?sig=${flipped}`,
      `${url.pathname}`,
      `${url.pathname}?sig=short`,
      ...(otherId ? [`/api/invoices/${otherId}?sig=${signature}`] : []),
      `/api/invoices/not-a-uuid?sig=${signature}`,
    ]) {
      const answer = await openLink(`http://localhost:4321${wrong}`);
      expect(answer.status, wrong).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  it('mails the cancellation and refund in English with the credit note, and the history says → Annulée', async () => {
    const before = sent.length;
    const result = await changeOrderStatus(
      { db: t.db, payments, mailer, refundOrder },
      order.id,
      { status: 'cancelled', refund: true, restock: false },
      owner,
    );
    expect(result.mail).toBe('sent');
    expect(sent).toHaveLength(before + 1);
    const mail = sent.at(-1)!;
    expect(mail.to).toEqual({ name: 'Joan Miller', address: 'Joan@example.test' });
    expect(mail.subject).toBe(`Your order ${order.number} has been cancelled`);
    const note = (await findInvoice(t.db, order.id, 'credit_note'))!;
    const total = spaces(
      `€${(order.total / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`,
    );
    for (const body of [spaces(mail.text), spaces(mail.html!)]) {
      expect(body).toContain(`We have refunded ${total}`);
      expect(body).toContain('Print no. 1/50, Print no. 2/50, quantity 2');
      expect(body).toContain(
        `Credit note ${note.number}, which cancels the order’s invoice, is attached`,
      );
      expect(body).toContain('SIRET 12345678900012');
    }
    expect(mail.text).not.toContain(NBSP);
    expect(mail.attachments!.map((a) => a.filename)).toEqual([`credit-note-${note.number}.pdf`]);
    const noteText = spaces(await pdfText(mail.attachments![0]!.content));
    for (const expected of [
      'CREDIT NOTE',
      `Credit note no. ${note.number} — refers to invoice ${invoice.number}`,
      'Reason: order cancelled',
      'Print no. 1/50, Print no. 2/50',
      `-${total}`,
      'VAT not applicable, article 293 B',
      'Refunded on',
    ])
      expect(noteText).toContain(expected);
    expect(noteText).not.toContain('non renseigné');
    const link = linkAfter(mail.text, 'Download the credit note (PDF):');
    const opened = await openLink(link);
    expect(opened.status).toBe(200);
    expect(spaces(await pdfText(new Uint8Array(await opened.arrayBuffer())))).toBe(noteText);

    const history = (await getAdminOrder(t.db, order.id)).history.map((h) => h.summary);
    expect(history).toContain('Confirmée → Annulée (client remboursé)');
  });
});

describe('a French buyer, a seller charging VAT whose SIRET is not given yet', () => {
  let order: Awaited<ReturnType<typeof buy>>;
  let invoice: { id: string; number: string; snapshot: InvoiceSnapshot };

  beforeAll(async () => {
    await legal({
      siret: '',
      vat_regime: 'rate',
      vat_rate_bp: 2000,
      vat_mention: 'N° TVA FR00123456789',
    });
    const original = await makeArtwork(t.db, {
      price_cents: 123_457,
      year: 2019,
      technique_fr: 'Acrylique sur lin',
    });
    order = await buy([{ artworkId: original.id, quantity: 1 }], 'fr', 'Léa Martin');
    invoice = (await findInvoice(t.db, order.id))!;
  });

  it('says on the dashboard what the legal identity lacks, and nothing once complete', async () => {
    // The SIRET is optional (issue 27: 'Facultatif' in the settings): never named when empty.
    expect((await dashboard(t.db)).legalMissing).toEqual([]);
    await legal({ name: '', siret: '', vat_regime: '' });
    expect((await dashboard(t.db)).legalMissing).toEqual([
      'Nom ou raison sociale',
      'Régime de TVA',
    ]);
    await legal({});
    expect((await dashboard(t.db)).legalMissing).toEqual([]);
    await legal({
      siret: '',
      vat_regime: 'rate',
      vat_rate_bp: 2000,
      vat_mention: 'N° TVA FR00123456789',
    });
  });

  it('prints the amounts before tax, the tax and after tax, computed in cents, and no empty SIRET', async () => {
    // 1 234,57 € (shipping free above the threshold) including 20 % VAT: before tax
    // round(123 457 / 1,2) = 102 881 (102 880,83…), tax 123 457 − 102 881 = 20 576.
    expect(order.total).toBe(123_457);
    expect(invoice.snapshot.vatAmounts).toEqual({
      rateBp: 2000,
      beforeTaxCents: 102_881,
      taxCents: 20_576,
      afterTaxCents: 123_457,
    });
    const text = spaces(await pdfText(await renderInvoicePdf(invoice.snapshot)));
    for (const expected of [
      'FACTURE',
      `N° ${invoice.number}`,
      'Œuvre originale, pièce unique',
      'Acrylique sur lin · 100 x 80 cm · 2019',
      'Total HT',
      '1 028,81 €',
      'TVA 20 %',
      '205,76 €',
      'Total TTC',
      '1 234,57 €',
      'Prix TTC, TVA au taux de 20 % incluse',
      'N° TVA FR00123456789',
      'Payée le',
      'Date : ',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('SIRET');
    expect(text).not.toContain('non renseigné');
    expect(text).not.toMatch(/\bInvoice\b|VAT/);
  });

  it('is confirmed in French, with French spacing and the same link wording', async () => {
    const mail = order.confirmation;
    expect(mail.subject).toBe(`Confirmation de votre commande ${order.number}`);
    const text = mail.text;
    for (const expected of [
      `Sous-total${NBSP}: `,
      `Adresse de livraison${NBSP}:`,
      `Le vendeur${NBSP}:`,
      'Prix TTC, TVA au taux de 20 % incluse',
      'Œuvre originale, pièce unique, quantité 1',
      'Vous disposez de 14 jours à compter de la réception des œuvres',
      `Votre facture ${invoice.number} est jointe à ce message (PDF).`,
      'Tout dommage dû au transport est à signaler dans les 48 heures',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('SIRET');
    expect(text).not.toContain('non renseigné');
    // Every colon, question mark or semicolon of the French text has its no-break space.
    const bare = text.replace(/https?:\/\/\S+/g, '');
    expect(bare.split('\n').filter((l) => /(^|[^\u00a0])[:?;!](\s|$)/.test(l))).toEqual([]);
    expect(linkAfter(text, `Formulaire de rétractation${NBSP}:`)).toBe(
      'http://localhost:4321/retractation',
    );
    expect(linkAfter(text, `Conditions générales de vente${NBSP}:`)).toBe(
      'http://localhost:4321/terms',
    );
    const link = linkAfter(text, `Télécharger la facture (PDF)${NBSP}:`);
    expect((await openLink(link)).status).toBe(200);
    expect(mail.attachments!.map((a) => a.filename)).toEqual([`facture-${invoice.number}.pdf`]);
  });

  it('mails the cancellation in French with the credit note, refunded in full', async () => {
    const before = sent.length;
    await changeOrderStatus(
      { db: t.db, payments, mailer, refundOrder },
      order.id,
      { status: 'cancelled', refund: true, restock: true },
      owner,
    );
    const mail = sent.at(-1)!;
    expect(sent).toHaveLength(before + 1);
    expect(mail.subject).toBe(`Annulation de votre commande ${order.number}`);
    const note = (await findInvoice(t.db, order.id, 'credit_note'))!;
    expect(spaces(mail.text)).toContain('Nous vous avons remboursé 1 234,57 €');
    expect(mail.text).toContain(`Télécharger l’avoir (PDF)${NBSP}:`);
    expect(mail.attachments!.map((a) => a.filename)).toEqual([`avoir-${note.number}.pdf`]);
    const text = spaces(await pdfText(mail.attachments![0]!.content));
    for (const expected of [
      'AVOIR',
      `Avoir n° ${note.number} — se rapporte à la facture ${invoice.number}`,
      'Motif : annulation de la commande',
      'Total HT',
      '-1 028,81 €',
      '-205,76 €',
      '-1 234,57 €',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('SIRET');
    const history = (await getAdminOrder(t.db, order.id)).history.map((h) => h.summary);
    expect(history).toContain('Confirmée → Annulée (client remboursé, œuvres remises en vente)');
  });
});

describe('the numbering', () => {
  it('stays one gapless sequence per kind, whatever the language', async () => {
    const rows = await t.db
      .selectFrom('invoices')
      .select(['kind', 'sequence', 'number'])
      .orderBy('kind')
      .orderBy('sequence')
      .execute();
    const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.sequence);
    expect(of('invoice')).toEqual([1, 2]);
    expect(of('credit_note')).toEqual([1, 2]);
    expect(rows.map((r) => r.number).sort()).toEqual([
      'A-000001',
      'A-000002',
      'F-000001',
      'F-000002',
    ]);
  });

  it('still prints an invoice issued before issue 26 (version 1 snapshot) as it was', async () => {
    const { snapshot } = (await findInvoice(
      t.db,
      (
        await t.db
          .selectFrom('invoices')
          .select('order_id')
          .where('number', '=', 'F-000002')
          .executeTakeFirstOrThrow()
      ).order_id,
    ))!;
    const old: InvoiceSnapshot = {
      ...snapshot,
      version: 1,
      seller: {
        name: 'Galerie Sasha Kovač',
        address: DEFAULT_SETTINGS.contact_address,
        siret: '',
        vatMention: 'TVA non applicable, art. 293 B du CGI',
        email: DEFAULT_SETTINGS.contact_email,
      },
      lines: snapshot.lines.map(({ title, type, quantity, unitPriceCents, lineTotalCents }) => ({
        title,
        type,
        quantity,
        unitPriceCents,
        lineTotalCents,
      })),
    };
    delete old.locale;
    delete old.vatAmounts;
    const text = spaces(await pdfText(await renderInvoicePdf(old)));
    expect(text).toContain('FACTURE');
    expect(text).toContain('Œuvre originale');
    expect(text).not.toContain('pièce unique');
    expect(text).toContain('TVA non applicable, art. 293 B du CGI');
    expect(text).not.toContain('SIRET');
    expect(text).not.toContain('Total HT');
  });
});
