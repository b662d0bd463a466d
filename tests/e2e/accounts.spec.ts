// Accounts end to end (storefront §2 Login and signup, Account; §4, §5, §8, §9; docs/accounts-api.md):
// signup with the spec's checks ending on "check your mailbox" (no session before the address is
// verified, docs/decisions/038), the mail's link signing in the browser that signed up, login back
// to the attempted page, a purchase made signed in and found on /account, logout and the guard;
// the password reset link from the mail (used once) and the e-mail verification link opened
// elsewhere; axe on every account page in both languages. Each test signs up its own fresh address. Works bought here are used by no other spec:
//   adriatique-interieure (print, stock 12).
// Mails are .eml files under the e2e server's DATA_DIR (tests/e2e/serve.ts, shops.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { parseMail } from '../helpers/mail.ts';
import { expectNoAxeViolations, hydrated, openQuickView, preparePage, test } from './helpers.ts';
import { mailDir } from './shops.ts';

const PAYING_CARD = '4242 4242 4242 4242';

/** A new address per test and per run: signup never meets an account left by an earlier one. */
function freshEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

const TEXT = {
  fr: {
    fullName: 'Nom complet',
    password: /^Mot de passe/,
    newPassword: /^Nouveau mot de passe/,
    confirm: /^Confirmer le mot de passe/,
    signup: 'Créer mon compte',
    login: 'Se connecter',
    logout: 'Se déconnecter',
    signupDone: 'Consultez votre boîte mail',
    loginDone: 'Connexion réussie ! Redirection...',
    wrong: 'Email ou mot de passe incorrect.',
    confirmed: 'Merci, votre adresse email est confirmée.',
  },
  en: {
    fullName: 'Full name',
    password: /^Password/,
    newPassword: /^New password/,
    confirm: /^Confirm password/,
    signup: 'Create my account',
    login: 'Log in',
    logout: 'Log out',
    signupDone: 'Check your inbox',
    loginDone: 'Login successful! Redirecting...',
    wrong: 'Invalid email or password.',
    confirmed: 'Thank you, your email address is confirmed.',
  },
} as const;

type Locale = keyof typeof TEXT;
const prefix = (locale: Locale) => (locale === 'en' ? '/en' : '');

/** Fills and sends the signup form (already open and hydrated). */
async function submitSignup(page: Page, locale: Locale, email: string, password: string) {
  const text = TEXT[locale];
  await page.getByRole('textbox', { name: text.fullName }).fill('Ana Ribeiro');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel(text.password).fill(password);
  await page.getByLabel(text.confirm).fill(password);
  await page.getByRole('button', { name: text.signup }).click();
}

/** A new account through /signup; ends on its "check your mailbox" state, signed out. */
async function signUp(page: Page, locale: Locale, email: string, password: string) {
  await page.goto(`${prefix(locale)}/signup`);
  await hydrated(page);
  await submitSignup(page, locale, email, password);
  const status = page.getByRole('status');
  await expect(status.getByText(TEXT[locale].signupDone)).toBeVisible();
  await expect(status).toContainText(email);
  // No redirect and no session: the account opens from the mail's link.
  await expect(page).toHaveURL(new RegExp(`${prefix(locale)}/signup$`));
}

/** A new account, signed in as its owner would: the mail's link opened in this browser. */
async function signUpAndConfirm(page: Page, locale: Locale, email: string, password: string) {
  await signUp(page, locale, email, password);
  await page.goto(await mailedLink(email, '/api/auth/verify-email?token='));
  await expect(page).toHaveURL(new RegExp(`${prefix(locale)}/account\\?emailVerified=1$`));
}

/** The address verified by its link opened somewhere else (a phone): nobody signed in by it. */
async function confirmElsewhere(email: string) {
  const link = await mailedLink(email, '/api/auth/verify-email?token=');
  const opened = await fetch(link, { redirect: 'manual' });
  expect(opened.status).toBe(303);
  expect(opened.headers.get('location')).toMatch(/\/login\?emailVerified=1$/);
}

/** Fills and sends the login form of the page (already open). */
async function submitLogin(page: Page, locale: Locale, email: string, password: string) {
  await hydrated(page);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel(TEXT[locale].password).fill(password);
  await page.getByRole('button', { name: TEXT[locale].login }).click();
}

