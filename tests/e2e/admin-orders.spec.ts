// The orders screen end to end, as the owner would use it (back office §2 "Gestion des commandes",
// §4, §8; issue 13): two buyers pay through the real checkout and the payment emulator — one in
// English for a print, one in French for an original, both works added by the owner for this
// spec — then on /admin/orders the owner finds each by a part of the name (other case, no
// accents) and by the Stripe session id, filters by status, opens the detail, marks the first
// 'Expédiée' with a tracking number (the buyer's mail arrives, in English, with it), cancels the
// second with the explicit choices (refund through the emulator, with its credit note, and
// restock: the original can be bought again), and exports the CSV, read back as a spreadsheet reads it. Axe
// (WCAG 2.2 AA) and the computed-style checks on the screen and every modal at 1366 and 390 px;
// screenshots for a person to look at go to test-results/admin-orders/.
import fs from 'node:fs/promises';
import path from 'node:path';
import { devices, expect, type Browser, type Page, type Route } from '@playwright/test';
import type { OrderDetail, OrderList } from '../../src/schemas/admin-orders.ts';
import { formatMoney as euros } from '../../src/domain/money.ts';
import { parseMail } from '../helpers/mail.ts';
import { confirmIdentityIfAsked, E2E_ADMIN, useOwner, uploadedPhoto } from './admin.ts';
import { expectNoAxeViolations, hydrated, preparePage, test } from './helpers.ts';
import { expectLooksRight, settle } from './look.ts';
import { mailDir } from './shops.ts';

test.describe.configure({ mode: 'serial' });

const ownerOf = useOwner();
const root = path.resolve(import.meta.dirname, '..', '..');
const SHOTS = path.join(root, 'test-results', 'admin-orders');

const stamp = Date.now().toString(36);
const PRINT = { title: `Marée basse, tirage ${stamp}`, priceCents: 24_000, quantity: 2 };
const ORIGINAL = { title: `Marée basse ${stamp}`, priceCents: 185_000 };
/** Names a search finds without their accents and case; unusual enough to be theirs alone. */
const ZOE = {
  name: 'Zoë Vandersteen-Öhlund',
  email: `zoe.${stamp}@example.org`,
  locale: 'en' as const,
};
const INES = {
  name: 'Inês Albuquerque-Reis',
  email: `ines.${stamp}@example.org`,
  locale: 'fr' as const,
};
const TRACKING = `6A${stamp.toUpperCase()}FR`;

interface Purchase {
  sessionId: string;
  number: string;
  id: string;
}
const bought: { zoe?: Purchase; ines?: Purchase; originalId?: number; printId?: number } = {};

