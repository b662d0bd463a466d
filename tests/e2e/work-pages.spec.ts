// A work's own page and the gallery's quick view (issue 25): a card opens the overlay at the
// work's address and closing it gives the gallery back (Back and Forward too); a direct load, or
// no JavaScript, shows the page itself; old `?work=` links answer 301; the language switch keeps
// the work; the page adds to the cart and follows live availability. Works used here: seuil and
// vent-d-alentejo (looked at, the latter's print added to a cart, never bought), le-grand-large
// and lumiere-du-tage (looked at only).
import { expect } from '@playwright/test';
import { expectNoAxeViolations, openQuickView, preparePage, test, watchCsp } from './helpers.ts';

test('a card opens the quick view at the work’s address; Back, Forward and close keep the gallery', async ({
  page,
}) => {
  const errors = await preparePage(page);
  await page.goto('/gallery');
  const card = page.locator('#panel-original [data-open-work="le-grand-large"]');
  await card.click();
  const overlay = page.getByRole('dialog', { name: 'Le grand large' });
  await expect(overlay).toBeVisible();
  await expect(page).toHaveURL(/\/oeuvres\/le-grand-large$/);
  // The quick view is light: no enquiry, no scale view, and a way to the full page.
  await expect(overlay.getByRole('link', { name: 'Voir la fiche de l’œuvre' })).toHaveAttribute(
    'href',
    '/oeuvres/le-grand-large',
  );
  await expect(overlay.locator('[data-artist]')).toContainText('Sasha Kovač');
  await expectNoAxeViolations(page);

  // Back closes it and shows the gallery's address; Forward opens it again.
  await page.goBack();
  await expect(overlay).toBeHidden();
  await expect(page).toHaveURL(/\/gallery$/);
  await expect(page.locator('html')).not.toHaveClass(/scroll-locked/);
  await page.goForward();
  await expect(overlay).toBeVisible();
  await expect(page).toHaveURL(/\/oeuvres\/le-grand-large$/);

  // Closing gives the gallery's address and the focus back to the card, leaving no extra entry.
  await overlay.getByRole('button', { name: 'Fermer' }).click();
  await expect(overlay).toBeHidden();
  await expect(page).toHaveURL(/\/gallery$/);
  await expect(card).toBeFocused();
  await page.goBack();
  await expect(page).not.toHaveURL(/\/oeuvres\//);
  expect(errors).toEqual([]);
});

test('the quick view’s link and a direct load show the work’s own page', async ({ page }) => {
  const errors = await preparePage(page);
  const overlay = await openQuickView(page, 'seuil');
  await overlay.getByRole('link', { name: 'Voir la fiche de l’œuvre' }).click();
  await expect(page).toHaveURL(/\/oeuvres\/seuil$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seuil');

  await page.goto('/en/works/le-grand-large');
  await expect(page).toHaveTitle(/^Open Sea, 2023 · /);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Open Sea');
  await expect(page.locator('article#le-grand-large')).toContainText(/114 x 146 cm.*· 2023/);
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('link', { name: 'Gallery' })).toHaveAttribute(
    'href',
    '/en/gallery',
  );
  // True proportions on the page: the landscape is drawn wider than tall.
  const box = await page.locator('article#le-grand-large img').first().boundingBox();
  expect(box!.width).toBeGreaterThan(box!.height * 1.2);
  await expectNoAxeViolations(page);
  await breadcrumb.getByRole('link', { name: 'Gallery' }).click();
  await expect(page).toHaveURL(/\/en\/gallery$/);
  expect(errors).toEqual([]);
});

test('without JavaScript a work’s page shows the whole work', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/oeuvres/vent-d-alentejo');
  const article = page.locator('article#vent-d-alentejo');
  await expect(article.getByRole('heading', { level: 1 })).toHaveText("Vent d'Alentejo");
  await expect(article.locator('img').first()).toBeVisible();
  await expect(article).toContainText('200 x 150 cm');
  await expect(article.locator('[data-type="original"]')).toContainText(/34\s000\s€/);
  await expect(article.locator('[data-type="print"]')).toContainText('Tirage d’art');
  // JavaScript-only controls stay out of a page that cannot run them.
  await expect(article.locator('[data-zoom]').first()).toBeAttached();
  await expect(article.locator('[data-zoom]').first()).toBeHidden();
  await context.close();
});

