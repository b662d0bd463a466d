// The gallery owner of the end-to-end tests: invited by tests/e2e/serve.ts through
// `npm run admin:invite`, the invitation accepted by the first test that needs the owner, then
// signed in through the back office's login endpoint like the login page does.
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import {
  expect,
  request as requests,
  test,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { currentPort } from './shops.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

export const E2E_ADMIN = {
  email: 'owner@galerie.test',
  password: 'atelier de Lisbonne 2026',
  name: 'Sasha Kovač',
  /** The invitation link of the server on `port`, written by tests/e2e/serve.ts. */
  invitationFile: (port: number | string) =>
    path.join(root, '.cache', `e2e-admin-invitation-${port}.txt`),
} as const;

/** Signs `request` in as the owner (its cookies then carry the session). */
export async function signInAsOwner(request: APIRequestContext): Promise<void> {
  const login = () =>
    request.post('/api/admin/session', {
      data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
    });
  let response = await login();
  if (response.status() === 401) {
    const link = await fs.readFile(E2E_ADMIN.invitationFile(currentPort()), 'utf8');
    const token = new URL(link, 'http://x').searchParams.get('token');
    const accepted = await request.post('/api/admin/invitations/accept', {
      data: {
        token,
        fullName: E2E_ADMIN.name,
        password: E2E_ADMIN.password,
        confirmPassword: E2E_ADMIN.password,
      },
    });
    // Refused only when another worker's acceptance has committed (the link is used and the
    // account made in one transaction): either way the account exists now.
    expect([201, 400, 409]).toContain(accepted.status());
    response = await login();
  }
  expect(response.status(), await response.text()).toBe(200);
}

/** A request context of our own origin (the middleware refuses unsafe calls from elsewhere),
 * signed in as the owner. */
export async function ownerRequest(baseURL: string): Promise<APIRequestContext> {
  const context = await requests.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  await signInAsOwner(context);
  return context;
}

/** The owner's request context for a spec: signed in before its tests, disposed after. */
export function useOwner(): () => APIRequestContext {
  let owner: APIRequestContext | undefined;
  test.beforeAll(async ({ baseURL }) => {
    owner = await ownerRequest(baseURL!);
  });
  test.afterAll(async () => {
    await owner?.dispose();
  });
  return () => owner!;
}

/** A plain JPEG of one colour, uploaded by the owner: the stored photo's sha256 (a work's
 * `imageSha256`). */
export async function uploadedPhoto(
  owner: APIRequestContext,
  background: string,
  { width = 900, height = 700 } = {},
): Promise<string> {
  const photo = await sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();
  const upload = await owner.post('/api/admin/uploads', {
    headers: { 'content-type': 'image/jpeg' },
    data: photo,
  });
  expect(upload.status()).toBe(201);
  return ((await upload.json()) as { sha256: string }).sha256;
}

/**
 * Answers the re-authentication dialog (docs/decisions/037) when the action just asked for it:
 * the first sensitive action of a session asks, the next ones within 5 minutes do not. `done` is
 * what the action shows once carried out (or refused for its own reasons).
 */
export async function confirmIdentityIfAsked(
  page: Page,
  done: Locator,
  proof: { password: string } | { code: string } = { password: E2E_ADMIN.password },
): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirmez votre identité' });
  await expect
    .poll(async () => (await dialog.isVisible()) || (await done.first().isVisible()))
    .toBe(true);
  if (!(await dialog.isVisible())) return;
  const field =
    'password' in proof
      ? dialog.getByLabel('Mot de passe', { exact: true })
      : dialog.getByLabel('Code de l’application d’authentification');
  await field.fill('password' in proof ? proof.password : proof.code);
  await dialog.getByRole('button', { name: 'Confirmer' }).click();
  await expect(dialog).toBeHidden();
}
