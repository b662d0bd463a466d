// Publishing while serving and maintenance mode, end to end (issue 10), against the running
// server. These tests change the whole site (a work's title, maintenance, a promo code), so they
// run in a project of their own after every other spec (playwright.config.ts), one at a time;
// maintenance and the promo code are put back, the renamed work keeps its test title.
import { expect, type APIRequestContext } from '@playwright/test';
import { useOwner } from './admin.ts';
import { PUBLISH_BOUND, test } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

const ownerOf = useOwner();

interface Status {
  state: string;
  version: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
}

async function publishStatus(): Promise<Status> {
  const response = await ownerOf().get('/api/admin/publish');
  expect(response.status()).toBe(200);
  return (await response.json()) as Status;
}

/** Waits until no publish is queued or running (sales of the other specs ask for some). */
async function settled(): Promise<Status> {
  await expect.poll(async () => (await publishStatus()).state, PUBLISH_BOUND).toBe('idle');
  return publishStatus();
}

/** The id and titles of the first seeded work, from the owner's view of the gallery data. */
async function firstWork(request: APIRequestContext) {
  const html = await (await request.get('/gallery')).text();
  const id = Number(/data-artwork-id="(\d+)"/.exec(html)?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

test('a title changed while the server runs shows in both galleries, without a restart', async ({
  request,
}) => {
  const before = await settled();
  const id = await firstWork(request);
  const stamp = Date.now().toString(36);
  const title = { fr: `Lumière publiée ${stamp}`, en: `Published light ${stamp}` };
  const patched = await ownerOf().patch(`/api/admin/artworks/${id}`, { data: { title } });
  expect(patched.status(), await patched.text()).toBe(200);
  // Live facts never wait; the prerendered pages follow once the new version is swapped in.
  await expect
    .poll(async () => (await request.get('/gallery')).text(), PUBLISH_BOUND)
    .toContain(title.fr);
  expect((await publishStatus()).version).not.toBe(before.version);
  expect(await (await request.get('/en/gallery')).text()).toContain(title.en);
  expect((await request.get('/api/health')).status()).toBe(200);
  // An on-demand page of the new version renders too.
  expect((await request.get('/panier')).status()).toBe(200);
});

test('maintenance: visitors get the 503 page, the back office and health keep working, the owner sees a notice', async ({
  request,
  page,
  baseURL,
}) => {
  const on = await ownerOf().patch('/api/admin/settings', { data: { site_maintenance: true } });
  expect(on.status(), await on.text()).toBe(200);
  try {
    const home = await request.get('/');
    expect(home.status()).toBe(503);
    expect(home.headers()['retry-after']).toBeTruthy();
    expect(home.headers()['x-robots-tag']).toBe('noindex');
    const body = await home.text();
    expect(body).toContain('Site en maintenance');
    expect(body).toContain('Site under maintenance');
    expect((await request.get('/en/gallery')).status()).toBe(503);
    expect((await request.get('/api/cart')).status()).toBe(503);
    expect((await request.get('/admin/login')).status()).toBe(200);
    expect((await request.get('/api/health')).status()).toBe(200);

    // The owner's browser shows the real site with the notice.
    const state = await ownerOf().storageState();
    await page
      .context()
      .addCookies(state.cookies.map(({ name, value }) => ({ name, value, url: baseURL! })));
    const response = await page.goto('/gallery');
    expect(response?.status()).toBe(200);
    await expect(
      page.getByRole('status').filter({ hasText: 'Mode maintenance actif' }),
    ).toBeVisible();
  } finally {
    const off = await ownerOf().patch('/api/admin/settings', { data: { site_maintenance: false } });
    expect(off.status()).toBe(200);
  }
  expect((await request.get('/')).status()).toBe(200);
});

test('a promo code switched off is refused by the next cart, with no publish', async ({
  request,
  baseURL,
}) => {
  const settings = (await (await ownerOf().get('/api/admin/settings')).json()) as {
    settings: { promo_codes: { code: string; discount: number; active: boolean }[] };
  };
  const codes = settings.settings.promo_codes;
  const before = await settled();
  const off = codes.map((c) => (c.code === 'ART20' ? { ...c, active: false } : c));
  expect(
    (await ownerOf().patch('/api/admin/settings', { data: { promo_codes: off } })).status(),
  ).toBe(200);
  try {
    const refused = await request.post('/api/cart/promo', {
      data: { code: 'ART20' },
      headers: { Origin: baseURL! },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'promo_invalid' } });
    const after = await publishStatus();
    expect(after.state).toBe('idle');
    expect(after.version).toBe(before.version);
  } finally {
    await ownerOf().patch('/api/admin/settings', { data: { promo_codes: codes } });
  }
});
