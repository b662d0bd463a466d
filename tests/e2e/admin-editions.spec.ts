// The register of editions in the browser (issue 26, docs/decisions/045): the owner adds a print
// of an edition of 5 with an artist's proof, a buyer pays for a copy on the payment page and reads
// its number on the success page, then the owner opens « Registre des tirages », sees number 1/5
// sold to that buyer, the free numbers and the EA, and downloads the register as CSV. Axe
// (WCAG 2.2 AA) at 1366 and 390 px. In the owner's project (playwright.config.ts): one at a time.
import fs from 'node:fs/promises';
import { expect } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMIN, useOwner } from './admin.ts';
import { expectNoAxeViolations, hydrated, preparePage, test } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

const ownerOf = useOwner();
const stamp = Date.now().toString(36);
const TITLE = `Estuaire, tirage ${stamp}`;
const BUYER = `Inès Registre ${stamp}`;

test('the owner finds a sold number in the register and exports it as CSV', async ({
  page,
  browser,
  baseURL,
}) => {
  // A print of an edition of 5, with one artist's proof.
  const photo = await sharp({
    create: { width: 900, height: 700, channels: 3, background: '#4d6b7a' },
  })
    .jpeg()
    .toBuffer();
  const upload = await ownerOf().post('/api/admin/uploads', {
    headers: { 'content-type': 'image/jpeg' },
    data: photo,
  });
  expect(upload.status()).toBe(201);
  const created = await ownerOf().post('/api/admin/artworks', {
    data: {
      type: 'print',
      title: { fr: TITLE, en: TITLE },
      description: { fr: '', en: '' },
      technique: { fr: 'Tirage giclée', en: 'Giclée print' },
      category: 'peinture',
      collection: '',
      year: 2026,
      dimensions: '50 x 40 cm',
      priceCents: 18_000,
      stock: 5,
      editionSize: 5,
      editionEa: 1,
      isAvailable: true,
      isSold: false,
      originalId: null,
      imageSha256: ((await upload.json()) as { sha256: string }).sha256,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workId = ((await created.json()) as { artwork: { id: number } }).artwork.id;

  // A buyer pays on the payment page; the success page gives the copy's number.
  const buyer = await browser.newContext({ baseURL: baseURL! });
  const shop = await buyer.newPage();
  const shopErrors = await preparePage(shop);
  const headers = { Origin: baseURL! };
  const added = await shop.request.post('/api/cart', {
    data: { artworkId: workId, quantity: 1 },
    headers,
  });
  expect(added.status(), await added.text()).toBe(200);
  const checkout = await shop.request.post('/api/checkout', {
    headers,
    data: {
      locale: 'fr',
      items: [{ artworkId: workId, quantity: 1 }],
      customer: { name: BUYER, email: `ines-${stamp}@example.test` },
      shippingAddress: {
        street: '3 rue des Arts',
        city: 'Lyon',
        postalCode: '69001',
        country: 'FR',
      },
      billingSameAsShipping: true,
      acceptTerms: true,
    },
  });
  expect(checkout.status(), await checkout.text()).toBe(201);
  const { url } = (await checkout.json()) as { url: string };
  await shop.goto(url);
  await shop.locator('#card_number').fill('4242 4242 4242 4242');
  await shop.locator('#expiry').fill('12 / 34');
  await shop.locator('#cvc').fill('123');
  await shop.getByRole('button', { name: /^Payer / }).click();
  await expect(shop.getByRole('heading', { name: 'Paiement confirmé', level: 1 })).toBeVisible();
  await expect(shop.locator('[data-edition]')).toHaveText('Tirage n°\u00a01/5');
  expect(shopErrors).toEqual([]);
  await buyer.close();

  // The owner opens the register of that edition.
  const errors = await preparePage(page);
  await page.goto(`/admin/editions?id=${workId}`);
  await expect(page).toHaveURL(/\/admin\/login\?redirect=/);
  await page.getByLabel(/^Email/).fill(E2E_ADMIN.email);
  await page.getByLabel(/^Mot de passe/).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL((u) => u.pathname === '/admin/editions');
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Registre des tirages', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: TITLE, level: 2 })).toBeVisible();
  const sold = page.locator('[data-number="1/5"]');
  await expect(sold.getByRole('rowheader')).toHaveText('1/5');
  await expect(sold).toContainText('Vendu');
  await expect(sold).toContainText(BUYER);
  await expect(page.locator('[data-number="2/5"]')).toContainText('Libre');
  await expect(page.locator('[data-number="EA 1/1"]')).toContainText('Épreuve d’artiste (EA)');

  for (const size of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await expectNoAxeViolations(page);
  }

  // The CSV the owner keeps: the sold number with its buyer.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exporter en CSV' }).click();
  const file = await (await download).path();
  const csv = await fs.readFile(file, 'utf8');
  expect(csv.startsWith('\uFEFFŒuvre;Numéro;')).toBe(true);
  expect(csv).toContain(`${TITLE};1/5;Numéroté;Vendu;`);
  expect(csv).toContain(`;${BUYER};`);
  expect(csv).toContain(`${TITLE};EA 1/1;EA;`);
  expect(errors).toEqual([]);
});
