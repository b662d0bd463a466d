// Issue 3: every public page and alias in both languages, the gallery (tabs, overlay, live
// availability) and the shared chrome, used with the keyboard alone, and axe on every page.
import { expect, type Page } from '@playwright/test';
import pg from 'pg';
import { expectNoAxeViolations, openQuickView, test } from './helpers.ts';
import { databaseName } from './shops.ts';

const PAGES = ['/', '/gallery', '/about', '/contact', '/privacy', '/terms'];
const localized = (locale: 'fr' | 'en', path: string) =>
  locale === 'fr' ? path : path === '/' ? '/en/' : `/en${path}`;

/** Axe's default rules on every page of this spec (the tagged set: visual.spec and the others). */
const axeDefaults = (page: Page) => expectNoAxeViolations(page, { tags: null });

// Keeps the cookie banner out of the way unless a test is about it.
async function consentGiven(page: Page) {
  await page.addInitScript(() =>
    localStorage.setItem(
      'cookie-consent',
      JSON.stringify({ accepted: false, timestamp: 'x', version: '1.0' }),
    ),
  );
}

for (const locale of ['fr', 'en'] as const) {
  for (const path of PAGES) {
    const url = localized(locale, path);
    test(`${url} answers with its language, canonical, alternates, title and description, and no axe violation`, async ({
      page,
      baseURL,
    }) => {
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        `${baseURL}${url}`,
      );
      await expect(page.locator('link[hreflang="fr"]')).toHaveAttribute(
        'href',
        `${baseURL}${localized('fr', path)}`,
      );
      await expect(page.locator('link[hreflang="en"]')).toHaveAttribute(
        'href',
        `${baseURL}${localized('en', path)}`,
      );
      await expect(page.locator('link[hreflang="x-default"]')).toHaveAttribute(
        'href',
        `${baseURL}${localized('fr', path)}`,
      );
      await expect(page).toHaveTitle(/\S/);
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(
        /^.{40,}$/,
      );
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await axeDefaults(page);
    });
  }
}

test('the spec’s aliases answer 301 to their page, keeping the query', async ({ request }) => {
  for (const [from, to] of [
    ['/accueil', '/'],
    ['/atelier', '/'],
    ['/oeuvres?work=seuil', '/gallery?work=seuil'],
    ['/artiste', '/about'],
    ['/demarche', '/about'],
    ['/correspondances', '/contact'],
    ['/en/accueil', '/en/'],
    ['/en/oeuvres?work=seuil', '/en/gallery?work=seuil'],
    ['/en/artiste', '/en/about'],
    ['/en/demarche', '/en/about'],
    ['/en/correspondances', '/en/contact'],
  ]) {
    const res = await request.get(from!, { maxRedirects: 0 });
    expect(res.status(), from).toBe(301);
    expect(res.headers()['location'], from).toBe(to);
  }
});

test('sitemap and robots list both languages', async ({ request, baseURL }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  for (const path of PAGES) {
    expect(sitemap).toContain(`<loc>${baseURL}${localized('fr', path)}</loc>`);
    expect(sitemap).toContain(`<loc>${baseURL}${localized('en', path)}</loc>`);
  }
  expect(sitemap).toContain('hreflang="x-default"');
  expect(await (await request.get('/robots.txt')).text()).toContain(
    `Sitemap: ${baseURL}/sitemap.xml`,
  );
});

