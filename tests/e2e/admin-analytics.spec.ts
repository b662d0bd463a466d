// The analytics screen end to end (back office §2 "Statistiques avancées", §4, §5, §8; issue 12):
// two buyers pay through the real checkout and the payment emulator — three prints of a work and
// one original, both added by the owner for this spec — then the owner reads them on
// /admin/analytics: the cards equal the endpoint's own JSON and the amounts paid, each period
// redraws the charts with its buckets, the data tables hold the same numbers, the best sellers
// name the works bought. A failing endpoint shows the §8 text with every figure at zero. Axe
// (WCAG 2.2 AA) and the computed-style checks at 1366 and 390 px; screenshots for a person to look
// at go to test-results/admin-analytics/.
//
// The works are new and unpublished, so the buyers put them in their carts through the endpoint
// the gallery's 'Ajouter au panier' button calls (POST /api/cart); cart page, checkout, emulator
// and success page are the real ones.
import path from 'node:path';
import { devices, expect, type Browser, type Locator, type Page } from '@playwright/test';
import type { Analytics, AnalyticsPeriod } from '../../src/schemas/analytics.ts';
import { conversionText, frenchDay } from '../../src/admin/analytics/format.ts';
import { formatWholeMoney as money } from '../../src/domain/money.ts';
import { E2E_ADMIN, useOwner, uploadedPhoto } from './admin.ts';
import { expectNoAxeViolations, expectTallLinks, hydrated, preparePage, test } from './helpers.ts';
import { expectLooksRight, settle } from './look.ts';

test.describe.configure({ mode: 'serial' });

const ownerOf = useOwner();
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'admin-analytics');
const ORDER_BUTTON = /^Commander avec obligation de paiement · /;
const ERROR = 'Erreur lors du chargement des données. Veuillez réessayer.';
/** A seeded work the buyers look at through its own address (counted as a view). */
const VIEWED = { key: 'seuil', title: 'Seuil' };

const stamp = Date.now().toString(36);
const ORIGINAL = { title: `Estuaire ${stamp}`, priceCents: 185_000 };
const PRINT = { title: `Estuaire, tirage ${stamp}`, priceCents: 24_000, quantity: 3 };

async function analyticsOf(period: AnalyticsPeriod): Promise<Analytics> {
  const response = await ownerOf().get(`/api/admin/analytics?period=${period}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as Analytics;
}

/** The owner adds a work with its image through the back office's endpoints: its id. */
async function addWork(
  type: 'original' | 'print',
  title: string,
  priceCents: number,
  originalId: number | null,
): Promise<number> {
  const photo = await uploadedPhoto(ownerOf(), '#3b6e8f');
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

/**
 * A buyer of their own (own cart cookie, own email) pays for `lines` on the emulator: the amount
 * the payment page asked for, in cents. A regular browser's user agent, so the visit counter
 * does not take the buyer for a bot.
 */
async function buy(
  browser: Browser,
  baseURL: string,
  lines: { id: number; quantity: number; title: string }[],
  email: string,
): Promise<number> {
  const context = await browser.newContext({
    baseURL,
    userAgent: devices['Desktop Chrome'].userAgent,
  });
  const page = await context.newPage();
  const errors = await preparePage(page);
  // Looks at a work on its own page first: a view for 'Œuvres les plus vues'.
  await page.goto(`/oeuvres/${VIEWED.key}`);
  await expect(page.getByRole('heading', { name: VIEWED.title, level: 1 })).toBeVisible();
  for (const line of lines) {
    const added = await page.request.post('/api/cart', {
      data: { artworkId: line.id, quantity: line.quantity },
      headers: { Origin: baseURL },
    });
    expect(added.ok(), await added.text()).toBe(true);
  }
  await page.goto('/panier');
  await hydrated(page);
  for (const line of lines)
    await expect(page.getByRole('heading', { name: line.title })).toBeVisible();
  await page.getByRole('link', { name: 'Passer la commande' }).click();
  await expect(page).toHaveURL(/\/commande$/);
  await hydrated(page);
  await page.getByRole('textbox', { name: 'Nom complet' }).fill('Inês Duarte');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Téléphone' }).fill('+351 912 345 678');
  await page.getByRole('textbox', { name: 'Adresse', exact: true }).fill('Rua da Rosa 40');
  await page.getByRole('textbox', { name: 'Code postal' }).fill('1200-385');
  await page.getByRole('textbox', { name: 'Ville' }).fill('Lisboa');
  await page.getByRole('combobox', { name: 'Pays' }).selectOption('PT');
  await page.getByRole('checkbox', { name: /conditions générales de vente/ }).check();
  await page.getByRole('button', { name: ORDER_BUTTON }).click();

  await expect(page).toHaveURL(/\/emulator\/checkout\/cs_/);
  const pay = page.getByRole('button', { name: /^Payer / });
  // 'Payer 1 850,00 €' → 185000.
  const asked = (await pay.textContent())!.replace(/[^\d,]/g, '').replace(',', '.');
  await page.locator('#card_number').fill('4242 4242 4242 4242');
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await pay.click();
  await expect(page.getByRole('heading', { name: 'Paiement confirmé', level: 1 })).toBeVisible();
  // 'Payé' once the webhook has fulfilled the order: from then on it is a sale.
  await expect(page.getByText('Payé', { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
  return Math.round(Number(asked) * 100);
}

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/admin\/login\?redirect=/);
  await page.getByLabel(/^Email/).fill(E2E_ADMIN.email);
  await page.getByLabel(/^Mot de passe/).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replace('?', '\\?')}$`));
  await hydrated(page);
}

