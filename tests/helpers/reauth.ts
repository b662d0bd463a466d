// Re-authenticates an administrator's session as the back office's dialog does (docs/decisions/037):
// POST /api/admin/reauth with the password. Accounts made by the factory have none: this gives
// them ADMIN_PASSWORD first (hashed once per file).
import { hashPassword } from '#api/accounts/passwords.ts';
import type { Executor } from '#api/db/index.ts';
import { POST as REAUTH } from '../../src/pages/api/admin/reauth.ts';
import { callEndpoint } from './endpoint.ts';

export const ADMIN_PASSWORD = 'atelier de reprise 2026';
const ORIGIN = 'http://localhost:4321';
let hashed: Promise<string> | undefined;

/** The cookie jar of a request made with the session `token` (whatever the cookie's prefix). */
export const sessionCookies = (token: string) =>
  ({
    get: (name: string) => (/^(__Host-)?session$/.test(name) ? { value: token } : undefined),
  }) as never;

export async function reauthenticate(
  db: Executor,
  admin: { id: string; token: string },
  proof: { password: string } | { code: string } = { password: ADMIN_PASSWORD },
): Promise<Response> {
  hashed ??= hashPassword(ADMIN_PASSWORD);
  await db
    .updateTable('users')
    .set({ password_hash: await hashed })
    .where('id', '=', admin.id)
    .where('password_hash', 'is', null)
    .execute();
  const response = await callEndpoint(REAUTH, {
    request: new Request(`${ORIGIN}/api/admin/reauth`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify(proof),
    }),
    cookies: sessionCookies(admin.token),
  });
  return response;
}