/** The link containing `marker` in the newest mail to `address` that has one, or null. */
async function linkInNewestMail(address: string, marker: string): Promise<string | null> {
  const names = await fs.readdir(mailDir()).catch(() => [] as string[]);
  const files = await Promise.all(
    names
      .filter((name) => name.endsWith('.eml'))
      .map(async (name) => {
        const file = path.join(mailDir(), name);
        return { file, mtime: (await fs.stat(file)).mtimeMs };
      }),
  );
  files.sort((a, b) => b.mtime - a.mtime || b.file.localeCompare(a.file));
  for (const { file } of files) {
    const { headers, text: body, html } = parseMail(await fs.readFile(file, 'utf8'));
    // Every mail has both bodies (issue 9): HTML with a plain-text alternative.
    expect(html, 'HTML body').not.toBeNull();
    const to = /^to:\s*(.*)$/im.exec(headers)?.[1] ?? '';
    if (!to.toLowerCase().includes(address.toLowerCase())) continue;
    const link = body.split(/\s+/).find((word) => word.startsWith('http') && word.includes(marker));
    if (link) return link;
  }
  return null;
}

/** Waits for the mail (sent after the answer) and returns its link. */
async function mailedLink(address: string, marker: string): Promise<string> {
  let link: string | null = null;
  await expect.poll(async () => (link = await linkInNewestMail(address, marker))).not.toBeNull();
  return link!;
}

/** Opens a work's quick view in the gallery and adds its print to the cart. */
async function addPrintFromGallery(page: Page, work: string) {
  const block = (await openQuickView(page, work)).locator(
    '[data-variant-block][data-type="print"]',
  );
  await block.getByRole('button', { name: 'Ajouter au panier' }).click();
  await expect(block.getByText('Ajouté au panier')).toBeVisible();
}

