// The back office's shell and dashboard, phone first (issue 27 §4, §5, §6): on every admin screen
// the phone header is one bar of at most 64 px (title, menu), the shell's controls are targets of
// at least 44 px, Escape closes the menu and gives the focus back to its button, and no screen
// logs a console error or throws (React's hydration error #418 among them) at 1366 or 390 px.
// The dashboard's to-do lines and recent orders lead where they say (checked against the orders
// endpoint with the same query); its look at 1366 and 390 px (from a fixed answer of the
// dashboard endpoint, so the baselines do not depend on what the owner's shop sold before) and
// the phone header, menu closed and open, are visual baselines; axe (WCAG 2.2 AA) on each.
import { devices, expect, type Browser, type Page } from '@playwright/test';
import type { OrderList } from '../../src/schemas/admin-orders.ts';
import type { Dashboard } from '../../src/schemas/dashboard.ts';
import { E2E_ADMIN, useOwner, uploadedPhoto } from './admin.ts';
import { expectNoAxeViolations, hydrated, preparePage, test } from './helpers.ts';
import { expectLooksRight, settle } from './look.ts';

const ownerOf = useOwner();
const stamp = Date.now().toString(36);

const SCREENS = [
  'dashboard',
  'artworks',
  'orders',
  'editions',
  'customers',
  'messages',
  'analytics',
  'settings',
  'security',
] as const;
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 900 };

/** Signs in through the login page; collects console errors and uncaught exceptions. */
async function signIn(page: Page, target = '/admin/dashboard'): Promise<string[]> {
  const errors = await preparePage(page);
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(target);
  await expect(page).toHaveURL(/\/admin\/login\?redirect=/);
  await page.getByLabel(/^Email/).fill(E2E_ADMIN.email);
  await page.getByLabel(/^Mot de passe/).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL((url) => url.pathname === target.split('?')[0]);
  await hydrated(page);
  return errors;
}

