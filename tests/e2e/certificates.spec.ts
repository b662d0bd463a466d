// A certificate's public page as anyone sees it (issue 26, docs/decisions/046): a collector buys a
// numbered print through the real checkout; its certificate's page, in French at 1366 px and in
// English at 390 px, shows the work, the edition and "Valide", passes axe and names no buyer; the
// owner revokes it and the page says so at the next load; an unknown serial is the 404 page.
// In the `owner` project (playwright.config.ts): the works it adds and the sale stay in that shop.
import { devices, expect } from '@playwright/test';
import { renderComposition } from '../../api/media/compose.ts';
import type { OrderList } from '../../src/schemas/admin-orders.ts';
import type { AdminCertificate } from '../../src/schemas/certificates.ts';
import { useOwner } from './admin.ts';
import { expectNoAxeViolations, hydrated, preparePage, test } from './helpers.ts';
import { expectLooksRight } from './look.ts';

const ownerOf = useOwner();

const BUYER = { name: 'Bérénice Valcourt-Ishikawa', email: 'berenice.valcourt@example.org' };

test('a certificate’s public page: the work and its state, never the buyer, at 1366 and 390 px', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  // The owner adds a numbered print (edition of 12) with a photo.
  const photo = await renderComposition({
    seed: 'certificat-public',
    palette: ['#2f4858', '#e0b04a', '#f4f1ea', '#7a3b2e'],
    width: 800,
    height: 1000,
  });
  const upload = await ownerOf().post('/api/admin/uploads', {
    headers: { 'content-type': 'image/jpeg' },
    data: photo,
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const imageSha256 = ((await upload.json()) as { sha256: string }).sha256;
  const created = await ownerOf().post('/api/admin/artworks', {
    data: {
      title: { fr: 'Rivage aux cormorans', en: 'Shore with Cormorants' },
      description: { fr: '', en: '' },
      category: 'peinture',
      collection: '',
      year: 2025,
      isAvailable: true,
      isSold: false,
      type: 'print',
      technique: { fr: 'Tirage pigmentaire sur papier coton', en: 'Pigment print on cotton paper' },
      dimensions: '40 x 50 cm',
      priceCents: 15_000,
      stock: 12,
      editionSize: 12,
      originalId: null,
      imageSha256,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const artworkId = ((await created.json()) as { artwork: { id: number } }).artwork.id;

  // The collector buys it: cart, checkout, emulator.
  const context = await browser.newContext({
    baseURL: baseURL!,
    userAgent: devices['Desktop Chrome'].userAgent,
  });
  const buyer = await context.newPage();
  const errors = await preparePage(buyer);
  const added = await buyer.request.post('/api/cart', {
    data: { artworkId, quantity: 1 },
    headers: { Origin: baseURL! },
  });
  expect(added.ok(), await added.text()).toBe(true);
  await buyer.goto('/panier');
  await hydrated(buyer);
  await buyer.getByRole('link', { name: 'Passer la commande' }).click();
  await hydrated(buyer);
  await buyer.getByRole('textbox', { name: 'Nom complet' }).fill(BUYER.name);
  await buyer.getByRole('textbox', { name: 'Email', exact: true }).fill(BUYER.email);
  await buyer.getByRole('textbox', { name: 'Téléphone' }).fill('+33 6 98 76 54 32');
  await buyer.getByRole('textbox', { name: 'Adresse', exact: true }).fill('8 impasse des Lilas');
  await buyer.getByRole('textbox', { name: 'Code postal' }).fill('69004');
  await buyer.getByRole('textbox', { name: 'Ville' }).fill('Lyon');
  await buyer.getByRole('combobox', { name: 'Pays' }).selectOption('FR');
  await buyer.getByRole('checkbox', { name: /conditions générales de vente/ }).check();
  await buyer.getByRole('button', { name: /^Commander avec obligation de paiement · / }).click();
  await expect(buyer).toHaveURL(/\/emulator\/checkout\/cs_/);
  const sessionId = /\/emulator\/checkout\/(cs_[A-Za-z0-9_]+)/.exec(buyer.url())![1]!;
  await buyer.locator('#card_number').fill('4242 4242 4242 4242');
  await buyer.locator('#expiry').fill('12 / 34');
  await buyer.locator('#cvc').fill('123');
  await buyer.getByRole('button', { name: /^Payer / }).click();
  await expect(buyer.getByText('Payé', { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();

  const found = await ownerOf().get(`/api/admin/orders?q=${encodeURIComponent(sessionId)}`);
  const { orders } = (await found.json()) as OrderList;
  expect(orders).toHaveLength(1);
  const listed = await ownerOf().get(`/api/admin/certificates?order=${orders[0]!.id}`);
  expect(listed.status()).toBe(200);
  const [certificate] = ((await listed.json()) as { certificates: AdminCertificate[] })
    .certificates;
  expect(certificate).toMatchObject({ label: '1/12', state: 'valid' });
  const serial = certificate!.serial;

  // Anyone: the French page at 1366 px.
  const pageErrors = await preparePage(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  const response = await page.goto(`/certificat/${serial}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Rivage aux cormorans' })).toBeVisible();
  await expect(page.getByText('Tirage d’art, exemplaire n° 1/12')).toBeVisible();
  await expect(page.getByText(/^État\s:\sValide$/)).toBeVisible();
  await expect(page.locator('pre')).toHaveText(/^-----BEGIN PUBLIC KEY-----\n/);
  const text = await page.locator('body').innerText();
  for (const secret of [BUYER.name, BUYER.email, 'Valcourt', '69004', 'impasse', orders[0]!.number])
    expect(text).not.toContain(secret);
  await expectLooksRight(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath('certificate-fr-1366.png'), fullPage: true });

  // The owner revokes it: the English page at 390 px says so at once.
  const revoked = await ownerOf().post(`/api/admin/certificates/${serial}/revoke`, {
    data: { reason: 'Tirage défectueux remplacé' },
  });
  expect(revoked.status(), await revoked.text()).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/en/certificate/${serial}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Shore with Cormorants' }),
  ).toBeVisible();
  await expect(page.getByText('State: Revoked')).toBeVisible();
  await expect(page.getByText(/was revoked on .*: it is no longer valid/)).toBeVisible();
  await expectLooksRight(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath('certificate-en-390.png'), fullPage: true });
  // The published key, as the verify command fetches it.
  const published = await page.request.get('/.well-known/galerie-certificates.json');
  expect(published.status()).toBe(200);
  expect(await published.json()).toMatchObject({ algorithm: 'Ed25519', keys: [{ active: true }] });

  // A serial nobody was given: the 404 page.
  const unknown = await page.goto('/certificat/GAL-AAAAAAAAAAAAAAAAAAAA');
  expect(unknown?.status()).toBe(404);
  expect(pageErrors.filter((e) => !e.includes('404'))).toEqual([]);
});
