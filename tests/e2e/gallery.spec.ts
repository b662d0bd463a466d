// What a collector notices in the gallery (issue 9): print cards tell the print's own facts and
// say 'Épuisé' when none is left; adding to the cart shows the line added and a way to the cart;
// an original bought a moment ago shows sold in the same browser at once; the zoom view loads
// its larger image only when asked and works by keyboard. Works used here and nowhere else:
//   les-heures-bleues (original, bought) · rouille-et-azur (print, added, never bought) ·
//   jardin-nocturne (print, stock 0) · lumiere-du-tage (looked at only).
import { expect } from '@playwright/test';
import { expectNoAxeViolations, hydrated, openQuickView, preparePage, test } from './helpers.ts';

const PAYING_CARD = '4242 4242 4242 4242';

test('print cards show the print’s dimensions, and Épuisé when none is left', async ({ page }) => {
  await preparePage(page);
  await page.goto('/gallery');
  await page.getByRole('tab', { name: 'COPIES' }).click();
  const prints = page.locator('#panel-print');
  const lumiere = prints.locator('li', { has: page.locator('[data-open-work="lumiere-du-tage"]') });
  await expect(lumiere).toContainText('100 x 80 cm');
  await expect(lumiere).not.toContainText('120 x 100');
  const jardin = prints.locator('li', { has: page.locator('[data-open-work="jardin-nocturne"]') });
  await expect(jardin.locator('[data-card-price]')).toHaveText('Épuisé');
  await expect(jardin).not.toContainText('€');
  // The originals keep the original's facts.
  const original = page
    .locator('#panel-original li', { has: page.locator('[data-open-work="lumiere-du-tage"]') })
    .first();
  await page.getByRole('tab', { name: 'ORIGINALES' }).click();
  await expect(original).toContainText('120 x 100 cm');

  await page.goto('/en/gallery');
  await page.getByRole('tab', { name: 'PRINTS' }).click();
  await expect(
    page.locator('#panel-print [data-open-work="jardin-nocturne"] [data-card-price]'),
  ).toHaveText('Out of stock');
});

