// The paperwork of a sale as the buyer receives it (issue 26): a collector buys an original and a
// numbered print of it through the real checkout and the payment emulator, in French, another in
// English. The order confirmation mail brings the invoice (attached, and by a signed link) and one
// certificate link per work; the owner then cancels and refunds, and the cancellation mail brings
// the credit note (attached, and linked). Every link is opened with no account and no session.
// Every PDF is drawn by pdf.js in Chromium (tests/e2e/pdf-render.ts) and compared with its
// baseline — what a person would see, in each language — and its text is read back: the
// décret 81-255 description, the VAT mention, the language, no buyer on a certificate. What changes
// from run to run is masked: the numbers of the shop's sequences (invoice, credit note, order),
// the dates, a certificate's serial, address, key, signature and QR code. The works are the
// owner's, made for each run with the same titles, photo and prices, so their edition numbers
// start at 1 every time. Baselines: `--update-snapshots=all -g "<French|English>"`, then look at
// them.
//
// In the `owner` project (playwright.config.ts): its shop is the one whose sales are the owner's
// to count, and the works it adds are published there, away from the storefront's baselines.
import fs from 'node:fs';
import path from 'node:path';
import { devices, expect, type APIRequestContext, type Browser } from '@playwright/test';
import { renderComposition } from '../../api/media/compose.ts';
import { until } from '../helpers/wait.ts';
import type { OrderDetail, OrderList } from '../../src/schemas/admin-orders.ts';
import { E2E_ADMIN, useOwner } from './admin.ts';
import { hydrated, preparePage, test } from './helpers.ts';
import { expectPdfPages, renderPdf, type PdfMask } from './pdf-render.ts';
import { mailDir } from './shops.ts';

const ownerOf = useOwner();

type Locale = 'fr' | 'en';

/** The seller as the owner states it in the settings' Général tab. */
const LEGAL_IDENTITY = {
  name: 'Sasha Kovač, artiste peintre',
  address: '14 rue des Trois-Frères\n75018 Paris\nFrance',
  siret: '91234567800017',
  // A painter under the franchise en base: "TVA non applicable, art. 293 B du CGI".
  vat_regime: 'franchise',
  vat_rate_bp: 0,
  // Whatever another spec of the shop left here would print on the documents (admin-settings.spec
  // states a VAT rate).
  vat_mention: '',
};

const WORK = {
  title: { fr: 'Estuaire à marée haute', en: 'Estuary at High Tide' },
  description: { fr: '', en: '' },
  category: 'peinture',
  collection: '',
  year: 2025,
  isAvailable: true,
  isSold: false,
};
const ORIGINAL = {
  ...WORK,
  type: 'original',
  technique: { fr: 'Huile et cire froide sur toile de lin', en: 'Oil and cold wax on linen' },
  dimensions: '100 x 81 cm',
  priceCents: 240_000,
  stock: 1,
  editionSize: null,
  originalId: null,
};
const PRINT = {
  ...WORK,
  type: 'print',
  technique: {
    fr: 'Tirage pigmentaire sur papier Hahnemühle Photo Rag 308 g',
    en: 'Pigment print on Hahnemühle Photo Rag 308 gsm',
  },
  dimensions: '50 x 40 cm',
  priceCents: 18_000,
  stock: 30,
  editionSize: 30,
};

const BUYERS = {
  fr: { name: 'Hélène Marchetti-Duval', email: 'helene.marchetti@example.org' },
  en: { name: 'Oliver Brandt-Whitaker', email: 'oliver.brandt@example.org' },
} as const;