test('sign up, log in, buy a print signed in, find it on /account, log out', async ({ page }) => {
  const errors = await preparePage(page);
  const email = freshEmail('buyer');
  const password = 'toile-de-lin-74';

  // Signup: the spec's checks, in its words, next to their fields; nothing sent meanwhile.
  let signupCalls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/auth/signup')) signupCalls++;
  });
  await page.goto('/signup');
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Créer un compte', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Nom complet' }).fill('Ana Ribeiro');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel(/^Mot de passe/).fill('abc');
  await page.getByLabel(/^Confirmer le mot de passe/).fill('abd');
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(page.getByText('Le mot de passe doit contenir au moins 6 caractères')).toBeVisible();
  await expect(page.getByText('Les mots de passe ne correspondent pas')).toBeVisible();
  await expect(page.getByLabel(/^Mot de passe/)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel(/^Mot de passe/)).toBeFocused();
  expect(signupCalls).toBe(0);
  await page.getByLabel(/^Mot de passe/).fill(password);
  await page.getByLabel(/^Confirmer le mot de passe/).fill(password);
  await expect(page.getByText('Les mots de passe ne correspondent pas')).toBeHidden();
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  // "Check your mailbox", the address shown back; no session, no redirect (decision 038).
  await expect(page.getByRole('status')).toContainText(TEXT.fr.signupDone);
  await expect(page.getByRole('status')).toContainText(`envoyer à ${email}`);
  await expect(page.getByRole('status')).toContainText('vous connecte aussitôt');
  await expect(page).toHaveURL(/\/signup$/);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('signup-check-your-mailbox.png') });

  // The account page sends a signed-out visitor to login; before the link is opened the right
  // password is refused like a wrong one, with a word about the confirmation link.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login\?redirect=\/account$/);
  await submitLogin(page, 'fr', email, password);
  const refused = page.getByRole('alert').filter({ hasText: TEXT.fr.wrong });
  await expect(refused).toContainText('ouvrez d’abord le lien de confirmation');
  await expectNoAxeViolations(page);

  // The mail's link, in this browser: the address confirmed and the buyer signed in.
  await page.goto(await mailedLink(email, '/api/auth/verify-email?token='));
  await expect(page).toHaveURL(/\/account\?emailVerified=1$/);
  await hydrated(page);
  await expect(page.getByText(TEXT.fr.confirmed)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Mon compte', level: 1 })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByText('Ana Ribeiro')).toBeVisible();
  await expect(page.getByText('Vous n’avez pas d’abonnement.')).toBeVisible();
  await expect(page.getByText('Vous n’avez pas encore passé de commande.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Découvrir la galerie' })).toHaveAttribute(
    'href',
    '/gallery',
  );
  await expect(page.getByText(/pas encore confirmée/)).toBeHidden();

  // A print bought while signed in.
  await addPrintFromGallery(page, 'adriatique-interieure');
  await page.goto('/panier');
  await hydrated(page);
  await page.getByRole('link', { name: 'Passer la commande' }).click();
  await expect(page).toHaveURL(/\/commande$/);
  await hydrated(page);
  // Signed in (issue 25 §9): the account's name and email are there already; no order yet, so
  // no address.
  await expect(page.getByRole('textbox', { name: 'Nom complet' })).toHaveValue('Ana Ribeiro');
  await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue(email);
  await expect(page.getByRole('textbox', { name: 'Adresse', exact: true })).toHaveValue('');
  await expect(page.getByText('Vos coordonnées sont déjà remplies')).toBeVisible();
  await page.getByRole('textbox', { name: 'Adresse', exact: true }).fill('Rua do Norte 12');
  await page.getByRole('textbox', { name: 'Code postal' }).fill('1200-286');
  await page.getByRole('textbox', { name: 'Ville' }).fill('Lisboa');
  await page.getByRole('combobox', { name: 'Pays' }).selectOption('PT');
  await page.getByRole('checkbox', { name: /conditions générales de vente/ }).check();
  await page.getByRole('button', { name: /^Commander avec obligation de paiement/ }).click();
  await expect(page).toHaveURL(/\/emulator\/checkout\/cs_/);
  await page.locator('#card_number').fill(PAYING_CARD);
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: /^(Payer|Pay) / }).click();
  await expect(page).toHaveURL(/\/success\?session_id=cs_/);
  await expect(page.getByRole('heading', { name: 'Paiement confirmé', level: 1 })).toBeVisible();
  const orderNumber = (await page.getByText(/^GS-\d{4}-\d{5}$/).textContent())!.trim();
  // A print: the terms' print guarantee, with its section of the terms (issue 25 §9).
  await expect(page.getByText('Tirages garantis 30 jours à compter de la réception')).toBeVisible();
  await expect(
    page.getByRole('link', { name: 'Conditions de vente : garantie qualité des tirages' }),
  ).toHaveAttribute('href', '/terms#garantie-qualité-des-tirages');
  const total = (await page
    .locator('dt', { hasText: /^Total$/ })
    .locator('xpath=following-sibling::dd')
    .textContent())!.trim();

  // "See my orders": the order is there, and the list is asked again 2 s later (§9).
  const reload = page.waitForRequest(
    (request) => request.url().endsWith('/api/account/orders') && request.method() === 'GET',
  );
  await page.getByRole('link', { name: 'Voir mes commandes' }).click();
  await expect(page).toHaveURL(/\/account\?from=success$/);
  await reload;
  const order = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { name: `Commande ${orderNumber}` }),
  });
  await expect(order).toBeVisible();
  await expect(order.getByText('Payé', { exact: true })).toBeVisible();
  // The work bought and the total; no payment provider id (issue 9).
  await expect(order.getByText('Adriatique intérieure')).toBeVisible();
  await expect(order).not.toContainText(/cs_|pi_/);
  await expect(order.getByText(total, { exact: true }).last()).toBeVisible();
  await expect(page.getByText('Vous n’avez pas encore passé de commande.')).toBeHidden();

  // The next checkout starts from this order's address, editable (issue 25 §9).
  await addPrintFromGallery(page, 'adriatique-interieure');
  await page.goto('/commande');
  await hydrated(page);
  await expect(
    page.getByText('l’adresse de votre dernière commande sont déjà remplies'),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Adresse', exact: true })).toHaveValue(
    'Rua do Norte 12',
  );
  await expect(page.getByRole('textbox', { name: 'Code postal' })).toHaveValue('1200-286');
  await expect(page.getByRole('textbox', { name: 'Ville' })).toHaveValue('Lisboa');
  await expect(page.getByRole('combobox', { name: 'Pays' })).toHaveValue('PT');
  await page.getByRole('textbox', { name: 'Ville' }).fill('Porto');
  await expect(page.getByRole('textbox', { name: 'Ville' })).toHaveValue('Porto');
  await page.goto('/account');
  await hydrated(page);

  // Logout: home, then the account page is closed again.
  await page.getByRole('button', { name: 'Se déconnecter' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login\?redirect=\/account$/);
  await expect(page.getByRole('heading', { name: 'Connexion', level: 1 })).toBeVisible();
  // Login brings them back to the page they wanted.
  await submitLogin(page, 'fr', email, 'not-the-password');
  await expect(page.getByRole('alert').filter({ hasText: TEXT.fr.wrong })).toBeVisible();
  await page.getByLabel(/^Mot de passe/).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('status')).toContainText(TEXT.fr.loginDone);
  await expect(page).toHaveURL(/\/account$/);
  expect(errors).toEqual([]);
});