test('adding to the cart shows the line added, the count and the way to the cart', async ({
  page,
}) => {
  const errors = await preparePage(page);
  const dialog = await openQuickView(page, 'rouille-et-azur');
  const block = dialog.locator('[data-variant-block][data-type="print"]');
  await block.getByRole('button', { name: 'Ajouter au panier' }).click();
  const confirmation = block.getByRole('status');
  await expect(confirmation).toContainText('Ajouté au panier');
  await expect(confirmation).toContainText('Rouille et azur — Tirage d’art — 350 €');
  // The overlay covers the header's badge: it shows the count itself.
  await expect(dialog.locator('[data-cart-count]')).toHaveText('1');
  await expectNoAxeViolations(page);

  // 'Continuer mes achats' closes the overlay and leaves the gallery as it was.
  await confirmation.getByRole('button', { name: 'Continuer mes achats' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/gallery$/);
  await expect(page.locator('[data-cart-badge]')).toHaveText('1');

  await openQuickView(page, 'rouille-et-azur');
  await block.getByRole('button', { name: 'Ajouter au panier' }).click();
  await confirmation.getByRole('link', { name: 'Voir le panier (2)' }).click();
  await expect(page).toHaveURL(/\/panier$/);
  await hydrated(page);
  await expect(page.getByRole('heading', { name: '2 articles dans votre panier' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('an original bought a moment ago shows sold in the same browser, without a reload', async ({
  page,
}) => {
  const errors = await preparePage(page);
  // The gallery is open before the purchase, as it would be in another tab.
  await page.goto('/gallery');
  const card = page.locator('#panel-original [data-open-work="les-heures-bleues"]');
  await expect(card.locator('[data-card-price]')).toHaveText(/19\s800\s€/);

  const quickView = await openQuickView(page, 'les-heures-bleues');
  await quickView
    .locator('[data-variant-block][data-type="original"]')
    .getByRole('button', { name: 'Ajouter au panier' })
    .click();
  await page.getByRole('link', { name: 'Voir le panier (1)' }).click();
  await hydrated(page);
  await page.getByRole('link', { name: 'Passer la commande' }).click();
  await hydrated(page);
  await page.getByRole('textbox', { name: 'Nom complet' }).fill('Inês Costa');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ines@example.org');
  await page.getByRole('textbox', { name: 'Adresse', exact: true }).fill('Rua da Prata 8');
  await page.getByRole('textbox', { name: 'Code postal' }).fill('1100-419');
  await page.getByRole('textbox', { name: 'Ville' }).fill('Lisboa');
  await page.getByRole('combobox', { name: 'Pays' }).selectOption('PT');
  await page.getByRole('checkbox', { name: /conditions générales de vente/ }).check();
  await page.getByRole('button', { name: /^Commander avec obligation de paiement/ }).click();
  await expect(page).toHaveURL(/\/emulator\/checkout\/cs_/);
  await page.locator('#card_number').fill(PAYING_CARD);
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: /^Payer / }).click();
  await expect(page).toHaveURL(/\/success\?session_id=/);
  await expect(page.getByRole('heading', { name: 'Paiement confirmé' })).toBeVisible();

  // Straight back to the gallery (the browser may reuse what it fetched before the purchase).
  await page.goto('/gallery');
  await expect(card.locator('[data-card-price]')).toHaveText('Vendue');
  await card.click();
  const original = page.getByRole('dialog').locator('[data-variant-block][data-type="original"]');
  await expect(original.getByText('Cette œuvre originale a été vendue.')).toBeVisible();
  await expect(original.getByRole('button', { name: 'Ajouter au panier' })).toBeHidden();
  expect(errors).toEqual([]);
});

test('availability is asked again on every look, cheaply', async ({ request }) => {
  // The other storefront specs buy and hold works in this shop meanwhile: when the answer changed
  // between the two requests, the second is a whole new answer with a new tag, and the question
  // is asked again. An unchanged answer is never sent twice.
  await expect
    .poll(async () => {
      const first = await request.get('/api/availability');
      expect(first.headers()['cache-control']).toBe('public, no-cache');
      const etag = first.headers()['etag'];
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      const again = await request.get('/api/availability', { headers: { 'If-None-Match': etag! } });
      if (again.status() === 304) return 304;
      expect(again.status()).toBe(200);
      expect(again.headers()['etag']).not.toBe(etag);
      return 200;
    })
    .toBe(304);
});

test('the zoom view loads its larger image only when opened, and works by keyboard', async ({
  page,
}) => {
  const errors = await preparePage(page);
  const large: string[] = [];
  page.on('request', (request) => {
    // The zoom's image is the master at its own size (issue 25): never fetched before it opens.
    if (/\/media\/[0-9a-f]{64}\/full\.webp$/.test(request.url())) large.push(request.url());
  });
  const zoomButton = (await openQuickView(page, 'lumiere-du-tage')).getByRole('button', {
    name: 'Agrandir l’œuvre',
  });
  await expect(zoomButton).toBeVisible();
  expect(large).toEqual([]);

  await zoomButton.click();
  const viewer = page.getByRole('dialog', { name: 'Lumière du Tage, vue agrandie' });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('img', { name: /Lumière du Tage/ })).toBeVisible();
  expect(large).toHaveLength(1);
  const stage = viewer.locator('[data-zoom-stage]');
  await expect(stage).toHaveAttribute('data-scale', '1.00');
  // The largest scale shows the master pixel for pixel (1 200 px here): zooming stops there.
  const max = Number(await stage.getAttribute('data-max-scale'));
  expect(max).toBeGreaterThan(1.5);
  const capped = (scale: number) => Math.min(scale, max).toFixed(2);
  await page.keyboard.press('+');
  await expect(stage).toHaveAttribute('data-scale', '1.50');
  await page.keyboard.press('ArrowRight');
  await viewer.getByRole('button', { name: 'Zoomer', exact: true }).click();
  await expect(stage).toHaveAttribute('data-scale', capped(2.25));
  await page.keyboard.press('0');
  await expect(stage).toHaveAttribute('data-scale', '1.00');
  // A double click zooms in where it points, and back.
  await stage.dblclick();
  await expect(stage).toHaveAttribute('data-scale', capped(2.5));
  await expectNoAxeViolations(page);

  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(zoomButton).toBeFocused();
  // The work's overlay is still open underneath.
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(errors).toEqual([]);
});
