// The gallery owner's walk through the back office (issue 11), in a real browser against the
// running server: sign in, the dashboard, a new work with a phone photo (GPS in its EXIF) that
// reaches both galleries without its metadata, a price change, hiding, marking an original
// sold, deleting — each followed on the public pages through publishing. Axe (WCAG 2.2 AA) on every
// admin screen and the open form, at 1280 and 390 px. It changes the catalogue, so it runs in the
// `live` project, after the other specs.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMIN, ownerRequest } from './admin.ts';
import { expectNoAxeViolations } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

let owner: APIRequestContext;
test.beforeAll(async ({ baseURL }) => {
  // The invitation of `npm run admin:invite` accepted, as the owner did once.
  owner = await ownerRequest(baseURL!);
});
test.afterAll(async () => {
  await owner?.dispose();
});

async function signIn(page: Page, path = '/admin/artworks') {
  await page.goto(path);
  await expect(page).toHaveURL(/\/admin\/login\?redirect=/);
  await page.getByLabel(/^Email/).fill(E2E_ADMIN.email);
  await page.getByLabel(/^Mot de passe/).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

/** Waits until the public page shows (or no longer shows) a text: the publish has landed. */
async function publicPage(request: APIRequestContext, path: string, text: string, present = true) {
  await expect
    .poll(async () => (await (await request.get(path)).text()).includes(text), {
      timeout: 120_000,
      intervals: [500],
    })
    .toBe(present);
}

test('the owner signs in; the empty fields, the dashboard and every section pass axe', async ({
  page,
}) => {
  await page.goto('/admin/login');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('alert')).toHaveText('Veuillez remplir tous les champs');
  await signIn(page, '/admin/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
  await expect(page.getByText('Connecté en tant que')).toContainText(E2E_ADMIN.name);
  await expect(page.getByText('Œuvres en ligne')).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const section of ['dashboard', 'artworks', 'orders', 'settings']) {
      await page.goto(`/admin/${section}`);
      await expectNoAxeViolations(page);
    }
  }
});

test('a work added with a phone photo reaches both galleries without its GPS; price, hiding, sold and deletion follow', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  await signIn(page);
  const stamp = Date.now().toString(36);
  const title = { fr: `Marée haute ${stamp}`, en: `High tide ${stamp}` };
  const photo = await sharp({
    create: { width: 1600, height: 1200, channels: 3, background: '#2a5d7c' },
  })
    .jpeg()
    .withMetadata({ exif: { IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '38/1 42/1 0/1' } } })
    .toBuffer();

  await page.getByRole('button', { name: 'Ajouter une œuvre' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ajouter une nouvelle œuvre' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Dimensions')).toHaveValue('100 x 80 cm');
  await expectNoAxeViolations(page);
  await dialog.getByLabel(/^Titre \(français\)/).fill(title.fr);
  await dialog.getByLabel(/^Titre \(anglais\)/).fill(title.en);
  await dialog.getByLabel(/^Prix/).fill('380');
  await dialog
    .getByLabel(/^Image/)
    .setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(dialog.getByRole('img', { name: "Aperçu de l'image choisie" })).toBeVisible();
  await dialog.getByRole('button', { name: "Ajouter l'œuvre" }).click();
  await expect(page.getByRole('status').getByText('Œuvre ajoutée')).toBeVisible();
  const card = page.locator('[data-artwork-card]').filter({ hasText: title.fr });
  await expect(card).toBeVisible();

  await publicPage(request, '/gallery', title.fr);
  await publicPage(request, '/en/gallery', title.en);
  // Every variant the gallery serves of it is metadata-free.
  const html = await (await request.get('/gallery')).text();
  const at = html.indexOf(title.fr);
  const sha = /\/media\/([0-9a-f]{64})\//.exec(html.slice(Math.max(0, at - 4000), at))?.[1];
  expect(sha).toBeTruthy();
  for (const file of ['400.avif', '800.webp', '1200.avif']) {
    const image = await request.get(`/media/${sha}/${file}`);
    expect(image.status()).toBe(200);
    const meta = await sharp(await image.body()).metadata();
    expect(meta.exif, file).toBeUndefined();
  }

  // The price, then hiding it.
  await card.getByRole('button', { name: 'Modifier' }).click();
  const edit = page.getByRole('dialog', { name: `Modifier l'œuvre: ${title.fr}` });
  await edit.getByLabel(/^Prix/).fill('415');
  await edit.getByRole('button', { name: 'Enregistrer les modifications' }).click();
  await expect(page.getByRole('status').getByText('Modifications enregistrées')).toBeVisible();
  await publicPage(request, '/gallery', '415');
  await card.getByRole('button', { name: 'Masquer' }).click();
  await expect(card.getByText('Masquée')).toBeVisible();
  await publicPage(request, '/gallery', title.fr, false);
  await publicPage(request, '/en/gallery', title.en, false);

  // A seeded original marked sold: the gallery says so and no cart takes it.
  const sold = page.locator('[data-artwork-card]').filter({ hasText: 'Palimpseste' }).first();
  const soldId = Number(await sold.getAttribute('data-artwork-card'));
  page.once('dialog', (d) => void d.accept());
  await sold.getByRole('button', { name: 'Vendu' }).click();
  await expect(page.getByRole('status').getByText('Œuvre marquée comme vendue')).toBeVisible();
  const add = await request.post('/api/cart', {
    data: { artworkId: soldId },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(add.status()).toBe(409);

  // Deleting the new work (never ordered): gone from the list.
  page.once('dialog', (d) => void d.accept());
  await card.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByRole('status').getByText('Œuvre supprimée')).toBeVisible();
  await expect(card).toHaveCount(0);
});
