// The gallery owner's walk through the back office (issue 11), in a real browser against the
// running server: sign in, the dashboard, a new work with a phone photo (GPS in its EXIF) that
// reaches both galleries without its metadata, a price change, hiding, marking an original
// sold, deleting — each followed on the public pages through publishing. Axe (WCAG 2.2 AA) on every
// admin screen and the open form, at 1280 and 390 px. It changes the catalogue, so it runs in the
// `live` project, after the other specs.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMIN, ownerRequest } from './admin.ts';
import { expectNoAxeViolations, hydrated } from './helpers.ts';

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
  await hydrated(page);
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

test('the order: up, by keyboard, by drag and reset — the gallery follows', async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  const cards = page.locator('[data-artwork-card]');
  const titleAt = async (i: number) => (await cards.nth(i).locator('h2').textContent()) ?? '';
  /** The gallery shows `first` before `then` (works group by original, so titles, not ids). */
  const galleryPuts = (first: string, then: string) =>
    expect
      .poll(
        async () => {
          const html = await (await request.get('/gallery')).text();
          return html.indexOf(first) >= 0 && html.indexOf(first) < html.indexOf(then);
        },
        { timeout: 120_000, intervals: [500] },
      )
      .toBe(true);
  /** The first card further down whose title differs from the first two cards'. */
  const another = async () => {
    const seen = [await titleAt(0), await titleAt(1)];
    for (let i = 2; ; i++) if (!seen.includes(await titleAt(i))) return i;
  };

  // By keyboard: Space to pick up, ArrowUp until first, Space to drop.
  let from = await another();
  const moved = await titleAt(from);
  const wasFirst = await titleAt(0);
  const grip = cards.nth(from).getByRole('button', { name: /^Déplacer/ });
  await grip.focus();
  await page.keyboard.press('Space');
  await expect(grip).toHaveAttribute('aria-pressed', 'true');
  // At a person's pace: the list measures itself between two moves.
  for (let i = 0; i < from; i++) {
    await page.keyboard.press('ArrowUp');
    await page.waitForTimeout(300);
  }
  await page.keyboard.press('Space');
  await expect.poll(() => titleAt(0), { timeout: 10_000 }).toBe(moved);
  await galleryPuts(moved, wasFirst);

  // 'Haut' on the second card brings the former first back up.
  expect(await titleAt(1)).toBe(wasFirst);
  await cards.nth(1).getByRole('button', { name: 'Haut' }).click();
  await expect(page.getByRole('status').getByText('Ordre mis à jour').first()).toBeVisible();
  await expect.poll(() => titleAt(0), { timeout: 10_000 }).toBe(wasFirst);
  await galleryPuts(wasFirst, moved);

  // By drag, with the pointer, at desktop width.
  await page.setViewportSize({ width: 1280, height: 900 });
  from = await another();
  const dragged = await titleAt(from);
  const handle = (await cards
    .nth(from)
    .getByRole('button', { name: /^Déplacer/ })
    .boundingBox())!;
  const target = (await cards.nth(0).boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 15; i++)
    await page.mouse.move(
      handle.x + ((target.x + 60 - handle.x) * i) / 15,
      handle.y + ((target.y + 60 - handle.y) * i) / 15,
    );
  await page.mouse.up();
  await expect.poll(() => titleAt(0), { timeout: 10_000 }).toBe(dragged);
  await galleryPuts(dragged, wasFirst);

  // Reset, after the confirmation: newest first again.
  page.once('dialog', (d) => {
    expect(d.message()).toBe("Êtes-vous sûr de vouloir réinitialiser l'ordre d'affichage ?");
    void d.accept();
  });
  await page.getByRole('button', { name: "Réinitialiser l'ordre" }).click();
  await expect(page.getByRole('status').getByText('Ordre réinitialisé')).toBeVisible();
  await expect.poll(() => titleAt(0), { timeout: 10_000 }).not.toBe(dragged);
});