test('old overlay links answer 301 to the work’s page; an unknown work shows the gallery', async ({
  request,
}) => {
  for (const [from, to] of [
    ['/gallery?work=seuil', '/oeuvres/seuil'],
    ['/en/gallery?work=seuil', '/en/works/seuil'],
    ['/en/oeuvres/seuil', '/en/works/seuil'],
  ]) {
    const response = await request.get(from!, { maxRedirects: 0 });
    expect(response.status(), from).toBe(301);
    expect(response.headers()['location'], from).toBe(to);
  }
  const unknown = await request.get('/gallery?work=nulle-part', { maxRedirects: 0 });
  expect(unknown.status()).toBe(200);
  expect(await unknown.text()).toContain('data-gallery');
});

test('the language switch keeps the work', async ({ page }) => {
  const errors = await preparePage(page);
  await page.goto('/oeuvres/seuil');
  await page.locator('[data-lang-switch="en"]').click();
  await expect(page).toHaveURL(/\/en\/works\/seuil$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Threshold');
  await page.locator('[data-lang-switch="fr"]').click();
  await expect(page).toHaveURL(/\/oeuvres\/seuil$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seuil');
  expect(errors).toEqual([]);
});

test('a work’s page adds to the cart and follows live availability', async ({ page }) => {
  const errors = await preparePage(page);
  await page.goto('/oeuvres/vent-d-alentejo');
  const print = page.locator('[data-variant-block][data-type="print"]');
  await print.getByRole('button', { name: 'Ajouter au panier' }).click();
  const confirmation = print.getByRole('status');
  await expect(confirmation).toContainText('Ajouté au panier');
  await expect(confirmation).toContainText("Vent d'Alentejo — Tirage d’art");
  await expect(page.locator('[data-cart-badge]')).toHaveText('1');
  await confirmation.getByRole('link', { name: 'Voir le panier (1)' }).click();
  await expect(page).toHaveURL(/\/panier$/);
  await expect(page.getByRole('heading', { name: "Vent d'Alentejo" })).toBeVisible();

  // The original sold and the print gone since the build: the page says so without a rebuild.
  await page.route('**/api/availability', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as {
      works: { id: number; isSold: boolean; stock: number }[];
    };
    body.works = body.works.map((w) => ({ ...w, isSold: true, stock: 0 }));
    await route.fulfill({ response, json: body });
  });
  await page.goto('/en/works/lumiere-du-tage');
  const original = page.locator('[data-variant-block][data-type="original"]');
  await expect(original.getByText('This original has been sold.')).toBeVisible();
  await expect(original.getByRole('button', { name: 'Add to cart' })).toBeHidden();
  await expect(
    page.locator('[data-variant-block][data-type="print"]').getByRole('button'),
  ).toHaveText('Out of stock');
  expect(errors).toEqual([]);
});

test('on a first visit the fonts come after the page is loaded; on the next page at once', async ({
  browser,
  baseURL,
}) => {
  // A context of its own, without the suite's fontsAtOnce: a visitor's first page.
  const context = await browser.newContext({ baseURL: baseURL! });
  const violations = await watchCsp(context);
  await context.addInitScript(() => {
    // How many of the web faces (not the fallbacks' local ones) the page had declared when its
    // HTML was parsed.
    document.addEventListener('DOMContentLoaded', () => {
      const web = [...document.fonts].filter((face) => !/fallback/.test(face.family));
      document.documentElement.setAttribute('data-faces-at-parse', String(web.length));
    });
  });
  const page = await context.newPage();
  await page.goto('/oeuvres/lumiere-du-tage');
  await expect(page.locator('html')).toHaveClass(/fonts-ready/);
  await expect(page.locator('html')).toHaveAttribute('data-faces-at-parse', '0');
  const first = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType(
      'navigation',
    ) as PerformanceNavigationTiming[];
    const fonts = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.woff2'));
    return {
      loadEnd: navigation!.loadEventEnd,
      fontStarts: fonts.map((entry) => entry.startTime),
      loaded: [
        document.fonts.check('16px "Instrument Sans"'),
        document.fonts.check('16px Newsreader'),
      ],
    };
  });
  // The three files (headings, text, the text's Latin Extended-A letters), all after `load`.
  expect(first.fontStarts).toHaveLength(3);
  for (const start of first.fontStarts) expect(start).toBeGreaterThanOrEqual(first.loadEnd);
  expect(first.loaded).toEqual([true, true]);
  // The real faces are named first by the page's styles, with their metric-matched fallbacks.
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(
    /^"Instrument Sans", "Instrument Sans fallback"/,
  );
  await expect(page.locator('h1')).toHaveCSS('font-family', /^Newsreader, "Newsreader fallback"/);

  // The next page of the same visit declares them before it is parsed (they are in the cache).
  await page.goto('/gallery');
  await expect(page.locator('html')).toHaveAttribute('data-faces-at-parse', '3');
  await expect(page.locator('html')).toHaveClass(/fonts-ready/);
  expect(violations).toEqual([]);
  await context.close();
});
