// "Ask about this work" and the owner's Messages (issue 25, docs/decisions/042), in the browser:
// an enquiry typed on a work's page reaches the gallery's mailbox (the server's .eml files), the
// dashboard's unread count and the Messages screen, where opening it marks it read. Then the
// look of the enquiry form (on a work page) and of the Messages screen at 1366 and 390 px, with
// axe. In the owner's project (playwright.config.ts): no other spec writes messages to its shop,
// so the screen shows exactly what these tests sent.
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, useOwner } from './admin.ts';
import { expectNoAxeViolations, expectTallLinks, hydrated, preparePage, test } from './helpers.ts';
import { expectLooksRight, settle } from './look.ts';
import { parseMail } from '../helpers/mail.ts';
import { mailDir } from './shops.ts';

test.describe.configure({ mode: 'serial' });
// The owner's account exists once this has signed in (the first spec to need it accepts the
// invitation).
useOwner();

const WORK = { key: 'le-grand-large', title: 'Le grand large' };
const SIZES = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;
const run = Date.now().toString(36);

/** The mails the gallery received that mention `text`. */
async function mailsWith(text: string) {
  const dir = mailDir();
  const files = await fs.readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    files
      .filter((f) => f.endsWith('.eml'))
      .map(async (f) => parseMail(await fs.readFile(path.join(dir, f), 'utf8'))),
  );
  return mails.filter((m) => m.headers.includes(text) || m.text.includes(text));
}

async function signIn(page: Page, target: string): Promise<void> {
  await page.goto(target);
  await expect(page).toHaveURL(/\/admin\/login\?redirect=/);
  await page.getByLabel(/^Email/).fill(E2E_ADMIN.email);
  await page.getByLabel(/^Mot de passe/).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(new RegExp(`${target.replace(/[?]/g, '\\?')}$`));
  await hydrated(page);
}

async function sendEnquiry(page: Page, name: string, email: string, message: string) {
  const form = page.locator('#enquiry');
  await form.getByLabel(/^Nom/).fill(name);
  await form.getByLabel(/^E-mail/).fill(email);
  await form.getByLabel(/^Message/).fill(message);
  await form.getByRole('button', { name: 'Envoyer la demande' }).click();
  await expect(form.getByRole('status')).toHaveText(
    'Merci, votre message a bien été envoyé. La galerie vous répondra par e-mail.',
  );
}

/** One message on the screen, by its sender's name. */
const messageOf = (page: Page, name: string): Locator =>
  page.locator('main li[data-message]').filter({ hasText: name });

