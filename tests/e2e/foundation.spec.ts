// Issue 2: the built site answers in both languages with the seeded works, the language switch
// keeps the page, health reports the database, and unknown paths get a real 404 page.
import { expect } from '@playwright/test';
import { test } from './helpers.ts';

test('the French home lists the 25 seeded works', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByTestId('artwork-title')).toHaveCount(25);
  await expect(page.getByTestId('artwork-list')).toContainText('Lumière du Tage');
  await expect(page.getByTestId('artwork-list')).toContainText('Vendue');
});

test('the English home lists the same works in English', async ({ page }) => {
  await page.goto('/en/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('artwork-title')).toHaveCount(25);
  await expect(page.getByTestId('artwork-list')).toContainText('Light over the Tagus');
  await expect(page.getByTestId('artwork-list')).toContainText('Sold');
});

test('the FR/EN switch lands on the same page in the other language and remembers it', async ({
  page,
}) => {
  await page.goto('/gallery');
  await page.getByRole('link', { name: 'Voir cette page en anglais' }).click();
  await expect(page).toHaveURL(/\/en\/gallery$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await page.evaluate(() => localStorage.getItem('gallery-language'))).toBe('en');

  await page.getByRole('link', { name: 'View this page in French' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/gallery$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  expect(await page.evaluate(() => localStorage.getItem('gallery-language'))).toBe('fr');
});

test('health answers only with a working database', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe('no-store');
  expect(await res.json()).toEqual({ status: 'ok', db: 'ok', pages: 'ok' });
});

test('built pages come precompressed and revalidated', async ({ request }) => {
  const res = await request.get('/', { headers: { 'accept-encoding': 'br' } });
  expect(res.headers()['content-encoding']).toBe('br');
  expect(res.headers()['cache-control']).toContain('must-revalidate');
});

for (const [path, lang, heading, home] of [
  ['/cette-page-n-existe-pas', 'fr', 'Page introuvable', 'Retour à l’accueil'],
  ['/en/no-such-page', 'en', 'Page not found', 'Back to the home page'],
] as const) {
  test(`an unknown path (${lang}) gets a real 404 page with a way home`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await page.getByRole('main').getByRole('link', { name: home }).click();
    await expect(page.getByTestId('artwork-title').first()).toBeVisible();
  });
}
