// A refund of some of an order's works, as its buyer meets it (issue 27 §3): a guest buys two
// prints, then opens an account with the same address; the owner refunds one of the two from the
// back office's endpoint. The buyer's mail names that work, the amount and its credit note; the
// account page says "paid, partly refunded", marks the refunded work, says how much came back and
// offers the credit note, which downloads. Looked at and axe-checked at 1366 and 390 px. The works
// are not put back on sale, so nothing is published on the storefront's shared shop.
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, type Browser } from '@playwright/test';
import { parseMail, verificationLink } from '../helpers/mail.ts';
import { ownerRequest } from './admin.ts';
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

const WORKS = [
  { key: 'palimpseste', title: 'Palimpseste' },
  { key: 'adriatique-interieure', title: 'Adriatique intérieure' },
] as const;

/** A guest pays for one print of each work on the emulator: the order number. */
async function buyBoth(browser: Browser, email: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = await preparePage(page);
  for (const work of WORKS) {
    const block = (await openQuickView(page, work.key)).locator(
      '[data-variant-block][data-type="print"]',
    );
    await block.getByRole('button', { name: 'Ajouter au panier' }).click();
    await expect(block.getByText('Ajouté au panier')).toBeVisible();
  }
  const number = await payAsGuest(page, {
    name: 'Mariana Sousa',
    email,
    street: 'Rua das Flores 7',
    postalCode: '4050-262',
    city: 'Porto',
    country: 'PT',
  });
  expect(errors).toEqual([]);
  await context.close();
  return number;
}

/** The newest mail to `address` whose text has `marker`, waited for. */
async function mailTo(address: string, marker: string) {
  let found: ReturnType<typeof parseMail> | null = null;
  await expect
    .poll(async () => {
      const names = (await fs.readdir(mailDir()).catch(() => [] as string[])).filter((n) =>
        n.endsWith('.eml'),
      );
      for (const name of names.sort().reverse()) {
        const mail = parseMail(await fs.readFile(path.join(mailDir(), name), 'utf8'));
        const to = /^to:\s*(.*)$/im.exec(mail.headers)?.[1] ?? '';
        if (to.includes(address) && mail.text.includes(marker)) {
          found = mail;
          return true;
        }
      }
      return false;
    })
    .toBe(true);
  return found!;
}

test('a buyer refunded one of two works: the mail, and the account page with its credit note (1366 and 390 px, axe 0)', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `partly-${Date.now().toString(36)}@example.org`;
  const orderNumber = await buyBoth(browser, email);

  // The owner refunds the second work alone, as the order detail's dialog does.
  const owner = await ownerRequest(baseURL!);
  const list = (await (await owner.get(`/api/admin/orders?q=${orderNumber}`)).json()) as {
    orders: { id: string; number: string }[];
  };
  const id = list.orders.find((o) => o.number === orderNumber)!.id;
  const detail = (await (await owner.get(`/api/admin/orders/${id}`)).json()) as {
    order: { lines: { id: number; title: string; unitPriceCents: number }[] };
  };
  const refunded = detail.order.lines.find((l) => l.title.startsWith(WORKS[1].title))!;
  expect(
    (
      await owner.post('/api/admin/reauth', { data: { password: 'atelier de Lisbonne 2026' } })
    ).status(),
  ).toBe(200);
  const refund = await owner.post(`/api/admin/orders/${id}/refund`, {
    data: { items: [refunded.id], restock: false },
  });
  expect(refund.status(), await refund.text()).toBe(200);
  const answer = (await refund.json()) as {
    refundedCents: number;
    creditNote: { number: string };
    mail: string;
  };
  expect(answer.mail).toBe('sent');
  await owner.dispose();
  // As the site writes prices (src/i18n formatPrice): no cents when there are none.
  const amount = new Intl.NumberFormat('fr-FR', {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: answer.refundedCents % 100 === 0 ? 0 : 2,
  }).format(answer.refundedCents / 100);

  const mail = await mailTo(email, `avoir ${answer.creditNote.number}`);
  expect(mail.headers).toMatch(
    new RegExp(`^subject: Remboursement partiel de votre commande ${orderNumber}`, 'im'),
  );
  expect(mail.text).toContain(WORKS[1].title);
  expect(mail.text).not.toContain(WORKS[0].title);

  // The buyer opens an account with the order's address: the order is theirs once verified.
  const errors = await preparePage(page);
  await page.goto('/');
  const password = 'les flores de Porto';
  const signup = await page.request.post('/api/auth/signup', {
    data: { email, password, confirmPassword: password, fullName: 'Mariana Sousa', locale: 'fr' },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  await page.goto(await verificationLink(mailDir(), email));
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
    await page.goto('/account');
    await hydrated(page);
    const order = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: `Commande ${orderNumber}` }),
    });
    await expect(order.getByText('Payé, remboursé en partie', { exact: true })).toBeVisible();
    const lines = order.locator('li').filter({ has: page.locator('p.font-serif') });
    await expect(lines.filter({ hasText: WORKS[1].title })).toContainText('Remboursée');
    await expect(lines.filter({ hasText: WORKS[0].title })).not.toContainText('Remboursée');
    const box = order.locator('[data-refund]');
    await expect(box).toContainText(
      `La galerie vous a remboursé ${amount} sur le moyen de paiement utilisé pour la commande.`,
    );
    const link = box.getByRole('link', {
      name: new RegExp(`^Télécharger l’avoir ${answer.creditNote.number} du `),
    });
    await expect(link).toBeVisible();
    await expect(order.getByRole('link', { name: /^Télécharger la facture F-/ })).toBeVisible();
    await order.scrollIntoViewIfNeeded();
    await settle(page);
    await expectLooksRight(page);
    await expectNoAxeViolations(page);
    await page.screenshot({
      path: test.info().outputPath(`account-partly-refunded-${width}.png`),
      fullPage: true,
    });
    if (width === 1366) {
      const download = await page.request.get((await link.getAttribute('href'))!);
      expect(download.status()).toBe(200);
      expect(download.headers()['content-disposition']).toBe(
        `attachment; filename="avoir-${answer.creditNote.number}.pdf"`,
      );
    }
  }
  expect(errors).toEqual([]);
});
