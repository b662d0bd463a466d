// The register of editions in the browser (issue 26, docs/decisions/045): the owner adds a print
// of an edition of 5 with an artist's proof, a buyer pays for a copy on the payment page and reads
// its number on the success page, then the owner opens « Registre des tirages », sees number 1/5
// sold to that buyer, the free numbers and the EA, and downloads the register as CSV. The order
// is then cancelled without putting the work back on sale: on a phone the register is a list
// with the returned number's actions in view, 'Retirer' asks in the kit's dialog, and the number
// is put back on sale, then retired (issue 27). Axe (WCAG 2.2 AA) and the computed-style checks
// at 1366 and 390 px, screenshots for a person to look at. In the owner's project
// (playwright.config.ts): one at a time.
import fs from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import type { EditionRegister } from '../../src/schemas/admin-editions.ts';
import { E2E_ADMIN, useOwner, uploadedPhoto } from './admin.ts';
import { expectNoAxeViolations, hydrated, preparePage, test } from './helpers.ts';
import { expectLooksRight, settle } from './look.ts';

test.describe.configure({ mode: 'serial' });

const ownerOf = useOwner();
const stamp = Date.now().toString(36);
const TITLE = `Estuaire, tirage ${stamp}`;
const BUYER = `Inès Registre ${stamp}`;

/** Nothing on the page is wider than the window: no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    content: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.content).toBeLessThanOrEqual(widths.window);
}

test('the owner finds a sold number in the register and exports it as CSV', async ({
  page,
  browser,
  baseURL,
}) => {
  // A print of an edition of 5, with one artist's proof.
  const photo = await uploadedPhoto(ownerOf(), '#4d6b7a');
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
      imageSha256: photo,
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
  // The selector tells prints of one title apart: year, technique, size (issue 27 §6).
  await expect(page.getByRole('combobox', { name: 'Œuvre' })).toContainText(
    `${TITLE} (2026, Tirage giclée, 50 x 40 cm) — vendus : 1 sur 5`,
  );
  // A count of 0 is not an alarm: the 'Retournés : 0' chip is as plain as the page.
  const returnedCount = page.locator('[data-count="returned"]');
  await expect(returnedCount).toHaveText('Retournés : 0');
  await expect(returnedCount).toHaveCSS('background-color', 'rgb(255, 255, 255)');

  for (const size of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await settle(page);
    await expectNoAxeViolations(page);
    await expectLooksRight(page);
    await expectNoSidewaysScroll(page);
    if (size.width > 1000) {
      // The selector shows its longest option whole (text, side padding and the arrow's room).
      const room = await page.getByRole('combobox', { name: 'Œuvre' }).evaluate((select) => {
        const style = getComputedStyle(select);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = style.font;
        const longest = Math.max(
          ...[...(select as HTMLSelectElement).options].map((o) => ctx.measureText(o.text).width),
        );
        const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
        return select.getBoundingClientRect().width - padding - 16 - longest;
      });
      expect(room, 'the longest option fits the selector').toBeGreaterThanOrEqual(0);
    }
    await page.screenshot({
      path: test.info().outputPath(`editions-${size.width}.png`),
      fullPage: true,
    });
  }
  // On a phone the register is a list.
  await expect(page.locator('[data-entry="1/5"]')).toContainText(BUYER);
  await expect(page.locator('main table')).toBeHidden();
  await page.setViewportSize({ width: 1366, height: 900 });

  // The CSV the owner keeps: the sold number with its buyer.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exporter en CSV' }).click();
  const file = await (await download).path();
  const csv = await fs.readFile(file, 'utf8');
  expect(csv.startsWith('\uFEFFŒuvre;Numéro;')).toBe(true);
  expect(csv).toContain(`${TITLE};1/5;Numéroté;Vendu;`);
  expect(csv).toContain(`;${BUYER};`);
  expect(csv).toContain(`${TITLE};EA 1/1;EA;`);

  // The order is cancelled, the work not put back on sale: number 1 waits for the owner.
  const register = (await (await ownerOf().get(`/api/admin/editions/${workId}`)).json()) as {
    register: EditionRegister;
  };
  const orderId = register.register.entries.find((e) => e.label === '1/5')!.orderId!;
  const cancelled = await ownerOf().patch(`/api/admin/orders/${orderId}`, {
    data: { status: 'cancelled', refund: false, restock: false },
  });
  expect(cancelled.status(), await cancelled.text()).toBe(200);

  // On a phone: the returned number's actions are in view, not off to the right.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await hydrated(page);
  const returned = page.locator('[data-entry="1/5"]');
  await expect(returned).toContainText('Retourné');
  await expect(page.locator('[data-count="returned"]')).toHaveText('Retournés : 1');
  const release = returned.getByRole('button', { name: 'Remettre en vente le numéro 1/5' });
  const retire = returned.getByRole('button', { name: 'Retirer le numéro 1/5' });
  for (const button of [release, retire]) {
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await expectLooksRight(page);
  await returned.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('editions-returned-390.png') });

  // 'Retirer' asks first, in the kit's dialog; 'Annuler' changes nothing.
  await retire.click();
  const confirm = page.getByRole('dialog', { name: 'Retirer le numéro 1/5 du tirage ?' });
  await expect(confirm).toContainText('Il ne sera plus jamais vendu');
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('editions-retire-390.png') });
  await confirm.getByRole('button', { name: 'Annuler' }).click();
  await expect(confirm).toBeHidden();
  await expect(retire).toBeFocused();
  await expect(returned).toContainText('Retourné');

  // Put back on sale, then retired after all.
  await release.click();
  await expect(page.locator('main').getByRole('status')).toHaveText(
    'Le numéro 1/5 est remis en vente : la prochaine vente le prendra.',
  );
  await expect(returned).toContainText('Libre');
  await returned.getByRole('button', { name: 'Retirer le numéro 1/5' }).click();
  await confirm.getByRole('button', { name: 'Retirer' }).click();
  await expect(page.locator('main').getByRole('status')).toHaveText(
    'Le numéro 1/5 est retiré du tirage.',
  );
  await expect(returned).toContainText('Retiré');
  await expect(returned.getByRole('button')).toHaveCount(0);
  await expect(page.locator('[data-count="retired"]')).toHaveText('Retirés : 1');
  expect(errors).toEqual([]);
});
