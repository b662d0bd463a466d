// The paperwork of a sale as the buyer receives it (issue 26): a collector buys an original and a
// numbered print of it through the real checkout and the payment emulator, in French, another in
// English; each gets their invoice, then the owner cancels the order and refunds it, and the
// credit note follows. Every PDF is drawn by pdf.js in Chromium (tests/e2e/pdf-render.ts) and
// compared with its baseline — what a person would see, in each language — and its text is read
// back. What changes from run to run is masked: the numbers taken from the shop's sequences
// (invoice, credit note, order), the dates. The works are the owner's, made for each run with the
// same titles, photo and prices, so their edition numbers start at 1 every time.
//
// In the `owner` project (playwright.config.ts): its shop is the one whose sales are the owner's
// to count, and the works it adds are published there, away from the storefront's baselines.
import { devices, expect, type Browser } from '@playwright/test';
import { renderComposition } from '../../api/media/compose.ts';
import type { OrderDetail, OrderList } from '../../src/schemas/admin-orders.ts';
import { E2E_ADMIN, useOwner } from './admin.ts';
import { hydrated, preparePage, test } from './helpers.ts';
import { expectPdfPages, renderPdf, type PdfMask } from './pdf-render.ts';

const ownerOf = useOwner();

type Locale = 'fr' | 'en';

/** The seller as the owner states it in the settings' Général tab. */
const LEGAL_IDENTITY = {
  name: 'Sasha Kovač, artiste peintre',
  address: '14 rue des Trois-Frères\n75018 Paris\nFrance',
  siret: '91234567800017',
  // A painter under the franchise en base: "TVA non applicable, art. 293 B du CGI".
  vat_regime: 'franchise',
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

/** An invoice or credit note as a PDF. */
async function invoicePdf(orderId: string, kind: 'invoice' | 'credit_note'): Promise<Buffer> {
  const response = await ownerOf().get(`/api/admin/orders/${orderId}/invoice?kind=${kind}`);
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

for (const locale of ['fr', 'en'] as const) {
  test(`the paperwork of a sale, in ${locale === 'fr' ? 'French' : 'English'}: invoice and credit note`, async ({
    page,
    browser,
    baseURL,
  }) => {
    await stateLegalIdentity();
    const works = await addWorks();
    const order = await buy(browser, baseURL!, locale, works);

    const invoice = await renderPdf(page, await invoicePdf(order.id, 'invoice'), { masks: MASKS });
    console.log(invoice.text.join('\n----\n'));
    await expectPdfPages(`invoice-${locale}`, invoice, 1);

    await cancelAndRefund(order.id);
    const creditNote = await renderPdf(page, await invoicePdf(order.id, 'credit_note'), {
      masks: MASKS,
    });
    console.log(creditNote.text.join('\n----\n'));
    await expectPdfPages(`credit-note-${locale}`, creditNote, 1);
  });
}