const CHECKOUT = {
  fr: {
    cart: '/panier',
    proceed: 'Passer la commande',
    name: 'Nom complet',
    phone: 'Téléphone',
    street: 'Adresse',
    postal: 'Code postal',
    city: 'Ville',
    country: 'Pays',
    terms: /conditions générales de vente/,
    order: /^Commander avec obligation de paiement · /,
    pay: /^Payer /,
    paid: 'Payé',
  },
  en: {
    cart: '/en/cart',
    proceed: 'Proceed to checkout',
    name: 'Full name',
    phone: 'Phone',
    street: 'Street address',
    postal: 'Postal code',
    city: 'City',
    country: 'Country',
    terms: /terms of sale/,
    order: /^Order with obligation to pay · /,
    pay: /^Pay /,
    paid: 'Paid',
  },
} as const;

/** A date in either language, in words or in figures. */
const DATE =
  /\b\d{1,2}(er)? (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4}|\b(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}|\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}|\b\d{1,2}\/\d{1,2}\/\d{4}\b/;

/** Numbers from the shop's shared sequences and dates: they differ from run to run. The widths
 * (PDF points) cover the longest date ("30 septembre 2026") in the invoices' type sizes. */
const MASKS: PdfMask[] = [
  // The header's date, set flush right: its label moves with the date's length.
  { text: /^Date\s?:/, align: 'right', width: 150 },
  { text: DATE, unless: /^Date\s?:/, width: 110 },
  { text: /\b[FA]-(\d{4}-)?\d{4,}\b/ },
  { text: /\bGS-\d{4}-\d{5}\b/ },
];