test('the gallery carries JSON-LD for the artist and lists every work’s page; each page has its offers', async ({
  page,
}) => {
  await page.goto('/gallery');
  const data = (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
    (text) =>
      JSON.parse(text) as {
        '@type': string | string[];
        itemListElement?: { url: string; name: string }[];
        offers?: { price: string; priceCurrency: string; availability: string }[];
      },
  );
  expect(data.filter((d) => d['@type'] === 'Person')).toHaveLength(1);
  const list = data.find((d) => d['@type'] === 'ItemList');
  // One entry per work (an original and its print share a page): one per distinct card key.
  const keys = new Set(
    await page
      .locator('[data-open-work]')
      .evaluateAll((links) => links.map((link) => (link as HTMLElement).dataset['openWork'])),
  );
  expect(keys.size).toBeGreaterThan(10);
  expect(list?.itemListElement).toHaveLength(keys.size);
  expect(list?.itemListElement?.every((item) => /\/oeuvres\/[a-z0-9-]+$/.test(item.url))).toBe(
    true,
  );
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
    'content',
    /\/media\/[0-9a-f]{64}\/1200\.webp$/,
  );
  // A sold original's page keeps its offer, sold out (every page is checked by
  // tests/integration/work-pages.test.ts).
  await page.goto('/oeuvres/sel-et-cendre');
  const work = (await page.locator('script[type="application/ld+json"]').allTextContents())
    .map((text) => JSON.parse(text) as { '@type': string | string[]; offers?: unknown })
    .find((d) => [d['@type']].flat().includes('VisualArtwork'));
  expect(JSON.stringify(work?.offers)).toContain('https://schema.org/SoldOut');
  expect(JSON.stringify(work?.offers)).toContain('"priceCurrency":"EUR"');
});

test.describe('gallery', () => {
  test.beforeEach(async ({ page }) => consentGiven(page));

  test('tabs default to originals and work with the arrow keys', async ({ page }) => {
    await page.goto('/gallery');
    const originals = page.getByRole('tab', { name: 'ORIGINALES' });
    const prints = page.getByRole('tab', { name: 'COPIES' });
    await expect(originals).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('#panel-original')).toBeVisible();
    await expect(page.locator('#panel-print')).toBeHidden();
    await originals.focus();
    await page.keyboard.press('ArrowRight');
    await expect(prints).toBeFocused();
    await expect(prints).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('#panel-print')).toBeVisible();
    await expect(page.locator('#panel-original')).toBeHidden();
    await page.keyboard.press('Home');
    await expect(originals).toHaveAttribute('aria-selected', 'true');
  });

  test('a card opens the quick view at the work’s URL; Escape gives the gallery back', async ({
    page,
  }) => {
    await page.goto('/gallery');
    const card = page.locator('#panel-original [data-open-work="lumiere-du-tage"]');
    await card.focus();
    await page.keyboard.press('Enter');
    const overlay = page.getByRole('dialog', { name: 'Lumière du Tage' });
    await expect(overlay).toBeVisible();
    await expect(page).toHaveURL(/\/oeuvres\/lumiere-du-tage$/);
    await expect(overlay.getByRole('link', { name: 'Voir la fiche de l’œuvre' })).toHaveAttribute(
      'href',
      '/oeuvres/lumiere-du-tage',
    );
    await expect(overlay.getByText('Œuvre originale', { exact: true })).toBeVisible();
    await expect(overlay.getByText('Tirage d’art', { exact: true })).toBeVisible();
    await expect(overlay.getByRole('button', { name: 'Ajouter au panier' })).toHaveCount(2);
    await expect(page.locator('html')).toHaveClass(/scroll-locked/);
    await axeDefaults(page);

    // Focus stays inside the overlay.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog[open]'))).toBe(
        true,
      );
    }
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();
    await expect(card).toBeFocused();
    await expect(page).toHaveURL(/\/gallery$/);
    await expect(page.locator('html')).not.toHaveClass(/scroll-locked/);
  });

  test('a shared ?work= link lands on the work’s page; the quick view’s close button closes it', async ({
    page,
  }) => {
    await page.goto('/en/gallery?work=seuil');
    await expect(page).toHaveURL(/\/en\/works\/seuil$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Threshold' })).toBeVisible();
    const overlay = await openQuickView(page, 'seuil', 'en');
    await expect(overlay).toHaveAccessibleName('Threshold');
    await overlay.getByRole('button', { name: 'Close' }).click();
    await expect(overlay).toBeHidden();
    await expect(page).toHaveURL(/\/en\/gallery$/);
  });

  test('sold originals, empty and low print stock show as the spec says', async ({ page }) => {
    const overlay = await openQuickView(page, 'sel-et-cendre');
    await expect(overlay).toHaveAccessibleName('Sel et cendre');
    await expect(overlay.getByText('Cette œuvre originale a été vendue.')).toBeVisible();
    await expect(overlay.getByText('Plus que 2 en stock')).toBeVisible();
    await page.keyboard.press('Escape');
    // Closing goes back in the history: a navigation started before it lands would be aborted.
    await expect(overlay).toBeHidden();
    await expect(page).toHaveURL(/\/gallery$/);
    // The sold original's own page stays, marked sold.
    await page.goto('/oeuvres/sel-et-cendre');
    await expect(page.getByText('Cette œuvre originale a été vendue.')).toBeVisible();
    await expect(page.getByText('Plus que 2 en stock')).toBeVisible();
    await expect(
      page.locator('[data-type="original"]').getByRole('button', { name: 'Ajouter au panier' }),
    ).toBeHidden();
    const jardin = await openQuickView(page, 'jardin-nocturne', 'en');
    await expect(jardin.getByRole('button', { name: 'Out of stock' })).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(page.locator('#panel-original [data-open-work="sel-et-cendre"]')).toContainText(
      'Sold',
    );
  });

  test('a work sold since the build shows as sold without a rebuild', async ({ page }) => {
    const slug = 'lumiere-du-tage-original';
    const url = process.env['DATABASE_URL'];
    let restore: (() => Promise<void>) | undefined;
    if (url) {
      // Real database change on the e2e server's own PostgreSQL database.
      const target = new URL(url);
      target.pathname = `/${databaseName()}`;
      const client = new pg.Client({ connectionString: target.toString() });
      await client.connect();
      await client.query(`UPDATE artworks SET is_sold = true, stock = 0 WHERE slug = $1`, [slug]);
      restore = async () => {
        await client.query(`UPDATE artworks SET is_sold = false, stock = 1 WHERE slug = $1`, [
          slug,
        ]);
        await client.end();
      };
    } else {
      // The embedded database belongs to the server process: the live endpoint's answer is
      // altered on its way instead (the endpoint itself is covered by tests/integration).
      await page.route('**/api/availability', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as {
          works: { id: number; isSold: boolean; stock: number }[];
        };
        const id = Number(
          await page
            .locator(`[data-variant-block][data-type="original"]`)
            .first()
            .getAttribute('data-artwork-id'),
        );
        body.works = body.works.map((w) => (w.id === id ? { ...w, isSold: true, stock: 0 } : w));
        await route.fulfill({ response, json: body });
      });
    }
    try {
      // A change made outside the server (another node, here this test's own connection) shows
      // once the server's in-memory answer is a second old (api/catalog/availability-cache.ts):
      // look again until it does.
      await expect(async () => {
        await page.goto('/gallery');
        await expect(
          page.locator('#panel-original [data-open-work="lumiere-du-tage"]'),
        ).toContainText('Vendue', { timeout: 1_500 });
      }).toPass({ timeout: 60_000 });
      await page.locator('#panel-original [data-open-work="lumiere-du-tage"]').click();
      await expect(
        page.getByRole('dialog').getByText('Cette œuvre originale a été vendue.'),
      ).toBeVisible();
    } finally {
      await restore?.();
    }
  });
});

