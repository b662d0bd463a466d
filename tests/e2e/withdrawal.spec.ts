// The withdrawal function end to end (EU Directive 2023/2673; issue 13 point 9; docs/decisions/020
// and 039): a buyer pays through the real checkout and the payment emulator, then — signed out,
// without an account — sends the statement in two steps, reads the acknowledgement (.eml under
// the e2e server's DATA_DIR) and confirms it from the mailed link; a stranger with the number and
// a wrong address sees the very same pages; the same without JavaScript; 'Se rétracter du contrat
// ici' in every page's footer and on /account. Axe (WCAG 2.2 AA) and the computed-style checks on
// every step at 1366 and 390 px in both languages; screenshots for a person to look at go to
// test-results/withdrawal/.
// Works bought here are used by no other spec: palimpseste (print, stock 9), twice.
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import { formatLongDate } from '../../src/domain/dates.ts';
import { parseMail, verificationLink } from '../helpers/mail.ts';
import {
  expectNoAxeViolations,
  hydrated,
  openQuickView,
  payAsGuest,
  preparePage,
  test,
} from './helpers.ts';
import { expectLooksRight, settle } from './look.ts';
import { mailDir } from './shops.ts';

test.describe.configure({ mode: 'serial' });

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SHOTS = path.join(ROOT, 'test-results', 'withdrawal');
const WORK = { key: 'palimpseste', title: 'Palimpseste' };

const SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const TEXT = {
  fr: {
    path: '/retractation',
    link: 'Se rétracter du contrat ici',
    heading: 'Se rétracter du contrat',
    orderNumber: /^Numéro de commande/,
    email: /^Adresse e-mail de la commande/,
    continue: 'Continuer',
    review: 'Vérifiez et confirmez',
    draft:
      'Je notifie par la présente ma rétractation du contrat portant sur la vente des biens de la commande n°',
    statement:
      'Je notifie par la présente ma rétractation du contrat portant sur la vente des biens ci-dessous\u00a0:',
    confirm: 'Confirmer la rétractation',
    sent: 'Déclaration envoyée',
    ack: '/retractation/confirmation?token=',
    linkConfirm: 'Confirmer ma rétractation',
    confirmed: 'Rétractation confirmée',
    mailConfirmed: 'Nous avons bien reçu votre rétractation le',
    done: 'Rétractation enregistrée',
    step: (n: number) => `Étape ${n} sur 2`,
  },
  en: {
    path: '/en/withdrawal',
    link: 'Withdraw from contract here',
    heading: 'Withdraw from the contract',
    orderNumber: /^Order number/,
    email: /^Email address of the order/,
    continue: 'Continue',
    review: 'Check and confirm',
    draft:
      'I hereby give notice that I withdraw from my contract of sale of the goods of order no.',
    statement:
      'I hereby give notice that I withdraw from my contract of sale of the following goods:',
    confirm: 'Confirm withdrawal',
    sent: 'Statement sent',
    ack: '/en/withdrawal/confirmation?token=',
    linkConfirm: 'Confirm my withdrawal',
    confirmed: 'Withdrawal confirmed',
    mailConfirmed: 'We received your withdrawal on',
    done: 'Withdrawal recorded',
    step: (n: number) => `Step ${n} of 2`,
  },
} as const;
type Locale = keyof typeof TEXT;

function freshEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