/** The owner adds a work with its image through the back office's endpoints: its id. */
async function addWork(
  type: 'original' | 'print',
  title: string,
  priceCents: number,
  originalId: number | null,
): Promise<number> {
  const photo = await uploadedPhoto(ownerOf(), '#6b4f3a');
  const created = await ownerOf().post('/api/admin/artworks', {
    data: {
      type,
      title: { fr: title, en: title },
      description: { fr: '', en: '' },
      technique: { fr: 'Huile sur toile', en: 'Oil on canvas' },
      category: 'peinture',
      collection: '',
      year: 2026,
      dimensions: '80 x 60 cm',
      priceCents,
      stock: type === 'print' ? 10 : 1,
      editionSize: type === 'print' ? 30 : null,
      isAvailable: true,
      isSold: false,
      originalId,
      imageSha256: photo,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { artwork: { id: number } }).artwork.id;
}

const CHECKOUT = {
  fr: {
    cart: '/panier',
    proceed: 'Passer la commande',
    url: /\/commande$/,
    name: 'Nom complet',
    phone: 'Téléphone',
    street: 'Adresse',
    postal: 'Code postal',
    city: 'Ville',
    country: 'Pays',
    terms: /conditions générales de vente/,
    order: /^Commander avec obligation de paiement · /,
    pay: /^Payer /,
    confirmed: 'Paiement confirmé',
    paid: 'Payé',
  },
  en: {
    cart: '/en/cart',
    proceed: 'Proceed to checkout',
    url: /\/en\/checkout$/,
    name: 'Full name',
    phone: 'Phone',
    street: 'Street address',
    postal: 'Postal code',
    city: 'City',
    country: 'Country',
    terms: /terms of sale/,
    order: /^Order with obligation to pay · /,
    pay: /^Pay /,
    confirmed: 'Payment confirmed',
    paid: 'Paid',
  },
} as const;

/** A buyer of their own (own cart, own email, own language) pays on the emulator: the session. */
async function buy(
  browser: Browser,
  baseURL: string,
  buyer: { name: string; email: string; locale: 'fr' | 'en' },
  line: { id: number; quantity: number; title: string },
  more: { id: number; quantity: number; title: string }[] = [],
): Promise<string> {
  const c = CHECKOUT[buyer.locale];
  const context = await browser.newContext({
    baseURL,
    userAgent: devices['Desktop Chrome'].userAgent,
  });
  const page = await context.newPage();
  const errors = await preparePage(page);
  // The works are new and not yet published: into the cart through the endpoint the gallery's
  // 'Ajouter au panier' button calls; cart, checkout, emulator and success page are the real ones.
  for (const each of [line, ...more]) {
    const added = await page.request.post('/api/cart', {
      data: { artworkId: each.id, quantity: each.quantity },
      headers: { Origin: baseURL },
    });
    expect(added.ok(), await added.text()).toBe(true);
  }
  await page.goto(c.cart);
  await hydrated(page);
  for (const each of [line, ...more])
    await expect(page.getByRole('heading', { name: each.title })).toBeVisible();
  await page.getByRole('link', { name: c.proceed }).click();
  await expect(page).toHaveURL(c.url);
  await hydrated(page);
  await page.getByRole('textbox', { name: c.name }).fill(buyer.name);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(buyer.email);
  await page.getByRole('textbox', { name: c.phone }).fill('+351 912 345 678');
  await page.getByRole('textbox', { name: c.street, exact: true }).fill('Rua da Rosa 40');
  await page.getByRole('textbox', { name: c.postal }).fill('1200-385');
  await page.getByRole('textbox', { name: c.city }).fill('Lisboa');
  await page.getByRole('combobox', { name: c.country }).selectOption('PT');
  await page.getByRole('checkbox', { name: c.terms }).check();
  await page.getByRole('button', { name: c.order }).click();

  await expect(page).toHaveURL(/\/emulator\/checkout\/cs_/);
  const sessionId = /\/emulator\/checkout\/(cs_[A-Za-z0-9_]+)/.exec(page.url())![1]!;
  await page.locator('#card_number').fill('4242 4242 4242 4242');
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: c.pay }).click();
  await expect(page.getByRole('heading', { name: c.confirmed, level: 1 })).toBeVisible();
  // Paid once the webhook has fulfilled the order.
  await expect(page.getByText(c.paid, { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
  return sessionId;
}

async function listOf(query: string): Promise<OrderList> {
  const response = await ownerOf().get(`/api/admin/orders${query}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as OrderList;
}

async function detailOf(id: string): Promise<OrderDetail> {
  const response = await ownerOf().get(`/api/admin/orders/${id}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { order: OrderDetail }).order;
}

async function signIn(page: Page, target: string) {
  await page.goto(target);
  await expect(page).toHaveURL(/\/admin\/login\?redirect=/);
  await page.getByLabel(/^Email/).fill(E2E_ADMIN.email);
  await page.getByLabel(/^Mot de passe/).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/admin/orders');
  await hydrated(page);
}

const search = (page: Page) => page.getByRole('searchbox', { name: 'Rechercher une commande' });
const results = (page: Page) => page.getByText(/^\d+ résultat\(s\)$/);
/** The visible row (table at 1366 px, card at 390 px) of an order. */
const row = (page: Page, number: string) =>
  page.locator(`[data-order="${number}"]`).filter({ visible: true });
const statusOf = (page: Page, number: string) =>
  page.getByRole('combobox', { name: `Statut de la commande ${number}` });
const successBanner = (page: Page) => page.locator('main [role=status]').first();
const errorBanner = (page: Page) => page.locator('main [role=alert]').first();

/** Types a search and waits for the list to answer it. */
async function find(page: Page, q: string, count: number) {
  await search(page).fill(q);
  await expect(page).toHaveURL(
    new RegExp(`[?&]q=${encodeURIComponent(q.trim()).replace(/%20/g, '\\+')}`),
  );
  await expect(results(page)).toHaveText(`${count} résultat(s)`);
}

/** The newest mail to `address` holding `marker`, parsed, or null. */
async function mailTo(address: string, marker: string) {
  const names = (await fs.readdir(mailDir()).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.eml'),
  );
  names.sort().reverse();
  for (const name of names) {
    const mail = parseMail(await fs.readFile(path.join(mailDir(), name), 'utf8'));
    const to = /^to:\s*(.*)$/im.exec(mail.headers)?.[1] ?? '';
    if (to.toLowerCase().includes(address.toLowerCase()) && mail.text.includes(marker)) return mail;
  }
  return null;
}

/** RFC 4180 with ';' — what a spreadsheet does with the file. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let line: string[] = [];
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
      line.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      line.push(cell);
      rows.push(line);
      line = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

async function look(page: Page, name: string) {
  await settle(page);
  await expectNoAxeViolations(page);
  await expectLooksRight(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test('two buyers pay; the owner finds, filters, ships, cancels and exports their orders', async ({
  page,
  browser,
  baseURL,
}) => {
  const originalId = await addWork('original', ORIGINAL.title, ORIGINAL.priceCents, null);
  const printId = await addWork('print', PRINT.title, PRINT.priceCents, originalId);
  bought.originalId = originalId;
  bought.printId = printId;
  const zoeSession = await buy(browser, baseURL!, ZOE, {
    id: printId,
    quantity: PRINT.quantity,
    title: PRINT.title,
  });
  const inesSession = await buy(browser, baseURL!, INES, {
    id: originalId,
    quantity: 1,
    title: ORIGINAL.title,
  });
  for (const [key, session] of [
    ['zoe', zoeSession],
    ['ines', inesSession],
  ] as const) {
    const [found] = (await listOf(`?q=${session}`)).orders;
    expect(found, session).toBeDefined();
    bought[key] = { sessionId: session, number: found!.number, id: found!.id };
  }
  const zoe = bought.zoe!;
  const ines = bought.ines!;

  const errors = await preparePage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, '/admin/orders');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Gestion des commandes' }),
  ).toBeVisible();
  await expect(row(page, zoe.number)).toBeVisible();
  // The first view is sorted newest first, and its 'Date' header says so.
  await expect(page.locator('th[aria-sort]')).toHaveCount(1);
  await expect(page.getByRole('columnheader', { name: 'Date' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(row(page, ines.number)).toBeVisible();

  // A part of the name, another case, without the accents; then the session id, whole and cut.
  await find(page, 'VANDERSTEEN-ohl', 1);
  await expect(row(page, zoe.number)).toContainText(ZOE.name);
  await find(page, 'ines albuquerque', 1);
  await expect(row(page, ines.number)).toContainText(INES.name);
  await expect(row(page, ines.number)).toContainText('Carte bancaire (Stripe)');
  await expect(row(page, ines.number)).toContainText('Payée');
  await find(page, zoe.sessionId, 1);
  await expect(row(page, zoe.number)).toBeVisible();
  await find(page, ines.sessionId.slice(0, 20), 1);
  await expect(row(page, ines.number)).toBeVisible();
  // The address keeps the search: a reload shows the same list.
  await page.reload();
  await hydrated(page);
  await expect(search(page)).toHaveValue(ines.sessionId.slice(0, 20));
  await expect(row(page, ines.number)).toBeVisible();
  await find(page, 'nobody-by-this-name', 0);
  await expect(page.getByText('Aucune commande trouvée')).toBeVisible();
  await expect(page.getByText('Essayez de modifier vos critères de recherche')).toBeVisible();

  // The detail of Zoë's order: everything the modal shows.
  await find(page, stamp, 2);
  await row(page, zoe.number)
    .getByRole('button', { name: `Voir les détails de la commande ${zoe.number}` })
    .click();
  const detail = page.getByRole('dialog', { name: `Commande ${zoe.number}` });
  await expect(detail).toBeVisible();
  await expect(detail.getByRole('link', { name: ZOE.email })).toBeVisible();
  await expect(detail.getByText('+351 912 345 678')).toBeVisible();
  await expect(detail.getByText('Rua da Rosa 40')).toBeVisible();
  await expect(detail.getByText('Portugal')).toBeVisible();
  await expect(detail.getByRole('row', { name: new RegExp(PRINT.title) })).toContainText('480,00');
  // 480 € is under the free-shipping threshold: shipping is charged ('Gratuite' only when 0).
  const zoeDetail = await detailOf(zoe.id);
  const shippingCell = detail
    .locator('dt', { hasText: /^Livraison$/ })
    .locator('xpath=following-sibling::dd[1]');
  await expect(shippingCell).toHaveText(
    zoeDetail.shippingCents === 0 ? 'Gratuite' : euros(zoeDetail.shippingCents),
  );
  await expect(detail.getByText('Carte bancaire (Stripe)')).toBeVisible();
  await expect(detail.getByText(`${zoeSession.slice(0, 12)}…`)).toBeVisible();
  await expect(
    detail.getByText('Les détails complets du paiement sont dans le tableau de bord Stripe.'),
  ).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Historique' })).toBeVisible();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await detail.getByRole('button', { name: "Copier l'identifiant de session complet" }).click();
  await expect(detail.getByText(`Identifiant copié : ${zoeSession}`)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(zoeSession);
  await look(page, 'orders-1366-detail');
  await detail.getByRole('button', { name: 'Fermer' }).click();
  await expect(detail).toBeHidden();

  // Issue 27: the detail is where the owner acts. 'Marquer comme expédiée' asks for the carrier
  // from the list and its tracking number, then mails Zoë in English with the tracking link.
  await row(page, zoe.number)
    .getByRole('button', { name: `Voir les détails de la commande ${zoe.number}` })
    .click();
  await expect(detail).toBeVisible();
  await detail.getByRole('button', { name: 'Marquer comme expédiée' }).click();
  const ship = page.getByRole('dialog', {
    name: `Marquer la commande ${zoe.number} comme expédiée`,
  });
  await expect(ship).toBeVisible();
  await expect(ship).toContainText('anglais');
  // A carrier without its number: the field says how to fix it.
  await ship.getByLabel('Transporteur', { exact: true }).selectOption('Colissimo');
  await ship.getByRole('button', { name: 'Marquer comme expédiée' }).click();
  await expect(ship.getByLabel('Numéro de suivi', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(ship).toContainText('Indiquez le numéro de suivi');
  await ship.getByLabel('Numéro de suivi', { exact: true }).fill(TRACKING);
  await look(page, 'orders-1366-ship');
  await ship.getByRole('button', { name: 'Marquer comme expédiée' }).click();
  await expect(ship).toBeHidden();
  await expect(detail.getByRole('status').filter({ hasText: 'Expédiée' })).toHaveText(
    `Commande ${zoe.number} : statut « Expédiée » enregistré. Le client a été prévenu par e-mail.`,
  );
  await expect(detail.getByText(TRACKING, { exact: true })).toBeVisible();
  // Nothing left to ship: the button is gone, the packing slip stays.
  await expect(detail.getByRole('button', { name: 'Marquer comme expédiée' })).toHaveCount(0);
  await expect(detail.getByRole('link', { name: 'Imprimer le bon de livraison' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect(statusOf(page, zoe.number)).toHaveValue('shipped');
  let mail: Awaited<ReturnType<typeof mailTo>> = null;
  await expect.poll(async () => (mail = await mailTo(ZOE.email, TRACKING))).not.toBeNull();
  expect(mail!.text).toContain(`Tracking number: ${TRACKING}`);
  expect(mail!.text).toContain('Carrier: Colissimo');
  expect(mail!.text).toContain(`https://www.laposte.fr/outils/suivre-vos-envois?code=${TRACKING}`);
  expect(mail!.html).toContain(
    `href="https://www.laposte.fr/outils/suivre-vos-envois?code=${TRACKING}"`,
  );
  expect(mail!.text).toContain(`Good news: your order ${zoe.number} is on its way.`);
  expect(mail!.html).toContain('<html lang="en">');

  // Filter by status: shipped shows Zoë's only, confirmed Inês' only.
  const filter = page.getByRole('combobox', { name: 'Statut', exact: true });
  await filter.selectOption({ label: 'Expédiée' });
  await expect(page).toHaveURL(/status=shipped/);
  await expect(results(page)).toHaveText('1 résultat(s)');
  await expect(row(page, zoe.number)).toBeVisible();
  await filter.selectOption({ label: 'Confirmée' });
  await expect(results(page)).toHaveText('1 résultat(s)');
  await expect(row(page, ines.number)).toBeVisible();
  await filter.selectOption({ label: 'Payée (Stripe)' });
  await expect(results(page)).toHaveText('2 résultat(s)');
  await filter.selectOption({ label: 'Tous les statuts' });

  // The history records the change, by the owner.
  expect((await detailOf(zoe.id)).history.at(-1)).toMatchObject({
    action: 'order.status',
    actor: E2E_ADMIN.email,
    summary: `Confirmée → Expédiée (Colissimo, n° ${TRACKING})`,
  });

  // 'Annulée' asks the two questions, none answered in advance.
  await statusOf(page, ines.number).selectOption('cancelled');
  const cancel = page.getByRole('dialog', { name: `Annuler la commande ${ines.number}` });
  await expect(cancel).toBeVisible();
  await expect(cancel).toContainText(ORIGINAL.title);
  await cancel.getByRole('button', { name: 'Annuler la commande' }).click();
  await expect(cancel.getByText('Choisissez une réponse.')).toHaveCount(2);
  await look(page, 'orders-1366-cancel');
  await cancel
    .getByRole('group', { name: 'Rembourser le client via Stripe ?' })
    .getByRole('radio', { name: /^Oui, rembourser 1\s850,00\s€ à Inês Albuquerque-Reis$/ })
    .check();
  await cancel
    .getByRole('group', { name: 'Remettre les œuvres en vente ?' })
    .getByRole('radio', { name: 'Oui, les remettre en vente' })
    .check();
  await cancel.getByRole('button', { name: 'Annuler la commande' }).click();
  // A refund asks the owner to confirm it is them (docs/decisions/037).
  await confirmIdentityIfAsked(page, successBanner(page).filter({ hasText: ines.number }));
  await expect(cancel).toBeHidden();
  await expect(successBanner(page)).toContainText(
    `Commande ${ines.number} : statut « Annulée » enregistré.`,
  );
  await expect(successBanner(page)).toContainText('Œuvres remises en vente.');
  await expect(successBanner(page)).toContainText(/Client remboursé de 1\s850,00\s€ via Stripe\./);
  // A cancelled order changes no more: its status is text, not a dropdown.
  await expect(statusOf(page, ines.number)).toHaveCount(0);
  await expect(row(page, ines.number)).toContainText('Annulée');
  const cancelled = await detailOf(ines.id);
  expect(cancelled.fulfilment).toBe('cancelled');
  // 1 850 € ships free.
  expect(cancelled.shippingCents).toBe(0);
  await row(page, ines.number)
    .getByRole('button', { name: `Voir les détails de la commande ${ines.number}` })
    .click();
  const inesDetail = page.getByRole('dialog', { name: `Commande ${ines.number}` });
  await expect(
    inesDetail.locator('dt', { hasText: /^Livraison$/ }).locator('xpath=following-sibling::dd[1]'),
  ).toHaveText('Gratuite');
  await expect(inesDetail.getByText('Annulée', { exact: true })).toBeVisible();
  await expect(inesDetail.getByText(/^1\s850,00\s€ remboursés le /)).toBeVisible();
  await expect(inesDetail.getByRole('link', { name: /^Télécharger l'avoir A-/ })).toHaveAttribute(
    'href',
    new RegExp(`^/api/admin/orders/${ines.id}/invoice\\?kind=credit_note&id=[0-9a-f-]{36}$`),
  );
  await look(page, 'orders-1366-detail-refunded');
  await page.keyboard.press('Escape');
  await expect(inesDetail).toBeHidden();
  // Refunded through the emulator, with a credit note referring to the invoice.
  expect(cancelled.payment).toBe('refunded');
  expect(cancelled.refundedCents).toBe(cancelled.totalCents);
  expect(cancelled.invoices.map((i) => i.kind)).toEqual(['invoice', 'credit_note']);
  expect(cancelled.history.map((h) => h.summary)).toContainEqual(
    expect.stringMatching(/^Remboursement via Stripe \(1\s850,00\s€, avoir A-/),
  );

  // The original can be bought again.
  const again = await browser.newContext({ baseURL: baseURL! });
  const buyable = await again.request.post('/api/cart', {
    data: { artworkId: originalId, quantity: 1 },
    headers: { Origin: baseURL! },
  });
  expect(buyable.ok(), await buyable.text()).toBe(true);
  await again.close();

  // The CSV of the list as filtered: both orders, read back as a French spreadsheet reads it.
  await find(page, stamp, 2);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Exporter (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^commandes-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await fs.readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parseCsv(bytes.subarray(3).toString('utf8'));
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
  const byNumber = new Map(rows.slice(1).map((r) => [r[0], r]));
  expect(byNumber.size).toBe(2);
  expect(byNumber.get(zoe.number)).toEqual([
    zoe.number,
    expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/),
    ZOE.name,
    ZOE.email,
    'Expédiée',
    'Payée',
    '480,00',
    '0,00',
    expect.stringMatching(/^\d+,\d{2}$/),
    expect.stringMatching(/^\d+,\d{2}$/),
    'EUR',
    '',
  ]);
  expect(byNumber.get(ines.number)!.slice(2, 7)).toEqual([
    INES.name,
    INES.email,
    'Annulée',
    'Remboursée',
    '1850,00',
  ]);
  expect(errors).toEqual([]);
});

test('the screen and its modals pass axe and look right at 1366 and 390 px; screenshots', async ({
  page,
}) => {
  const zoe = bought.zoe!;
  const errors = await preparePage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, '/admin/orders');
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/orders');
    await hydrated(page);
    await expect(row(page, zoe.number)).toBeVisible();
    await look(page, `orders-${width}`);

    // At 1366 px the table fits its box; on a phone nothing scrolls sideways.
    if (width === 1366)
      expect(
        await page
          .locator('main table')
          .evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth),
      ).toBeLessThanOrEqual(0);
    if (width === 390)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );

    await row(page, zoe.number)
      .getByRole('button', { name: `Voir les détails de la commande ${zoe.number}` })
      .click();
    const detail = page.getByRole('dialog', { name: `Commande ${zoe.number}` });
    await expect(detail.getByRole('heading', { name: 'Historique' })).toBeVisible();
    await look(page, `orders-${width}-detail`);
    // Its end too: refunds, invoices, history.
    await detail.evaluate((dialog) => (dialog.scrollTop = dialog.scrollHeight));
    await page.screenshot({ path: path.join(SHOTS, `orders-${width}-detail-end.png`) });
    await page.keyboard.press('Escape');
    await expect(detail).toBeHidden();
    // The focus is back on the button that opened it.
    await expect(
      row(page, zoe.number).getByRole('button', {
        name: `Voir les détails de la commande ${zoe.number}`,
      }),
    ).toBeFocused();

    // Zoë's shipped order can still be cancelled: the dialog, then left unchanged.
    await statusOf(page, zoe.number).selectOption('cancelled');
    const cancel = page.getByRole('dialog', { name: `Annuler la commande ${zoe.number}` });
    await expect(cancel).toBeVisible();
    await look(page, `orders-${width}-cancel`);
    await cancel.getByRole('button', { name: 'Retour' }).click();
    await expect(cancel).toBeHidden();
    await expect(statusOf(page, zoe.number)).toHaveValue('shipped');
  }

  // §8: a failed load says so and empties the list; 'Actualiser' brings it back.
  const list = (url: URL) => url.pathname === '/api/admin/orders';
  const failing = (route: Route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
  await page.route(list, failing);
  await page.getByRole('button', { name: 'Actualiser' }).click();
  await expect(errorBanner(page)).toHaveText(
    'Erreur lors du chargement des commandes: erreur interne du serveur',
  );
  await expect(row(page, zoe.number)).toHaveCount(0);
  await expect(page.getByText('Aucune commande trouvée')).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, 'orders-390-error.png'), fullPage: true });
  await page.unroute(list, failing);
  await page.getByRole('button', { name: 'Actualiser' }).click();
  await expect(errorBanner(page)).toBeEmpty();
  await expect(row(page, zoe.number)).toBeVisible();

  // §8: a refused change says why.
  await page.route(`**/api/admin/orders/${zoe.id}`, (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'rejected', message: 'refusé pour le test' } }),
        })
      : route.continue(),
  );
  await statusOf(page, zoe.number).selectOption('delivered');
  await expect(errorBanner(page)).toHaveText(
    'Erreur lors de la mise à jour du statut: refusé pour le test',
  );
  await expect(statusOf(page, zoe.number)).toHaveValue('shipped');
  expect(errors).toEqual([]);
});

// Issue 27 item 3: a buyer of two prints; the owner refunds one of them from the detail (the
// amount is the server's, with its credit note), the detail with its actions is compared with its
// baselines at 1366 and 390 px, and the packing slip lists what is left to send, without prices.
const LEA = {
  name: 'Léa Fontaine-Marchal',
  email: `lea.${stamp}@example.org`,
  locale: 'fr' as const,
};
const SECOND = { title: `Estran, tirage ${stamp}`, priceCents: 9_500 };

/** The detail as the screen gets it, with every value of this run replaced by a fixed one. */
function fixedDetail(real: OrderDetail): OrderDetail {
  const at = '2026-11-20T09:15:00.000Z';
  return {
    ...real,
    number: 'GS-2026-00042',
    customerName: 'Léa Fontaine-Marchal',
    customerEmail: 'lea@example.org',
    date: at,
    paidAt: at,
    refundedAt: '2026-11-21T16:40:00.000Z',
    stripeSessionId: 'cs_test_a1B2c3D4e5F6g7H8',
    lines: real.lines.map((line, index) => ({
      ...line,
      title: index === 0 ? 'Marée basse, tirage' : 'Estran, tirage',
      editions: line.editions.map((_, n) => `${n + 3}/30`),
    })),
    invoices: real.invoices.map((invoice, index) => ({
      ...invoice,
      number: invoice.kind === 'invoice' ? 'F-000042' : `A-00000${index + 6}`,
      issuedAt: index === 0 ? at : '2026-11-21T16:40:00.000Z',
    })),
    history: [
      { at, actor: null, action: 'order.paid', summary: 'Payée' },
      {
        at: '2026-11-21T16:40:00.000Z',
        actor: 'owner@example.org',
        action: 'order.refund',
        summary: 'Remboursement partiel via Stripe (95,00 €, avoir A-000007) : Estran, tirage',
      },
    ],
  };
}

test('the owner refunds one work from the detail, and prints the packing slip', async ({
  page,
  browser,
  baseURL,
}) => {
  const printId = await addWork('print', SECOND.title, SECOND.priceCents, bought.originalId!);
  const session = await buy(
    browser,
    baseURL!,
    LEA,
    { id: bought.printId!, quantity: 1, title: PRINT.title },
    [{ id: printId, quantity: 1, title: SECOND.title }],
  );
  const [found] = (await listOf(`?q=${session}`)).orders;
  const lea = { id: found!.id, number: found!.number };

  const errors = await preparePage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, '/admin/orders');
  await find(page, lea.number, 1);
  await row(page, lea.number)
    .getByRole('button', { name: `Voir les détails de la commande ${lea.number}` })
    .click();
  const detail = page.getByRole('dialog', { name: `Commande ${lea.number}`, exact: true });
  await expect(detail.getByRole('button', { name: 'Rembourser…' })).toBeVisible();
  await detail.getByRole('button', { name: 'Rembourser…' }).click();
  const refund = page.getByRole('dialog', { name: `Rembourser la commande ${lea.number}` });
  await expect(refund).toBeVisible();
  // Nothing is chosen in advance: both questions must be answered.
  await refund.getByRole('button', { name: 'Rembourser', exact: true }).click();
  await expect(refund.getByText('Choisissez une réponse.')).toHaveCount(2);
  await refund.getByRole('radio', { name: 'Certaines œuvres seulement' }).check();
  await refund.getByRole('radio', { name: 'Non, les laisser hors vente' }).check();
  await refund.getByRole('button', { name: 'Rembourser', exact: true }).click();
  await expect(refund.getByText('Choisissez au moins une œuvre.')).toBeVisible();
  await refund.getByRole('checkbox', { name: new RegExp(SECOND.title) }).check();
  await look(page, 'orders-1366-refund');
  await refund.getByRole('button', { name: 'Rembourser', exact: true }).click();
  const done = detail.getByRole('status').filter({ hasText: 'remboursés via Stripe' });
  await confirmIdentityIfAsked(page, done);
  await expect(refund).toBeHidden();
  await expect(done).toHaveText(
    new RegExp(
      `^Commande ${lea.number} : 95,00\\s€ remboursés via Stripe, avoir A-\\d{6} émis\\. Le client a été prévenu par e-mail\\.$`,
    ),
  );
  const after = await detailOf(lea.id);
  expect(after.payment).toBe('paid');
  expect(after.refundedCents).toBe(SECOND.priceCents);
  expect(after.lines.map((l) => l.refunded)).toEqual([false, true]);
  expect(after.invoices.map((i) => [i.kind, i.totalCents])).toEqual([
    ['invoice', after.totalCents],
    ['credit_note', -SECOND.priceCents],
  ]);
  await expect(detail.getByText('Remboursée', { exact: true })).toBeVisible();
  await expect(detail.getByRole('link', { name: /^Télécharger l'avoir A-/ })).toBeVisible();
  // The buyer is told, in the order's language: the work refunded, the amount, the credit note.
  const creditNumber = after.invoices.find((i) => i.kind === 'credit_note')!.number;
  const mail = await mailTo(LEA.email, `avoir ${creditNumber}`);
  expect(mail, 'the partial refund mail').not.toBeNull();
  expect(mail!.headers).toMatch(
    new RegExp(`^subject: Remboursement partiel de votre commande ${lea.number}`, 'im'),
  );
  expect(mail!.text).toContain(SECOND.title);
  expect(mail!.text).toMatch(/La galerie vous a remboursé 95,00\s€/);
  expect(mail!.text).toContain('Le reste de votre commande est maintenu.');
  expect(mail!.text).not.toContain(PRINT.title);
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  // The detail with its actions, compared with its baselines: this run's values made fixed.
  const fixture = fixedDetail(after);
  await page.route(`**/api/admin/orders/${lea.id}`, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ json: { order: fixture } })
      : route.continue(),
  );
  await page.route(
    (url) => url.pathname === '/api/admin/certificates',
    (route) => route.fulfill({ json: { certificates: [] } }),
  );
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/admin/orders?q=${lea.number}`);
    await hydrated(page);
    await row(page, lea.number)
      .getByRole('button', { name: `Voir les détails de la commande ${lea.number}` })
      .click();
    await expect(detail.getByText('Estran, tirage', { exact: true })).toBeVisible();
    await look(page, `orders-${width}-detail-actions`);
    await expect(detail).toHaveScreenshot(`order-detail-actions-${width}.png`, {
      animations: 'disabled',
      // The title holds this run's order number.
      mask: [detail.locator('h2')],
      maskColor: '#d9d4cc',
      threshold: 0.25,
      maxDiffPixelRatio: 0.02,
    });
    await page.keyboard.press('Escape');
  }
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  // The packing slip: where it goes and what is in the parcel — the refunded work is not — no price.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(`/admin/orders?q=${lea.number}`);
  await hydrated(page);
  await row(page, lea.number)
    .getByRole('button', { name: `Voir les détails de la commande ${lea.number}` })
    .click();
  const [slip] = await Promise.all([
    page.waitForEvent('popup'),
    detail.getByRole('link', { name: 'Imprimer le bon de livraison' }).click(),
  ]);
  await slip.waitForLoadState();
  await expect(slip.getByRole('heading', { level: 1, name: 'Bon de livraison' })).toBeVisible();
  await expect(slip.locator('[data-slip-order]')).toContainText(`Commande ${lea.number} du `);
  await expect(slip.locator('[data-slip-address]')).toContainText(LEA.name);
  await expect(slip.locator('[data-slip-address]')).toContainText('1200-385 Lisboa');
  await expect(slip.locator('[data-slip-address]')).toContainText('Portugal');
  await expect(slip.getByRole('cell', { name: PRINT.title, exact: true })).toBeVisible();
  await expect(slip.getByText('80 x 60 cm', { exact: false })).toBeVisible();
  await expect(slip.locator('[data-slip-edition]')).toHaveText(/^Numéro\(s\) : \d+\/30$/);
  await expect(slip.getByText(SECOND.title)).toHaveCount(0);
  expect(await slip.locator('main').innerText()).not.toMatch(/€/);
  await expectNoAxeViolations(slip);
  await slip.screenshot({ path: path.join(SHOTS, 'packing-slip-1366.png'), fullPage: true });
  await slip.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(slip);
  await slip.screenshot({ path: path.join(SHOTS, 'packing-slip-390.png'), fullPage: true });
  await slip.close();
  expect(errors).toEqual([]);
});