test('the reset link sets a new password once; the verification link confirms the address (English)', async ({
  page,
}) => {
  const errors = await preparePage(page);
  const email = freshEmail('reset');
  const oldPassword = 'first-password-1';
  const newPassword = 'second-password-2';
  await signUp(page, 'en', email, oldPassword);

  // Forgot password: the same neutral answer for anyone.
  await page.goto('/en/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/en\/forgot-password$/);
  await hydrated(page);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists with this address');

  // The mailed link (quoted-printable may wrap it) sets the new password…
  const link = await mailedLink(email, '/en/reset-password?token=');
  await page.goto(link);
  await hydrated(page);
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel(/^Confirm password/).fill('something-else');
  await page.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel(/^Confirm password/).fill(newPassword);
  await page.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been changed.');
  await expect(page.getByRole('link', { name: 'Log in' }).last()).toHaveAttribute(
    'href',
    '/en/login',
  );

  // …once: the same link a second time is refused, with a way to ask for a new one.
  await page.goto(link);
  await hydrated(page);
  await page.getByLabel(/^New password/).fill('third-password-3');
  await page.getByLabel(/^Confirm password/).fill('third-password-3');
  await page.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByText('This link is no longer valid')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
    'href',
    '/en/forgot-password',
  );

  // The verification link, opened in another browser (a phone): confirmed, nobody signed in by
  // it; the login page says so, and the password signs in.
  const verify = await mailedLink(email, '/api/auth/verify-email?token=');
  const phone = await page.context().browser()!.newContext();
  const other = await phone.newPage();
  await other.goto(verify);
  await expect(other).toHaveURL(/\/en\/login\?emailVerified=1$/);
  await expect(other.getByRole('status').first()).toContainText('Your email address is confirmed.');
  await expectNoAxeViolations(other);
  await submitLogin(other, 'en', email, oldPassword);
  await expect(other.getByRole('alert').filter({ hasText: TEXT.en.wrong })).toBeVisible();
  await other.getByLabel(/^Password/).fill(newPassword);
  await other.getByRole('button', { name: 'Log in' }).click();
  await expect(other.getByRole('status').last()).toContainText(TEXT.en.loginDone);
  await expect(other).toHaveURL(/\/en\/$/);
  await other.goto('/en/account');
  await expect(other.getByText(/not confirmed yet/)).toBeHidden();
  await phone.close();
  // The same link again, in the browser that signed up: used, and the login page says what now.
  await page.goto(verify);
  await expect(page).toHaveURL(/\/en\/login\?emailVerified=0$/);
  await expect(page.getByRole('status').first()).toContainText('no longer valid');
  await expectNoAxeViolations(page);
  expect(errors).toEqual([]);
});

