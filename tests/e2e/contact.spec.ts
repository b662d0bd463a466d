// The contact form really delivers: a message typed in the browser reaches the mail transport
// (the e2e server writes .eml files under its DATA_DIR); invalid input shows the field's error.
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import { test } from './helpers.ts';
import { mailDir } from './shops.ts';

async function mails(): Promise<string[]> {
  const files = await fs.readdir(mailDir()).catch(() => []);
  return Promise.all(files.map((f) => fs.readFile(path.join(mailDir(), f), 'utf8')));
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() =>
    localStorage.setItem(
      'cookie-consent',
      JSON.stringify({ accepted: true, timestamp: 'x', version: '1.0' }),
    ),
  );
});

test('a message is sent, shown as sent, then the form resets', async ({ page }) => {
  const sender = `ines.${Date.now()}@example.com`;
  await page.goto('/contact');
  await page.getByLabel(/^Nom/).fill('Inês Ferreira');
  await page.getByLabel(/^E-mail/).fill(sender);
  await page.getByLabel(/^Sujet/).selectOption({ label: 'Visite privée' });
  await page.getByLabel(/^Message/).fill('Visite privée pour deux personnes samedi.');
  await page.getByRole('button', { name: 'Envoyer le message' }).click();
  await expect(page.getByRole('button', { name: 'Message envoyé !' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Envoyer le message' })).toBeVisible();
  await expect(page.getByLabel(/^Message/)).toHaveValue('');
  // The mail to the gallery answers to the visitor (headers are ASCII-safe, the body is encoded).
  await expect.poll(async () => (await mails()).some((m) => m.includes(`<${sender}>`))).toBe(true);
});

test('invalid input shows the field’s error and keeps what was typed', async ({ page }) => {
  await page.goto('/en/contact');
  await page.getByLabel(/^Name/).fill('Sam');
  await page.getByLabel(/^Email/).fill('not-an-email');
  await page.getByLabel(/^Message/).fill('Hello, is Threshold still available?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.locator('#contact-email-error, [id$="email-error"]').first()).not.toBeEmpty();
  await expect(page.getByLabel(/^Email/)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel(/^Message/)).toHaveValue('Hello, is Threshold still available?');
});