/** The owner states the seller's legal identity (kept as it is when already so). */
async function stateLegalIdentity() {
  const current = await ownerOf().get('/api/admin/settings');
  expect(current.status()).toBe(200);
  const { settings } = (await current.json()) as {
    settings: { legal_identity: Record<string, unknown> };
  };
  const wanted = { ...settings.legal_identity, ...LEGAL_IDENTITY };
  if (JSON.stringify(wanted) === JSON.stringify(settings.legal_identity)) return;
  const saved = await ownerOf().patch('/api/admin/settings', { data: { legal_identity: wanted } });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** The owner adds the original and its print, with the same photo every run: their ids. */
async function addWorks(): Promise<{ original: number; print: number }> {
  const photo = await renderComposition({
    seed: 'estuaire-a-maree-haute',
    palette: ['#23395b', '#d9a441', '#f2efe6', '#8c3b2b'],
    width: 810,
    height: 1000,
  });
  const upload = await ownerOf().post('/api/admin/uploads', {
    headers: { 'content-type': 'image/jpeg' },
    data: photo,
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const imageSha256 = ((await upload.json()) as { sha256: string }).sha256;
  const create = async (work: object) => {
    const created = await ownerOf().post('/api/admin/artworks', {
      data: { ...work, imageSha256 },
    });
    expect(created.status(), await created.text()).toBe(201);
    return ((await created.json()) as { artwork: { id: number } }).artwork.id;
  };
  const original = await create(ORIGINAL);
  const print = await create({ ...PRINT, originalId: original });
  return { original, print };
}

/** The buyer pays for both works through the cart, the checkout and the emulator: the order. */
async function buy(
  browser: Browser,
  baseURL: string,
  locale: Locale,
  works: { original: number; print: number },
): Promise<OrderDetail> {
  const c = CHECKOUT[locale];
  const buyer = BUYERS[locale];
  const context = await browser.newContext({
    baseURL,
    userAgent: devices['Desktop Chrome'].userAgent,
  });
  const page = await context.newPage();
  const errors = await preparePage(page);
  // The works are new, perhaps not published yet: into the cart through the endpoint the
  // gallery's button calls; the cart, checkout, emulator and success pages are the real ones.
  for (const artworkId of [works.original, works.print]) {
    const added = await page.request.post('/api/cart', {
      data: { artworkId, quantity: 1 },
      headers: { Origin: baseURL },
    });
    expect(added.ok(), await added.text()).toBe(true);
  }
  await page.goto(c.cart);
  await hydrated(page);
  await page.getByRole('link', { name: c.proceed }).click();
  await hydrated(page);
  await page.getByRole('textbox', { name: c.name }).fill(buyer.name);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(buyer.email);
  await page.getByRole('textbox', { name: c.phone }).fill('+33 6 12 34 56 78');
  await page
    .getByRole('textbox', { name: c.street, exact: true })
    .fill('27 quai des Chartrons, appartement 4');
  await page.getByRole('textbox', { name: c.postal }).fill('33000');
  await page.getByRole('textbox', { name: c.city }).fill('Bordeaux');
  await page.getByRole('combobox', { name: c.country }).selectOption('FR');
  await page.getByRole('checkbox', { name: c.terms }).check();
  await page.getByRole('button', { name: c.order }).click();

  await expect(page).toHaveURL(/\/emulator\/checkout\/cs_/);
  const sessionId = /\/emulator\/checkout\/(cs_[A-Za-z0-9_]+)/.exec(page.url())![1]!;
  await page.locator('#card_number').fill('4242 4242 4242 4242');
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: c.pay }).click();
  // Paid once the webhook has fulfilled the order.
  await expect(page.getByText(c.paid, { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();

  const found = await ownerOf().get(`/api/admin/orders?q=${encodeURIComponent(sessionId)}`);
  expect(found.status()).toBe(200);
  const { orders } = (await found.json()) as OrderList;
  expect(orders).toHaveLength(1);
  return orderDetail(orders[0]!.id);
}

async function orderDetail(id: string): Promise<OrderDetail> {
  const response = await ownerOf().get(`/api/admin/orders/${id}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { order: OrderDetail }).order;
}

/** A mail as its reader gets it: its text and its PDF attachments. */
interface Mail {
  text: string;
  pdfs: Buffer[];
}

function decodePart(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding !== 'quoted-printable') return Buffer.from(body, 'utf8');
  const joined = body.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

/** Walks a MIME message (multipart/mixed with its alternative and attachments) into a Mail. */
function readMail(raw: string, into: Mail = { text: '', pdfs: [] }): Mail {
  const at = raw.search(/\r?\n\r?\n/);
  const headers = (at < 0 ? raw : raw.slice(0, at)).replace(/\r?\n[ \t]+/g, ' ');
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) =>
    new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
  const type = header('content-type').toLowerCase() || 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(header('content-type'))?.[1];
  if (boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      readMail(part.replace(/^\r?\n/, ''), into);
    }
    return into;
  }
  const content = decodePart(body, header('content-transfer-encoding').toLowerCase());
  if (type.startsWith('application/pdf')) into.pdfs.push(content);
  else if (type.startsWith('text/plain')) into.text += content.toString('utf8');
  return into;
}

/** The mail to `address` about `orderNumber` whose text says `marker`, waited for. */
async function mailWith(address: string, orderNumber: string, marker: string): Promise<Mail> {
  const dir = mailDir();
  return until(`the mail to ${address} about ${orderNumber} with “${marker}”`, () => {
    if (!fs.existsSync(dir)) return null;
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.eml'))) {
      const raw = fs.readFileSync(path.join(dir, file), 'latin1');
      if (!raw.includes(address)) continue;
      const mail = readMail(Buffer.from(raw, 'latin1').toString('utf8'));
      if (mail.text.includes(orderNumber) && mail.text.includes(marker)) return mail;
    }
    return null;
  });
}

/** The links of a mail's text to a document that opens without an account, as paths. */
function documentLinks(mail: Mail, kind: 'invoice' | 'certificate'): string[] {
  const pattern =
    kind === 'invoice'
      ? /https?:\/\/[^\s/]+(\/api\/invoices\/[0-9a-f-]{36}\?sig=[\w-]+)/g
      : /https?:\/\/[^\s/]+(\/api\/certificates\/[\w-]+\/pdf\?token=[\w-]+)/g;
  return [...new Set([...mail.text.matchAll(pattern)].map((m) => m[1]!))];
}

/** A document's PDF through a mail's link, by someone with no account and no session. */
async function download(request: APIRequestContext, link: string): Promise<Buffer> {
  const response = await request.get(link);
  expect(response.status(), await response.text()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  return response.body();
}

/** The owner cancels the order and refunds it through Stripe; the works stay off sale. */
async function cancelAndRefund(orderId: string): Promise<void> {
  // Money leaves the shop: the owner confirms it is them first (docs/decisions/037).
  const reauth = await ownerOf().post('/api/admin/reauth', {
    data: { password: E2E_ADMIN.password },
  });
  expect(reauth.status(), await reauth.text()).toBe(200);
  const response = await ownerOf().patch(`/api/admin/orders/${orderId}`, {
    data: { status: 'cancelled', refund: true, restock: false },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** On a certificate, besides the dates: its serial (also in its address), the gallery's key, the
 * signature, and the QR code of its public page (api/certificates/pdf.ts: 96 pt at the 56 pt margin, 3 pt more each side). */
const CERTIFICATE_MASKS: PdfMask[] = [
  { text: DATE, width: 110 },
  { text: /GAL-[A-Z0-9]{4,}/, width: 200 },
  { text: /https?:\/\/\S+/, width: 300 },
  { text: /\bgal-[0-9a-f]{8,}/, width: 120 },
  // The signature in short form: its start…its end.
  { text: /^[\w-]{8,}…[\w-]{4,}$/, width: 200 },
  { rect: [53, 53, 102, 102] },
];

/** What each mail says, in the buyer's language (api/mail/links.ts: one wording per link). */
const MAIL = {
  fr: {
    invoice: 'Télécharger la facture (PDF)',
    creditNote: 'Télécharger l’avoir (PDF)',
    certificate: 'Télécharger le certificat (PDF)',
  },
  en: {
    invoice: 'Download the invoice (PDF)',
    creditNote: 'Download the credit note (PDF)',
    certificate: 'Download the certificate (PDF)',
  },
} as const;

/** What the documents say, read back from their text, in the buyer's language only. */
const SAYS = {
  fr: {
    invoice: [
      'FACTURE',
      'Estuaire à marée haute',
      // Décret n° 81-255: nature, technique, dimensions, year.
      'Œuvre originale, pièce unique',
      'Huile et cire froide sur toile de lin · 100 x 81 cm · 2025',
      'Tirage n° 1/30',
      'TVA non applicable, art. 293 B du CGI',
      'SIRET : 91234567800017',
      'Total  2 580,00 €',
    ],
    creditNote: ['AVOIR', 'Motif : annulation de la commande', 'Total de l’avoir  -2 580,00 €'],
    refersTo: (invoice: string) => `se rapporte à la facture ${invoice} du `,
    certificate: ['Certificat d’authenticité', 'Estuaire à marée haute', 'Artiste  Sasha Kovač'],
    original: 'Nature  Œuvre originale',
    print: 'Nature  Tirage d’art, exemplaire n° 1/30',
    publicPage: /\/certificat\/GAL-[A-Z0-9]+/,
    other: /\b(Invoice|Credit note|Certificate|Total amount|Paid on)\b/,
  },
  en: {
    invoice: [
      'INVOICE',
      'Estuary at High Tide',
      'Original work, unique piece',
      'Oil and cold wax on linen · 100 x 81 cm · 2025',
      'Print no. 1/30',
      'VAT not applicable, article 293 B of the French tax code (CGI)',
      'SIRET: 91234567800017',
      'Total  €2,580.00',
    ],
    creditNote: ['CREDIT NOTE', 'Reason: order cancelled', 'Credit note total  -€2,580.00'],
    refersTo: (invoice: string) => `refers to invoice ${invoice} of `,
    certificate: ['Certificate of authenticity', 'Estuary at High Tide', 'Artist  Sasha Kovač'],
    original: 'Nature  Original work',
    print: 'Nature  Fine-art print, copy no. 1/30',
    publicPage: /\/en\/certificate\/GAL-[A-Z0-9]+/,
    other: /\b(Facture|Avoir|Certificat|Désignation)\b|Payée le|Œuvre originale/,
  },
} as const;

for (const locale of ['fr', 'en'] as const) {
  test(`the paperwork of a sale, in ${locale === 'fr' ? 'French' : 'English'}: invoice, certificates, credit note`, async ({
    page,
    browser,
    baseURL,
    playwright,
  }) => {
    const buyer = BUYERS[locale];
    const words = MAIL[locale];
    const says = SAYS[locale];
    await stateLegalIdentity();
    const works = await addWorks();
    const order = await buy(browser, baseURL!, locale, works);
    // Whoever holds the mail: no account, no session.
    const anyone = await playwright.request.newContext({ baseURL: baseURL! });

    // The order confirmation: the invoice attached, the same as its link gives.
    const confirmation = await mailWith(buyer.email, order.number, words.invoice);
    const [invoiceLink, ...more] = documentLinks(confirmation, 'invoice');
    expect(more).toEqual([]);
    const invoiceBytes = await download(anyone, invoiceLink!);
    expect(confirmation.pdfs.map((pdf) => pdf.equals(invoiceBytes))).toEqual([true]);
    const invoice = await renderPdf(page, invoiceBytes, { masks: MASKS });
    const invoiceText = invoice.text.join('\n');
    for (const line of says.invoice) expect(invoiceText).toContain(line);
    expect(invoiceText).toContain(buyer.name);
    expect(invoiceText).toContain(order.number);
    expect(invoiceText).not.toMatch(says.other);
    expect(invoiceText).not.toMatch(/non renseigné|not provided/);
    const invoiceNumber = /\b(F-[\d-]+)\b/.exec(invoiceText)![1]!;
    await expectPdfPages(`invoice-${locale}`, invoice, 1);

    // One certificate for the original, one for the numbered print, each by its own link.
    expect(confirmation.text).toContain(words.certificate);
    const certificateLinks = documentLinks(confirmation, 'certificate');
    expect(certificateLinks).toHaveLength(2);
    const kinds: string[] = [];
    for (const link of certificateLinks) {
      const certificate = await renderPdf(page, await download(anyone, link), {
        masks: CERTIFICATE_MASKS,
      });
      const text = certificate.text.join('\n');
      for (const line of says.certificate) expect(text).toContain(line);
      expect(text).toMatch(says.publicPage);
      expect(text).not.toMatch(says.other);
      // The certificate follows the work from owner to owner: it names none of them.
      expect(text).not.toContain(buyer.name);
      expect(text).not.toContain(buyer.email);
      const kind = text.includes(says.print) ? 'print' : 'original';
      if (kind === 'original') expect(text).toContain(says.original);
      kinds.push(kind);
      await expectPdfPages(`certificate-${kind}-${locale}`, certificate, 1);
    }
    expect(kinds.sort()).toEqual(['original', 'print']);

    // The owner cancels and refunds: the buyer's mail brings the credit note, attached and linked.
    await cancelAndRefund(order.id);
    const cancellation = await mailWith(buyer.email, order.number, words.creditNote);
    const [creditNoteLink] = documentLinks(cancellation, 'invoice');
    const creditNoteBytes = await download(anyone, creditNoteLink!);
    expect(cancellation.pdfs.map((pdf) => pdf.equals(creditNoteBytes))).toEqual([true]);
    const creditNote = await renderPdf(page, creditNoteBytes, { masks: MASKS });
    const creditNoteText = creditNote.text.join('\n');
    for (const line of says.creditNote) expect(creditNoteText).toContain(line);
    expect(creditNoteText).toContain(says.refersTo(invoiceNumber));
    expect(creditNoteText).not.toMatch(says.other);
    await expectPdfPages(`credit-note-${locale}`, creditNote, 1);
    await anyone.dispose();
  });
}