/** A buyer of their own pays for one print on the emulator; the order number from the success page. */
async function buy(browser: Browser, email: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = await preparePage(page);
  const block = (await openQuickView(page, WORK.key)).locator(
    '[data-variant-block][data-type="print"]',
  );
  await block.getByRole('button', { name: 'Ajouter au panier' }).click();
  await expect(block.getByText('Ajouté au panier')).toBeVisible();
  const number = await payAsGuest(page, {
    name: 'Inês Duarte',
    email,
    phone: '+351 912 345 678',
    street: 'Rua da Rosa 40',
    postalCode: '1200-385',
    city: 'Lisboa',
    country: 'PT',
  });
  await expect(page.getByText('Payé', { exact: true })).toBeVisible();
  // A guest has no orders page to be offered (issue 25 §9); the print's guarantee is the terms'.
  await expect(page.getByRole('link', { name: 'Retour à la galerie' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Voir mes commandes' })).toHaveCount(0);
  await expect(page.getByText('Tirages garantis 30 jours à compter de la réception')).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
  return number;
}

/** The newest mail to `address` whose text has `marker`, waited for (it leaves after the answer). */
async function mailTo(address: string, marker: string): Promise<{ text: string; html: string }> {
  let found: { text: string; html: string } | null = null;
  await expect
    .poll(async () => {
      const names = (await fs.readdir(mailDir()).catch(() => [] as string[])).filter((n) =>
        n.endsWith('.eml'),
      );
      names.sort().reverse();
      for (const name of names) {
        const mail = parseMail(await fs.readFile(path.join(mailDir(), name), 'utf8'));
        const to = /^to:\s*(.*)$/im.exec(mail.headers)?.[1] ?? '';
        const text = mail.text.replace(/\r\n/g, '\n');
        if (!to.includes(address) || !mail.html || !text.includes(marker)) continue;
        found = { text, html: mail.html };
        return true;
      }
      return false;
    })
    .toBe(true);
  return found!;
}

/** The confirmation page's address in a mailed acknowledgement, on this server. */
function linkIn(mail: { text: string }, disown = false): string {
  const urls = [...mail.text.matchAll(/https?:\/\/\S+\/confirmation\?\S+/g)].map((m) => m[0]);
  const url = urls.find((u) => u.includes('action=disown') === disown);
  expect(url, mail.text).toBeTruthy();
  const { pathname, search } = new URL(url!);
  return `${pathname}${search}`;
}

/** The computed-style checks, axe, and a full-page screenshot for a person to look at. */
async function looksRight(page: Page, name: string): Promise<void> {
  await settle(page);
  await expectLooksRight(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function fillStep1(page: Page, locale: Locale, orderNumber: string, email: string) {
  const text = TEXT[locale];
  await page.getByRole('textbox', { name: text.orderNumber }).fill(orderNumber);
  await page.getByRole('textbox', { name: text.email }).fill(email);
  await page.getByRole('button', { name: text.continue }).click();
}

test('a buyer without an account sends the statement and confirms it from the mailed link', async ({
  page,
  browser,
}) => {
  const email = freshEmail('withdraw');
  const orderNumber = await buy(browser, email);
  const errors = await preparePage(page);

  // Both steps, both languages, both widths. Step 2 shows only what was typed: nothing of the
  // order, which anyone knowing its number and address could otherwise read (issue 24, break 1).
  for (const locale of ['fr', 'en'] as const) {
    const text = TEXT[locale];
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(text.path);
      await hydrated(page);
      await expect(page.getByRole('heading', { name: text.heading, level: 1 })).toBeVisible();
      await expect(page.getByText(text.step(1))).toBeVisible();
      await looksRight(page, `step1-${locale}-${size.width}`);
      // The number as a buyer may type it: lower case, spaces around.
      await fillStep1(page, locale, ` ${orderNumber.toLowerCase()} `, email.toUpperCase());
      const review = page.getByRole('heading', { name: text.review, level: 2 });
      await expect(review).toBeVisible();
      await expect(review).toBeFocused();
      await expect(page.getByText(text.step(2))).toBeVisible();
      await expect(page.getByText(orderNumber, { exact: true })).toBeVisible();
      await expect(page.locator('blockquote')).toContainText(text.draft);
      await expect(page.locator('blockquote')).toContainText(orderNumber);
      await expect(page.locator('main')).not.toContainText(WORK.title);
      await expect(page.getByRole('button', { name: text.confirm })).toBeVisible();
      await looksRight(page, `step2-${locale}-${size.width}`);
    }
  }

  // A stranger with the number and a wrong address: the very same pages, and no mail to them.
  await page.goto(TEXT.fr.path);
  await hydrated(page);
  await fillStep1(page, 'fr', orderNumber, 'someone.else@example.org');
  await page.getByRole('button', { name: TEXT.fr.confirm }).click();
  await expect(page.getByRole('heading', { name: TEXT.fr.sent, level: 2 })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(WORK.title);
  // An empty form is checked in the browser, next to its fields.
  await page.goto(TEXT.fr.path);
  await hydrated(page);
  await page.getByRole('button', { name: TEXT.fr.continue }).click();
  await expect(page.getByRole('textbox', { name: TEXT.fr.orderNumber })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(page.getByRole('textbox', { name: TEXT.fr.orderNumber })).toBeFocused();

  // The buyer's own statement, on a phone, in French.
  await page.setViewportSize({ width: 390, height: 844 });
  await fillStep1(page, 'fr', orderNumber, email);
  await page.getByRole('button', { name: TEXT.fr.confirm }).click();
  const sent = page.getByRole('heading', { name: TEXT.fr.sent, level: 2 });
  await expect(sent).toBeVisible();
  await expect(sent).toBeFocused();
  await expect(
    page.getByText(
      /^Votre déclaration de rétractation pour la commande GS-\d{4}-\d{5} a été envoyée le \d{1,2} \S+ \d{4} à \d{2}:\d{2} \(heure de Paris\)\.$/,
    ),
  ).toBeVisible();
  await looksRight(page, 'sent-fr-390');

  // The acknowledgement: the full statement and the two links, to the order's address only.
  const ack = await mailTo(email, TEXT.fr.ack);
  expect(ack.text).toContain(TEXT.fr.statement);
  expect(ack.text).toContain(`Commande n° ${orderNumber}`);
  expect(ack.text).toContain(`${WORK.title} — Tirage d’art`);
  expect(ack.text).toMatch(/le \d{1,2} \S+ \d{4} à \d{2}:\d{2} \(heure de Paris\)/);

  // The link opens a page that asks; opening it changes nothing by itself.
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(linkIn(ack));
    await expect(page.getByText(orderNumber, { exact: true })).toBeVisible();
    await expect(page.locator('main').getByText(WORK.title).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ce n’était pas moi' })).toBeVisible();
    await looksRight(page, `link-fr-${size.width}`);
  }
  await page.getByRole('button', { name: TEXT.fr.linkConfirm }).click();
  await expect(page.getByRole('heading', { name: TEXT.fr.confirmed, level: 2 })).toBeVisible();
  await looksRight(page, 'link-confirmed-fr-390');
  const confirmed = await mailTo(email, TEXT.fr.mailConfirmed);
  expect(confirmed.text).toContain(TEXT.fr.statement);

  // Sending it again later from the form answers the same page, and the link says it is done.
  await page.reload();
  await expect(page.getByRole('heading', { name: TEXT.fr.confirmed, level: 2 })).toBeVisible();
  expect(errors).toEqual([]);
});

test('without JavaScript: the statement is sent, and the mailed link is answered "this was not me"', async ({
  browser,
}) => {
  const email = freshEmail('nojs');
  const orderNumber = await buy(browser, email);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/en/withdrawal');
  await fillStep1(page, 'en', orderNumber, email);
  await expect(page).toHaveURL(/\/en\/withdrawal$/);
  await expect(page.getByRole('heading', { name: TEXT.en.review, level: 2 })).toBeVisible();
  await expect(page.locator('blockquote')).toContainText(TEXT.en.draft);
  await page.getByRole('button', { name: TEXT.en.confirm }).click();
  await expect(page.getByRole('heading', { name: TEXT.en.sent, level: 2 })).toBeVisible();
  await expect(page.getByText(`an email has just left for ${email}`)).toBeVisible();
  const ack = await mailTo(email, TEXT.en.ack);
  expect(ack.text).toContain(TEXT.en.statement);
  expect(ack.text).toContain('(Paris time)');
  await page.goto(linkIn(ack, true));
  await page.getByRole('button', { name: 'This was not me' }).click();
  await expect(page.getByRole('heading', { name: 'Statement set aside', level: 2 })).toBeVisible();
  // The link cannot confirm it afterwards.
  await page.goto(linkIn(ack));
  await expect(page.getByRole('heading', { name: 'Statement set aside', level: 2 })).toBeVisible();
  await expect(page.getByRole('button', { name: TEXT.en.linkConfirm })).toHaveCount(0);
  // A link that is not ours.
  await page.goto('/en/withdrawal/confirmation?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
  await expect(page.getByRole('alert')).toContainText('This link is invalid or has expired.');
  await context.close();
});

test('every page type has the link in its footer, and /account has it too', async ({ page }) => {
  const pages = [
    '/',
    '/gallery',
    '/about',
    '/contact',
    '/privacy',
    '/terms',
    '/panier',
    '/commande',
    '/login',
    '/signup',
    '/forgot-password',
    '/cancel',
    '/retractation',
    '/no-such-page',
  ];
  for (const locale of ['fr', 'en'] as const) {
    const { link, path: target } = TEXT[locale];
    for (const pagePath of pages) {
      const url = locale === 'en' ? (pagePath === '/' ? '/en/' : `/en${pagePath}`) : pagePath;
      await page.goto(url);
      const footer = page.locator('footer');
      await expect(footer.getByRole('link', { name: link }), url).toHaveAttribute('href', target);
    }
  }

  // /account, signed in: the link beside the orders.
  const email = freshEmail('account');
  const password = 'un mot de passe solide';
  const signup = await page.request.post('/api/auth/signup', {
    data: { email, password, confirmPassword: password, fullName: 'Ana Ribeiro', locale: 'fr' },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  // The mail's link, in the browser that signed up, signs in (docs/decisions/038).
  await page.goto(await verificationLink(mailDir(), email));
  await page.goto('/account');
  await expect(page).toHaveURL(/\/account$/);
  const main = page.locator('main');
  await expect(main.getByRole('link', { name: TEXT.fr.link })).toHaveAttribute(
    'href',
    '/retractation',
  );
  await page.goto('/en/account');
  await expect(page.locator('main').getByRole('link', { name: TEXT.en.link })).toHaveAttribute(
    'href',
    '/en/withdrawal',
  );
  // The old spellings lead to the page.
  await page.goto('/en/retractation');
  await expect(page).toHaveURL(/\/en\/withdrawal$/);
  await page.goto('/withdrawal');
  await expect(page).toHaveURL(/\/retractation$/);
});

test('a signed-in buyer withdraws from /account at once, without a mail round trip', async ({
  page,
  browser,
}) => {
  // A guest order, then an account with the same address, verified: the order is theirs.
  const email = freshEmail('signedin');
  const orderNumber = await buy(browser, email);
  const errors = await preparePage(page);
  await page.goto('/');
  const password = 'un mot de passe solide';
  const signup = await page.request.post('/api/auth/signup', {
    data: { email, password, confirmPassword: password, fullName: 'Inês Duarte', locale: 'fr' },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  await page.goto(await verificationLink(mailDir(), email));
  await page.goto('/account');
  await hydrated(page);
  await page.getByRole('link', { name: `Se rétracter de cette commande (${orderNumber})` }).click();
  await expect(page).toHaveURL(/\/retractation\?order=/);
  await hydrated(page);
  await expect(page.getByRole('textbox', { name: TEXT.fr.orderNumber })).toHaveValue(orderNumber);
  await expect(page.getByRole('textbox', { name: TEXT.fr.email })).toHaveValue(email);
  await page.getByRole('button', { name: TEXT.fr.continue }).click();
  // Their own order: its works and the full statement.
  await expect(page.getByRole('heading', { name: TEXT.fr.review, level: 2 })).toBeVisible();
  await expect(page.locator('main').getByText(WORK.title).first()).toBeVisible();
  await expect(page.locator('blockquote')).toContainText(TEXT.fr.statement);
  await page.getByRole('button', { name: TEXT.fr.confirm }).click();
  await expect(page.getByRole('heading', { name: TEXT.fr.done, level: 2 })).toBeVisible();
  await expect(
    page.getByText(`Un e-mail de confirmation vient d’être envoyé à ${email}`),
  ).toBeVisible();
  await looksRight(page, 'done-account-fr-1366');
  const mail = await mailTo(email, TEXT.fr.mailConfirmed);
  expect(mail.text).toContain(`Commande n° ${orderNumber}`);
  // The account page shows it on the order, with the statement's date (issue 25 §9).
  await page.goto('/account');
  await hydrated(page);
  const order = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { name: `Commande ${orderNumber}` }),
  });
  const withdrawal = order.locator('[data-withdrawal="confirmed"]');
  await expect(withdrawal).toContainText('Rétractation confirmée');
  // As the page writes it ('1er décembre 2026' on the first of a month).
  const today = formatLongDate('fr', new Date());
  await expect(withdrawal).toContainText(`Déclaration du ${today} à`);
  await expect(order.getByRole('link', { name: /^Se rétracter de cette commande/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  expect(errors).toEqual([]);
});