const card = (page: Page, name: string) => page.locator(`[data-card="${name}"] dd`).first();
const figure = (page: Page, name: string) =>
  page
    .locator('dt', { hasText: new RegExp(`^${name}$`) })
    .locator('xpath=following-sibling::dd[1]');
const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The screen's error banner (hidden while empty, so not found by role then). */
const banner = (page: Page) => page.locator('main [role=alert]');
/** No load under way. */
const idle = (page: Page) => expect(page.locator('main [aria-busy]')).toHaveCount(0);

/** A pattern matching `text` literally, any run of spaces as one (Playwright normalises the
 * page's text, narrow no-break spaces included, before matching a pattern). */
const literal = (text: string) =>
  text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\s+/g, '\\s+');

/** Opens a chart's data table (once) and returns its body rows. */
async function dataRows(panel: Locator): Promise<Locator> {
  const toggle = panel.locator('summary');
  if ((await toggle.textContent())?.includes('Voir les données')) {
    await toggle.click();
    await expect(toggle).toHaveText(/Masquer les données/);
  }
  return panel.locator('tbody tr');
}

/** Every figure on screen equals the endpoint's answer for the same period. */
async function expectScreenShows(page: Page, data: Analytics) {
  const eur = (cents: number) => money(cents, data.currency);
  await expect(card(page, "Chiffre d'affaires")).toHaveText(eur(data.summary.revenueCents));
  await expect(card(page, 'Commandes')).toHaveText(String(data.summary.orders));
  await expect(card(page, 'Panier moyen')).toHaveText(eur(data.summary.averageCents));
  await expect(figure(page, 'Clients totaux')).toHaveText(String(data.customers.total));
  await expect(figure(page, 'Nouveaux clients')).toHaveText(String(data.customers.newLast30Days));
  await expect(figure(page, 'Clients fidèles')).toHaveText(String(data.customers.returning));
  // Issue 27 §6: a rate only once enough visitors were counted ('—' below, and why).
  await expect(figure(page, 'Taux de conversion')).toHaveText(conversionText(data.customers));
  const top = region(page, 'Œuvres les plus vendues').locator('tbody tr');
  await expect(top).toHaveCount(data.top.length);
  // Each work with its type beneath: an original and its prints often share a title.
  const typeLabel = { original: 'Original', print: 'Tirage' } as const;
  for (const [index, work] of data.top.entries())
    await expect(top.nth(index)).toHaveText(
      new RegExp(
        `^${literal(work.title)}\\s*${typeLabel[work.type]}\\s*${work.quantity}\\s*${literal(eur(work.revenueCents))}$`,
      ),
    );
}

