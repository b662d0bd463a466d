// Issue 24, "The owner's account" (docs/decisions/037), as a new administrator lives it: invited by
// the owner, they invite someone in turn — the re-authentication dialog asks for their password —
// then follow the dashboard's nudge, set up two-factor authentication with an authenticator app
// (the codes computed here with @oslojs/otp from the key the page shows), note their recovery
// codes, and from then on sign in with a code after the password.
import { generateHOTP } from '@oslojs/otp';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { expect } from '@playwright/test';
import { confirmIdentityIfAsked, E2E_ADMIN, useOwner } from './admin.ts';
import { expectNoAxeViolations, hydrated, preparePage, test } from './helpers.ts';

const ownerOf = useOwner();
const run = Date.now().toString(36);
const NEWCOMER = {
  email: `associee-${run}@galerie.test`,
  password: 'une clé de secours 2026',
  name: 'Camille Associée',
};
const stepOf = () => Math.floor(Date.now() / 30_000);

test('a new administrator sets up two-factor authentication and signs in with a code', async ({
  page,
  baseURL,
}) => {
  const errors = await preparePage(page);
  // The owner invites the newcomer through the API: a re-authentication first, as the dialog does.
  const owner = ownerOf();
  const refused = await owner.post('/api/admin/invitations', { data: { email: NEWCOMER.email } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ error: { code: 'reauth_required' } });
  expect(
    (await owner.post('/api/admin/reauth', { data: { password: E2E_ADMIN.password } })).status(),
  ).toBe(200);
  const invited = await owner.post('/api/admin/invitations', { data: { email: NEWCOMER.email } });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = new URL(((await invited.json()) as { url: string }).url).searchParams.get('token');
  const accepted = await page.request.post('/api/admin/invitations/accept', {
    headers: { Origin: baseURL! },
    data: {
      token,
      fullName: NEWCOMER.name,
      password: NEWCOMER.password,
      confirmPassword: NEWCOMER.password,
    },
  });
  expect(accepted.status()).toBe(201);

  // The dashboard asks for a second factor until there is one.
  await page.goto('/admin/dashboard');
  await hydrated(page);
  const nudge = page.getByRole('link', {
    name: /^Protégez votre compte avec la double authentification/,
  });
  await expect(nudge).toBeVisible();
  await nudge.click();
  await expect(page).toHaveURL(/\/admin\/security$/);
  await hydrated(page);

  // Inviting is sensitive: the dialog asks for the password, then the invitation is made.
  const inviteForm = page.getByRole('region', { name: 'Inviter un administrateur' });
  await inviteForm
    .getByLabel('Adresse email de la personne à inviter')
    .fill(`troisieme-${run}@galerie.test`);
  await inviteForm.getByRole('button', { name: 'Créer l’invitation' }).click();
  const reauth = page.getByRole('dialog', { name: 'Confirmez votre identité' });
  await expect(reauth).toBeVisible();
  await expect(reauth.getByLabel('Mot de passe', { exact: true })).toBeFocused();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('reauth-dialog-1366.png') });
  await reauth.getByLabel('Mot de passe', { exact: true }).fill('pas le bon mot de passe');
  await reauth.getByRole('button', { name: 'Confirmer' }).click();
  await expect(reauth.getByRole('alert')).toHaveText('Mot de passe incorrect');
  await confirmIdentityIfAsked(page, page.getByTestId('invitation-link'), {
    password: NEWCOMER.password,
  });
  await expect(page.getByTestId('invitation-link')).toContainText('/admin/invitation?token=');

  // Two-factor authentication: the key to type, then a first code from the app.
  const twoFactor = page.getByRole('region', { name: 'Double authentification' });
  await twoFactor.getByRole('button', { name: 'Activer la double authentification' }).click();
  const secret = page.getByTestId('totp-secret');
  await expect(secret).toHaveText(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  await expect(
    twoFactor.getByRole('link', { name: 'Ajouter à l’application d’authentification' }),
  ).toHaveAttribute('href', /^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}/);
  const key = decodeBase32IgnorePadding((await secret.textContent())!.replaceAll(' ', ''));
  await page.screenshot({
    path: test.info().outputPath('security-setup-1366.png'),
    fullPage: true,
  });
  // On a phone the link that opens the authenticator app is a 44 px tall target.
  await page.setViewportSize({ width: 390, height: 844 });
  const appLink = twoFactor.getByRole('link', {
    name: 'Ajouter à l’application d’authentification',
  });
  expect((await appLink.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoAxeViolations(page);
  await page.screenshot({
    path: test.info().outputPath('security-setup-390.png'),
    fullPage: true,
  });
  await page.setViewportSize({ width: 1366, height: 900 });
  const setupStep = stepOf();
  await twoFactor
    .getByLabel('Code de l’application d’authentification')
    .fill(generateHOTP(key, BigInt(setupStep), 6));
  await twoFactor.getByRole('button', { name: 'Vérifier et activer' }).click();
  await expect(page.getByText('La double authentification est activée.')).toBeVisible();
  const codes = page.getByRole('list', { name: 'Codes de secours' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(codes.first()).toHaveText(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
  await expectNoAxeViolations(page);
  await page.screenshot({
    path: test.info().outputPath('security-codes-1366.png'),
    fullPage: true,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('security-codes-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });

  // Signed out, the password alone no longer opens the back office: the code does.
  await page.context().clearCookies();
  await page.goto('/admin/login');
  await hydrated(page);
  await page.getByLabel(/^Email/).fill(NEWCOMER.email);
  await page.getByLabel(/^Mot de passe/).fill(NEWCOMER.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  const code = page.getByLabel(/^Code de l’application d’authentification/);
  await expect(code).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Double authentification' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('login-code-1366.png') });
  // The setup's code is spent; the next step's is accepted (one step of leeway).
  await code.fill(generateHOTP(key, BigInt(setupStep), 6));
  await page.getByRole('button', { name: 'Valider le code' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Code incorrect ou déjà utilisé' }),
  ).toBeVisible();
  await code.fill(generateHOTP(key, BigInt(Math.max(setupStep + 1, stepOf() - 1)), 6));
  await page.getByRole('button', { name: 'Valider le code' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await hydrated(page);
  await expect(page.locator('a[data-todo="second-factor"]')).toContainText(
    'Double authentification activée',
  );
  expect(errors).toEqual([]);
});