test('an enquiry sent from a work page reaches the mailbox, the dashboard and Messages', async ({
  page,
}) => {
  const errors = await preparePage(page);
  const sender = { name: 'Inès Collectionneuse', email: `ines.${run}@example.com` };
  await page.goto(`/oeuvres/${WORK.key}`);
  const section = page.locator('#enquiry');
  await expect(section.getByRole('heading', { name: 'Demander des informations' })).toBeVisible();
  await expect(section.locator('[data-enquiry-work]')).toContainText(WORK.title);
  await sendEnquiry(page, sender.name, sender.email, 'L’original est-il encadré ? Merci.');
  await expect(section.getByLabel(/^Message/)).toHaveValue('');

  // The gallery's mailbox: the work named as the database has it, the reply going to the sender.
  await expect.poll(async () => (await mailsWith(sender.email)).length).toBe(1);
  const [mail] = await mailsWith(sender.email);
  expect(mail!.text).toContain(`Œuvre\u00a0: ${WORK.title}`);
  expect(mail!.text).toContain('L’original est-il encadré ? Merci.');

  // The dashboard counts it and leads to the unread messages.
  await signIn(page, '/admin/dashboard');
  const unread = page.locator('a[data-unread-messages]');
  await expect(unread).toHaveAttribute('data-unread-messages', /^[1-9]\d*$/);
  const before = Number(await unread.getAttribute('data-unread-messages'));
  await unread.click();
  await expect(page).toHaveURL(/\/admin\/messages\?filter=unread$/);
  await hydrated(page);
  const item = messageOf(page, sender.name);
  await expect(item).toContainText('Non lu');
  await expect(item).toContainText('Demande sur une œuvre');
  await expect(item.getByRole('link', { name: WORK.title })).toHaveAttribute(
    'href',
    `/oeuvres/${WORK.key}`,
  );
  const reply = item.getByRole('link', { name: /^Répondre/ });
  await expect(reply).toHaveAttribute(
    'href',
    `mailto:${sender.email}?subject=${encodeURIComponent(`Votre demande sur « ${WORK.title} »`)}`,
  );

  // Opening it marks it read, on the screen and on the server; it can be made unread again.
  await item.getByRole('button', { name: 'Lire' }).click();
  await expect(item).toContainText('Lu');
  await expect(item.getByRole('button', { name: 'Marquer comme non lu' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Non lus (${before - 1})` })).toBeVisible();
  await page.goto('/admin/dashboard');
  await expect(page.locator('a[data-unread-messages]')).toHaveAttribute(
    'data-unread-messages',
    String(before - 1),
  );
  await page.goto('/admin/messages');
  await hydrated(page);
  const again = messageOf(page, sender.name);
  await again.getByRole('button', { name: 'Marquer comme non lu' }).click();
  await expect(again.getByRole('button', { name: 'Marquer comme lu' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Non lus (${before})` })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a work page’s enquiry form works without JavaScript', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: baseURL! });
  const page = await context.newPage();
  const email = `sans-js.${run}@example.com`;
  await page.goto(`/en/works/${WORK.key}`);
  const form = page.locator('#enquiry');
  await form.getByLabel(/^Name/).fill('No Script');
  await form.getByLabel(/^Email/).fill(email);
  await form.getByLabel(/^Message/).fill('Is the original framed?');
  await form.getByRole('button', { name: 'Send enquiry' }).click();
  await expect(page).toHaveURL(new RegExp(`/en/works/${WORK.key}#enquiry-result-sent$`));
  await expect(page.locator('#enquiry-result-sent')).toBeVisible();
  await expect.poll(async () => (await mailsWith(email)).length).toBe(1);
  await context.close();
});

for (const size of SIZES) {
  test(`the look at ${size.width} px: the enquiry form on a work page and the Messages screen`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const errors = await preparePage(page);
    await page.goto(`/oeuvres/${WORK.key}`);
    const section = page.locator('#enquiry');
    // An error shown, as a visitor who forgot the address sees it.
    await section.getByLabel(/^Nom/).fill('Camille');
    await section.getByRole('button', { name: 'Envoyer la demande' }).click();
    await expect(page.locator('#enquiry-email-error')).not.toBeEmpty();
    await settle(page);
    await expectLooksRight(page);
    await expectNoAxeViolations(page);
    // The sticky header (and its promo banner) would cover the section's top in the picture: it
    // stays at the page's top instead (through the CSSOM, which the page's CSP allows).
    await page.evaluate(() => {
      for (const header of document.querySelectorAll('header')) header.style.position = 'static';
    });
    await expect(section).toHaveScreenshot(`enquiry-form-${size.width}.png`, {
      animations: 'disabled',
      threshold: 0.25,
      maxDiffPixelRatio: 0.02,
    });

    await signIn(page, '/admin/messages');
    await expect(page.locator('main li[data-message]').first()).toBeVisible();
    await settle(page);
    await expectLooksRight(page);
    await expectNoAxeViolations(page);
    if (size.width < 640) await expectTallLinks(page);
    await expect(page).toHaveScreenshot(`messages-${size.width}.png`, {
      fullPage: true,
      animations: 'disabled',
      // Dates and the run's addresses change from run to run; the publish pill names what the
      // shop's other specs last changed.
      mask: [
        page.locator('main time'),
        page.locator('main li[data-message] h2 > span + span'),
        page.locator('[data-publish-status]'),
      ],
      maskColor: '#d9d4cc',
      threshold: 0.25,
      maxDiffPixelRatio: 0.02,
    });
    expect(errors).toEqual([]);
  });
}