test('sales paid in the shop appear on the analytics screen, for every period, with their tables', async ({
  page,
  browser,
  baseURL,
}) => {
  const before = { week: await analyticsOf('7d'), month: await analyticsOf('30d') };

  const originalId = await addWork('original', ORIGINAL.title, ORIGINAL.priceCents, null);
  const printId = await addWork('print', PRINT.title, PRINT.priceCents, originalId);
  const paidPrints = await buy(
    browser,
    baseURL!,
    [{ id: printId, quantity: PRINT.quantity, title: PRINT.title }],
    `ines.${stamp}@example.org`,
  );
  const paidOriginal = await buy(
    browser,
    baseURL!,
    [{ id: originalId, quantity: 1, title: ORIGINAL.title }],
    `joao.${stamp}@example.org`,
  );
  const paid = paidPrints + paidOriginal;
  // Free shipping above 500 € (settings' default): the works' prices are what was paid.
  expect(paidPrints).toBeGreaterThanOrEqual(PRINT.priceCents * PRINT.quantity);
  expect(paidOriginal).toBeGreaterThanOrEqual(ORIGINAL.priceCents);

  // The endpoint agrees with the cash register.
  const week = await analyticsOf('7d');
  const month = await analyticsOf('30d');
  expect(month.summary.revenueCents).toBe(before.month.summary.revenueCents + paid);
  expect(month.summary.orders).toBe(before.month.summary.orders + 2);
  expect(week.sales.at(-1)!.revenueCents).toBe(before.week.sales.at(-1)!.revenueCents + paid);
  expect(week.byType.printCents).toBe(
    before.week.byType.printCents + PRINT.priceCents * PRINT.quantity,
  );
  expect(week.byType.originalCents).toBe(before.week.byType.originalCents + ORIGINAL.priceCents);
  expect(week.top).toContainEqual(
    expect.objectContaining({
      title: PRINT.title,
      type: 'print',
      quantity: PRINT.quantity,
      revenueCents: PRINT.priceCents * PRINT.quantity,
    }),
  );
  expect(week.customers.total).toBe(before.week.customers.total + 2);

  // The owner's screen: 30 jours first, computed on the server.
  const errors = await preparePage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, '/admin/analytics');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Statistiques avancées' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: '30 jours', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expectScreenShows(page, month);
  await expect(
    page.getByText(`du ${frenchDay(month.from)} au ${frenchDay(month.to)}`, { exact: true }),
  ).toBeVisible();

  const sales = region(page, 'Évolution des ventes');
  const canvas = sales.locator('canvas');
  await expect(canvas).toHaveAttribute('data-points', '30');
  await expect(canvas).toHaveAttribute('aria-label', /^Courbe des ventes sur 30 jours, du /);

  // Each period redraws the chart with its own buckets: days, weeks, months.
  for (const [label, period, unit, count] of [
    ['7 jours', '7d', 'jours', 7],
    ['90 jours', '90d', 'semaines', 13],
    ['1 an', '1y', 'mois', null],
    ['30 jours', '30d', 'jours', 30],
  ] as const) {
    const expected = await analyticsOf(period);
    if (count !== null) expect(expected.sales).toHaveLength(count);
    await page.getByRole('button', { name: label, exact: true }).click();
    await expect(page.getByRole('button', { name: label, exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(canvas).toHaveAttribute('data-points', String(expected.sales.length));
    await expect(canvas).toHaveAttribute(
      'aria-label',
      new RegExp(`^Courbe des ventes sur ${expected.sales.length} ${unit}, `),
    );
    const rows = await dataRows(sales);
    await expect(rows).toHaveCount(expected.sales.length);
    await expect(rows.first().locator('th')).toContainText(expected.sales[0]!.label);
    await expect(page).toHaveURL(
      period === '30d' ? /\/admin\/analytics$/ : new RegExp(`\\?period=${period}$`),
    );
    await expectScreenShows(page, expected);
  }

  // 7 jours: today's row holds what the two buyers paid; the type split and the best sellers too.
  await page.getByRole('button', { name: '7 jours', exact: true }).click();
  await expect(canvas).toHaveAttribute('data-points', '7');
  const eur = (cents: number) => money(cents, week.currency);
  const today = (await dataRows(sales)).last();
  await expect(today.locator('td').first()).toHaveText(
    eur(before.week.sales.at(-1)!.revenueCents + paid),
  );
  await expect(today.locator('td').last()).toHaveText(String(week.sales.at(-1)!.orders));
  const types = await dataRows(region(page, "Ventes par type d'œuvre"));
  await expect(types).toHaveText([
    new RegExp(`^Originaux\\s*${literal(eur(week.byType.originalCents))}$`),
    new RegExp(`^Prints\\s*${literal(eur(week.byType.printCents))}$`),
  ]);
  await expect(
    region(page, 'Œuvres les plus vendues').getByRole('row', { name: PRINT.title }),
  ).toContainText(eur(PRINT.priceCents * PRINT.quantity));
  const thisMonth = Number(week.to.slice(5, 7)) - 1;
  const months = await dataRows(region(page, 'Comparaison mensuelle'));
  await expect(months).toHaveCount(12);
  await expect(months.nth(thisMonth).locator('td').first()).toHaveText(
    eur(week.monthly.thisYear[thisMonth]!),
  );
  await expect(region(page, 'Comparaison mensuelle').getByRole('columnheader')).toHaveText([
    'Mois',
    String(week.monthly.year),
    String(week.monthly.year - 1),
  ]);

  // The buyers' look at a work through its address, once the counter has written it down.
  await expect
    .poll(async () => (await analyticsOf('7d')).mostViewed.map((work) => work.key))
    .toContain(VIEWED.key);
  await page.getByRole('button', { name: 'Actualiser' }).click();
  await expect(
    region(page, 'Œuvres les plus vues').getByRole('row', { name: VIEWED.title }),
  ).toBeVisible();
  expect(errors).toEqual([]);
});

test('the screen passes axe and looks right at 1366 and 390 px; screenshots for a person', async ({
  page,
}) => {
  const errors = await preparePage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, '/admin/analytics');
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The default period (30 daily points), then a week with every table open.
    for (const [query, points] of [
      ['', '30'],
      ['?period=7d', '7'],
    ] as const) {
      await page.goto(`/admin/analytics${query}`);
      await hydrated(page);
      await expect(region(page, 'Évolution des ventes').locator('canvas')).toHaveAttribute(
        'data-points',
        points,
      );
      await settle(page);
      await expectNoAxeViolations(page);
      await expectLooksRight(page);
      if (width < 640) await expectTallLinks(page);
      await page.screenshot({
        path: path.join(SHOTS, `analytics-${width}-${points}.png`),
        fullPage: true,
      });
    }
    // With the data tables open: still accessible, still inside the page.
    for (const chart of [
      'Évolution des ventes',
      "Ventes par type d'œuvre",
      'Comparaison mensuelle',
    ])
      await dataRows(region(page, chart));
    await expectNoAxeViolations(page);
    await expectLooksRight(page);
    await page.screenshot({
      path: path.join(SHOTS, `analytics-${width}-tables.png`),
      fullPage: true,
    });
  }
  expect(errors).toEqual([]);
});