test('without JavaScript every available work is a card leading to its own page', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/gallery');
  const cards = page.locator('#panel-original [data-open-work]');
  await expect(cards).toHaveCount(13);
  await expect(page.locator('#panel-print')).toBeVisible();
  // The quick views' articles stay out of sight: each work is read on its page.
  await expect(page.locator('article[data-work]').first()).toBeHidden();
  await page.locator('#panel-original [data-open-work="lumiere-du-tage"]').click();
  await expect(page).toHaveURL(/\/oeuvres\/lumiere-du-tage$/);
  const article = page.locator('article#lumiere-du-tage');
  await expect(article).toBeVisible();
  await expect(article.getByRole('heading', { level: 1 })).toHaveText('Lumière du Tage');
  await expect(article).toContainText('Œuvre originale');
  await expect(article).toContainText('Tirage d’art');
  await context.close();
});

test.describe('chrome', () => {
  test('the mobile menu locks scroll, shows the cart count and closes on Escape', async ({
    page,
  }) => {
    await consentGiven(page);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/about');
    await page.getByRole('button', { name: 'Ouvrir le menu' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: /Panier/ })).toContainText('0');
    await expect(page.locator('html')).toHaveClass(/scroll-locked/);
    await axeDefaults(page);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Ouvrir le menu' })).toBeFocused();
    await expect(page.locator('html')).not.toHaveClass(/scroll-locked/);
  });

  test('the promo banner appears after 50 px of scroll with the code from the settings', async ({
    page,
  }) => {
    await consentGiven(page);
    await page.goto('/en/about');
    const banner = page.getByText('15% off your order with the code SASHA25');
    await expect(banner).toBeHidden();
    await page.mouse.wheel(0, 400);
    await expect(banner).toBeVisible();
    await page.getByRole('button', { name: 'Close the promotion banner' }).focus();
    await page.keyboard.press('Enter');
    await expect(banner).toBeHidden();
  });

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    test(`the promo banner never covers the header, cart or menu (${width} px)`, async ({
      page,
    }) => {
      await consentGiven(page);
      await page.setViewportSize({ width, height });
      await page.goto('/gallery');
      const banner = page.locator('[data-promo-banner]');
      for (const scroll of [60, 400, 2000]) {
        await page.evaluate((y) => window.scrollTo(0, y), scroll);
        await expect(banner).toBeVisible();
        const header = (await page.locator('body > header').boundingBox())!;
        const box = (await banner.boundingBox())!;
        // Below the header, touching it, never over it.
        expect(box.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
        for (const control of [
          page.locator('[data-cart-link]'),
          page.locator('a[data-lang-switch]'),
          width < 768
            ? page.getByRole('button', { name: 'Ouvrir le menu' })
            : page.getByRole('link', { name: 'Galerie', exact: true }).first(),
        ]) {
          const target = (await control.boundingBox())!;
          expect(target.y + target.height).toBeLessThanOrEqual(box.y + 0.5);
        }
      }
      // Clicking the cart icon still goes to the cart.
      await page.locator('[data-cart-link]').click();
      await expect(page).toHaveURL(/\/panier$/);
    });
  }

  test('the cookie banner comes after 2 s; declining records the choice and deletes non-essential cookies', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([
      { name: 'tracker', value: '1', url: baseURL! },
      { name: 'essential_prefs', value: '1', url: baseURL! },
    ]);
    // The page's clock is ours, paused: the 2-second delay is checked, not waited for.
    const start = new Date('2026-11-23T10:00:00Z');
    await page.clock.install({ time: start });
    await page.clock.pauseAt(new Date(start.getTime() + 1000));
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Cookies' });
    await page.clock.runFor(1900);
    await expect(banner).toBeHidden();
    await page.clock.runFor(200);
    await expect(banner).toBeVisible();
    // axe runs on timers of its own: let time flow again.
    await page.clock.resume();
    await axeDefaults(page);
    await banner.getByRole('button', { name: 'Refuser' }).focus();
    await page.keyboard.press('Enter');
    await expect(banner).toBeHidden();
    const consent = JSON.parse(
      (await page.evaluate(() => localStorage.getItem('cookie-consent'))) ?? '{}',
    ) as { accepted?: boolean; version?: string; timestamp?: string };
    expect(consent).toMatchObject({ accepted: false, version: '1.0' });
    expect(Date.parse(consent.timestamp ?? '')).not.toBeNaN();
    const names = (await context.cookies()).map((c) => c.name);
    expect(names).toContain('essential_prefs');
    expect(names).not.toContain('tracker');
    // Declined stays declined: well past the delay, no banner.
    await page.reload();
    await page.clock.runFor(5000);
    await expect(banner).toBeHidden();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  });

  test('Close on the cookie banner counts as declining; Accept records acceptance', async ({
    page,
  }) => {
    await page.goto('/en/');
    const banner = page.getByRole('region', { name: 'Cookies' });
    await banner.getByRole('button', { name: 'Close' }).click();
    expect(
      JSON.parse((await page.evaluate(() => localStorage.getItem('cookie-consent'))) ?? '{}'),
    ).toMatchObject({ accepted: false });
    await page.evaluate(() => localStorage.removeItem('cookie-consent'));
    await page.reload();
    await banner.getByRole('button', { name: 'Accept' }).click();
    expect(
      JSON.parse((await page.evaluate(() => localStorage.getItem('cookie-consent'))) ?? '{}'),
    ).toMatchObject({ accepted: true });
  });
});