/** A print of our own, bought once through cart, checkout and the emulator's payment form. */
/** Returns the order's number. */
async function buyOnePrint(browser: Browser, baseURL: string): Promise<string> {
  const photo = await uploadedPhoto(ownerOf(), '#3d5a4a', { width: 800, height: 600 });
  const created = await ownerOf().post('/api/admin/artworks', {
    data: {
      type: 'print',
      title: { fr: `Brume, tirage ${stamp}`, en: `Mist, print ${stamp}` },
      description: { fr: '', en: '' },
      technique: { fr: 'Giclée sur papier', en: 'Giclée on paper' },
      category: 'peinture',
      collection: '',
      year: 2026,
      dimensions: '40 x 30 cm',
      priceCents: 18_000,
      stock: 10,
      editionSize: 30,
      isAvailable: true,
      isSold: false,
      originalId: null,
      imageSha256: photo,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const artworkId = ((await created.json()) as { artwork: { id: number } }).artwork.id;

  const context = await browser.newContext({
    baseURL,
    userAgent: devices['Desktop Chrome'].userAgent,
  });
  const buyer = context.request;
  const headers = { Origin: baseURL };
  const added = await buyer.post('/api/cart', { data: { artworkId, quantity: 1 }, headers });
  expect(added.ok(), await added.text()).toBe(true);
  const checkout = await buyer.post('/api/checkout', {
    headers,
    data: {
      locale: 'fr',
      items: [{ artworkId, quantity: 1 }],
      customer: { name: 'Léonie Marchetti', email: `leonie.${stamp}@example.org` },
      shippingAddress: {
        street: '12 rue des Tanneurs',
        city: 'Lyon',
        postalCode: '69001',
        country: 'FR',
      },
      billingSameAsShipping: true,
      acceptTerms: true,
    },
  });
  expect(checkout.ok(), await checkout.text()).toBe(true);
  const { url, sessionId } = (await checkout.json()) as { url: string; sessionId: string };
  const paid = await buyer.post(url, {
    form: {
      card_number: '4242 4242 4242 4242',
      expiry: '12 / 34',
      cvc: '123',
      name: '',
      email: '',
    },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  await context.close();
  // Paid once the webhook has fulfilled it.
  let number = '';
  await expect
    .poll(async () => {
      const list = (await (
        await ownerOf().get(`/api/admin/orders?q=${encodeURIComponent(sessionId)}`)
      ).json()) as OrderList;
      number = list.orders[0]?.number ?? '';
      return list.orders[0]?.payment;
    })
    .toBe('paid');
  return number;
}

/** The orders the orders endpoint lists for a link of the screen (same query string). */
async function ordersAt(href: string): Promise<OrderList> {
  const url = new URL(href, 'http://x');
  expect(url.pathname).toBe('/admin/orders');
  const response = await ownerOf().get(`/api/admin/orders${url.search}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as OrderList;
}

/** Every visible control of the shell (header, and the menu when open) smaller than 44 px. */
async function smallShellTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      'header a, header button, #admin-menu a, #admin-menu button',
    );
    for (const e of controls) {
      const box = e.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.width < 44 || box.height < 44)
        small.push(
          `${e.textContent?.trim()}: ${Math.round(box.width)} × ${Math.round(box.height)}`,
        );
    }
    return small;
  });
}

const headerHeight = (page: Page) =>
  page
    .locator('header')
    .first()
    .evaluate((e) => e.getBoundingClientRect().height);
const menuButton = (page: Page) => page.locator('header [data-admin-menu]');

test('every admin screen: no console error at 1366 and 390 px; on a phone a 64 px header, 44 px targets, a menu Escape closes', async ({
  page,
}) => {
  const errors = await signIn(page);
  for (const size of [LAPTOP, PHONE]) {
    await page.setViewportSize(size);
    for (const screen of SCREENS) {
      await page.goto(`/admin/${screen}`);
      await hydrated(page);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // The publish pill has answered (its first fetch done: no late error can hide behind it).
      await expect(page.locator('[data-publish-status][data-state]')).toHaveCount(1);
      if (size === PHONE) {
        expect(await headerHeight(page), `header of /admin/${screen}`).toBeLessThanOrEqual(64);
        // Nothing but the title and the menu button in the bar.
        await expect(page.getByText('Connecté en tant que')).toBeHidden();
        await expect(page.getByRole('button', { name: 'Se déconnecter' })).toBeHidden();
        await menuButton(page).click();
        await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
        const nav = page.getByRole('navigation', { name: 'Administration' });
        await expect(nav.getByRole('link', { name: 'Œuvres' })).toBeVisible();
        await expect(page.getByText('Connecté en tant que')).toContainText(E2E_ADMIN.name);
        await expect(page.getByRole('button', { name: 'Se déconnecter' })).toBeVisible();
        expect(await smallShellTargets(page), `/admin/${screen}`).toEqual([]);
        await page.keyboard.press('Escape');
        await expect(nav).toBeHidden();
        await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
        await expect(menuButton(page)).toBeFocused();
      } else {
        await expect(page.getByText('Connecté en tant que')).toContainText(E2E_ADMIN.name);
        expect(await smallShellTargets(page), `/admin/${screen}`).toEqual([]);
      }
    }
  }
  expect(errors).toEqual([]);
});

test('the dashboard’s to-do lines and recent orders lead where they say', async ({
  page,
  browser,
  baseURL,
}) => {
  const bought = await buyOnePrint(browser, baseURL!);
  const errors = await signIn(page);
  const todo = page.getByRole('region', { name: 'À faire' });

  // Orders to ship: the orders screen, filtered to exactly those.
  const ship = todo.locator('a[data-todo="ship"]');
  const count = Number(/(\d+) commandes? à expédier/.exec(await ship.innerText())?.[1]);
  expect(count).toBeGreaterThanOrEqual(1);
  const shipHref = (await ship.getAttribute('href'))!;
  const listed = await ordersAt(shipHref);
  expect(listed.matching).toBeGreaterThanOrEqual(count);
  expect(
    listed.orders.filter(
      (o) => o.payment === 'paid' && ['pending', 'confirmed'].includes(o.fulfilment),
    ).length,
  ).toBe(Math.min(count, listed.orders.length));
  await ship.click();
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === shipHref);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gestion des commandes');

  // The order just bought is the newest recent order; its link finds it alone.
  await page.goto('/admin/dashboard');
  await hydrated(page);
  const recent = page.getByRole('region', { name: 'Commandes récentes' });
  const first = recent.locator('[data-order] a').filter({ visible: true }).first();
  const firstHref = (await first.getAttribute('href'))!;
  const found = await ordersAt(firstHref);
  expect(firstHref).toContain(encodeURIComponent(bought));
  expect(found.orders.map((o) => o.number)).toEqual([bought]);
  await first.click();
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === firstHref);

  // Messages, the legal identity and the second factor: their screens.
  for (const [kind, path] of [
    ['messages', /^\/admin\/messages(\?filter=unread)?$/],
    ['legal', /^\/admin\/settings$/],
    ['second-factor', /^\/admin\/security$/],
  ] as const) {
    await page.goto('/admin/dashboard');
    await hydrated(page);
    await todo.locator(`a[data-todo="${kind}"]`).click();
    await expect(page).toHaveURL((url) => path.test(`${url.pathname}${url.search}`));
    await hydrated(page);
  }
  // The owner of this shop has no second factor: the dashboard asks for one.
  await page.goto('/admin/dashboard');
  await expect(todo.locator('a[data-todo="second-factor"]')).toContainText(
    'Protégez votre compte avec la double authentification',
  );
  expect(errors).toEqual([]);
});

/** A fixed answer of the dashboard endpoint: what the baselines show, whatever the shop sold. */
function fixture(): Dashboard {
  const revenue = [
    0, 0, 42_000, 0, 0, 0, 18_000, 0, 0, 0, 0, 0, 125_000, 0, 0, 18_000, 0, 0, 0, 0, 36_000, 0, 0,
    0, 0, 0, 0, 240_000, 0, 18_000,
  ];
  expect(revenue).toHaveLength(30);
  return {
    revenueCents: 1_284_000,
    paidOrders: 23,
    worksOnline: 31,
    awaitingShipment: 2,
    awaitingPending: 0,
    unreadMessages: 3,
    withdrawals: [{ id: '00000000-0000-4000-8000-000000000007', number: 'GS-2026-01007' }],
    legalMissing: ['Régime de TVA'],
    secondFactorOn: false,
    recent: [
      [
        'GS-2026-01023',
        'Léonie Marchetti',
        18_000,
        'confirmed',
        'Confirmée',
        '2026-11-26T09:12:00Z',
      ],
      [
        'GS-2026-01022',
        'Inês Albuquerque-Reis',
        240_000,
        'confirmed',
        'Confirmée',
        '2026-11-24T17:40:00Z',
      ],
      [
        'GS-2026-01021',
        'Zoë Vandersteen-Öhlund',
        36_000,
        'shipped',
        'Expédiée',
        '2026-11-19T08:05:00Z',
      ],
      ['GS-2026-01020', 'Marc Delaunay', 18_000, 'delivered', 'Livrée', '2026-11-12T14:30:00Z'],
      ['GS-2026-01019', 'Sophie Lemaire', 125_000, 'delivered', 'Livrée', '2026-11-09T11:00:00Z'],
    ].map(([number, customer, totalCents, status, statusLabel, date], i) => ({
      id: `00000000-0000-4000-8000-00000000002${i}`,
      number: number as string,
      customer: customer as string,
      totalCents: totalCents as number,
      currency: 'EUR',
      status: status as Dashboard['recent'][number]['status'],
      statusLabel: statusLabel as string,
      date: date as string,
    })),
    last30: revenue.map((revenueCents, i) => ({
      day: new Date(Date.UTC(2026, 9, 28 + i)).toISOString().slice(0, 10),
      revenueCents,
      orders: revenueCents ? Math.max(1, Math.round(revenueCents / 120_000)) : 0,
    })),
  };
}

/** Shows the fixed answer through 'Actualiser' (the page's first data is the shop's own). */
async function showFixture(page: Page) {
  await page.route('**/api/admin/dashboard', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(fixture()),
    }),
  );
  await page.goto('/admin/dashboard');
  await hydrated(page);
  await page.getByRole('button', { name: 'Actualiser' }).click();
  await expect(page.locator('[data-sales-total]')).toHaveText(/^4\s970,00\s€$/);
  await expect(page.locator('main [aria-busy]')).toHaveCount(0);
}

const SHOT = {
  animations: 'disabled',
  threshold: 0.25,
  maxDiffPixelRatio: 0.02,
  maskColor: '#d9d4cc',
} as const;

test('the dashboard and the phone header look right at 1366 and 390 px', async ({ page }) => {
  const errors = await signIn(page);
  for (const size of [LAPTOP, PHONE]) {
    await page.setViewportSize(size);
    await showFixture(page);
    await settle(page);
    // A phone never scrolls sideways: the recent orders are a list there.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      size.width,
    );
    await expectLooksRight(page);
    await expectNoAxeViolations(page);
    const pill = page.locator('[data-publish-status], [data-publish-mirror]');
    await expect(page).toHaveScreenshot(`dashboard-${size.width}.png`, {
      ...SHOT,
      fullPage: true,
      mask: [pill],
    });
    // The table of the sparkline's figures, opened.
    await page.getByText('Voir les chiffres par jour').click();
    await expect(page.getByRole('table', { name: 'Ventes des 30 derniers jours' })).toBeVisible();
    await expectNoAxeViolations(page);
  }

  // The phone header alone, menu closed then open.
  await page.goto('/admin/dashboard');
  await hydrated(page);
  await settle(page);
  // The dot on the menu button shows a publish under way (the print bought above made one).
  const dot = page.locator('[data-admin-menu] > span');
  await expect(page.locator('header').first()).toHaveScreenshot('phone-header-390.png', {
    ...SHOT,
    mask: [dot],
  });
  await menuButton(page).click();
  await expect(page.getByRole('navigation', { name: 'Administration' })).toBeVisible();
  await expectNoAxeViolations(page);
  await expect(page).toHaveScreenshot('phone-menu-open-390.png', {
    ...SHOT,
    mask: [page.locator('[data-publish-mirror]'), dot, page.locator('main')],
  });
  expect(errors).toEqual([]);
});