test('chart.js is fetched by the analytics screen only; the privacy link reaches its section', async ({
  page,
  request,
}) => {
  const errors = await preparePage(page);
  const fetched: string[] = [];
  page.on('request', (asked) => {
    if (/\/_astro\/chart-setup\.[\w-]+\.js$/.test(asked.url())) fetched.push(page.url());
  });
  await signIn(page, '/admin/dashboard');
  for (const other of ['/', '/gallery', '/admin/artworks', '/admin/settings']) {
    await page.goto(other);
    // Nothing left to fetch: a dynamic import would have gone out by now.
    await page.waitForLoadState('networkidle');
  }
  expect(fetched).toEqual([]);
  await page.goto('/admin/analytics');
  await hydrated(page);
  await expect.poll(() => fetched.length).toBe(1);

  const link = page.getByRole('link', { name: 'Ce que le site compte' });
  const href = (await link.getAttribute('href'))!;
  const [pathname, anchor] = href.split('#');
  const privacy = await (await request.get(pathname!)).text();
  expect(privacy).toContain(`id="${anchor}"`);
  expect(errors).toEqual([]);
});

test('a failed load says so (§8) and zeroes every figure (§4); the next load brings them back', async ({
  page,
}) => {
  const errors = await preparePage(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 390, height: 900 });
  await signIn(page, '/admin/analytics');
  const month = await analyticsOf('30d');
  await expectScreenShows(page, month);

  await page.route('**/api/admin/analytics**', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
  );
  const refresh = page.getByRole('button', { name: 'Actualiser' });
  await refresh.click();
  await expect(banner(page)).toHaveText(ERROR);
  await idle(page);
  await expect(card(page, "Chiffre d'affaires")).toHaveText(money(0, month.currency));
  await expect(card(page, 'Commandes')).toHaveText('0');
  await expect(card(page, 'Panier moyen')).toHaveText(money(0, month.currency));
  for (const name of ['Clients totaux', 'Nouveaux clients', 'Clients fidèles'])
    await expect(figure(page, name)).toHaveText('0');
  await expect(figure(page, 'Taux de conversion')).toHaveText('—');
  await expect(page.getByText('Aucune vente enregistrée')).toBeVisible();
  await expect(page.getByText('Aucune vue enregistrée sur la période')).toBeVisible();
  const months = await dataRows(region(page, 'Comparaison mensuelle'));
  await expect(months).toHaveCount(12);
  for (const row of await months.all())
    await expect(row.locator('td')).toHaveText([
      money(0, month.currency),
      money(0, month.currency),
    ]);
  await expect(region(page, 'Évolution des ventes').locator('canvas')).toHaveAttribute(
    'data-points',
    '0',
  );
  // A period switch that fails zeroes too, and says which period is asked for.
  await page.getByRole('button', { name: '90 jours', exact: true }).click();
  await expect(page.getByRole('button', { name: '90 jours', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await idle(page);
  await expect(banner(page)).toHaveText(ERROR);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: path.join(SHOTS, 'analytics-390-error.png'), fullPage: true });

  await page.unroute('**/api/admin/analytics**');
  await page.getByRole('button', { name: '30 jours', exact: true }).click();
  await idle(page);
  await expect(banner(page)).toBeEmpty();
  await expectScreenShows(page, month);
  expect(errors).toEqual([]);
});