test('account pages have no axe violation in both languages; signed in, /login goes to the account', async ({
  page,
}) => {
  const errors = await preparePage(page);
  for (const locale of ['fr', 'en'] as const) {
    const at = prefix(locale);
    const text = TEXT[locale];

    await page.goto(`${at}/signup`);
    await hydrated(page);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expectNoAxeViolations(page);
    // Every field in error.
    await page.getByRole('button', { name: text.signup }).click();
    await expect(page.locator('[aria-invalid="true"]')).toHaveCount(4);
    await expectNoAxeViolations(page);

    await page.goto(`${at}/login`);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expectNoAxeViolations(page);
    await submitLogin(page, locale, freshEmail('nobody'), 'whatever-password');
    await expect(page.getByRole('alert').filter({ hasText: text.wrong })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto(`${at}/forgot-password`);
    await hydrated(page);
    await expectNoAxeViolations(page);
    await page.getByRole('textbox', { name: 'Email' }).fill(freshEmail('nobody'));
    await page
      .getByRole('button', { name: locale === 'en' ? 'Send the link' : 'Envoyer le lien' })
      .click();
    await expect(page.getByRole('status')).not.toBeEmpty();
    await expectNoAxeViolations(page);

    await page.goto(`${at}/reset-password`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expectNoAxeViolations(page);
    await page.goto(`${at}/reset-password?token=not-a-real-token`);
    await hydrated(page);
    await expectNoAxeViolations(page);
    const save = page.getByRole('button', {
      name: locale === 'en' ? 'Save the password' : 'Enregistrer le mot de passe',
    });
    await save.click();
    await expect(page.locator('[aria-invalid="true"]')).toHaveCount(2);
    await expectNoAxeViolations(page);
    await page.getByLabel(text.newPassword).fill('a-new-password');
    await page.getByLabel(text.confirm).fill('a-new-password');
    await save.click();
    await expect(
      page.getByRole('link', {
        name: locale === 'en' ? 'Request a new link' : 'Demander un nouveau lien',
      }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
  }

  // Signed in: the account page in both languages; /login and /signup lead to it.
  const email = freshEmail('axe');
  await signUpAndConfirm(page, 'fr', email, 'pinceau-et-couteau');
  for (const locale of ['fr', 'en'] as const) {
    const at = prefix(locale);
    await page.goto(`${at}/account`);
    await hydrated(page);
    await expect(page.getByRole('button', { name: TEXT[locale].logout })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expectNoAxeViolations(page);
    await page.goto(`${at}/login`);
    await expect(page).toHaveURL(new RegExp(`${at}/account$`));
    await page.goto(`${at}/signup`);
    await expect(page).toHaveURL(new RegExp(`${at}/account$`));
  }
  // The header's account link, on a prerendered page too.
  await page.goto('/en/gallery');
  await expect(page.getByRole('link', { name: 'Account', exact: true })).toHaveAttribute(
    'href',
    '/en/account',
  );
  expect(errors).toEqual([]);
});

test('the login page only follows a redirect to this site', async ({ page }) => {
  const errors = await preparePage(page);
  const email = freshEmail('redirect');
  await signUp(page, 'fr', email, 'atelier-lisboa');
  await confirmElsewhere(email);
  await page.goto('/login?redirect=//evil.example/account');
  await submitLogin(page, 'fr', email, 'atelier-lisboa');
  await expect(page.getByRole('status')).toContainText(TEXT.fr.loginDone);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(errors).toEqual([]);
});

test('an administrator invitation link that is unknown says so; the page has no axe violation', async ({
  page,
}) => {
  const errors = await preparePage(page);
  await page.goto('/admin/invitation');
  await expect(page.getByText('Ce lien d’invitation est incomplet.')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/admin/invitation?token=not-a-real-invitation');
  await hydrated(page);
  await expectNoAxeViolations(page);
  await page.getByRole('textbox', { name: 'Nom complet' }).fill('Sasha Kovač');
  await page.getByLabel(/^Mot de passe/).fill('atelier-admin-1');
  await page.getByLabel(/^Confirmer le mot de passe/).fill('atelier-admin-2');
  await page.getByRole('button', { name: 'Créer le compte' }).click();
  await expect(page.getByText('Les mots de passe ne correspondent pas')).toBeVisible();
  await page.getByLabel(/^Confirmer le mot de passe/).fill('atelier-admin-1');
  await page.getByRole('button', { name: 'Créer le compte' }).click();
  await expect(page.getByRole('status')).toContainText('Cette invitation n’est plus valide');
  await expectNoAxeViolations(page);
  expect(errors).toEqual([]);
});
