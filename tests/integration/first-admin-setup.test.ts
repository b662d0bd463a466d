// The first administrator's setup link (issue 27 item 0, docs/decisions/048), as a service: one
// single-use invitation without an address, kept while valid, made again once it lapses, void as
// soon as an administrator exists; and the invitation page's view, which names its address.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptAdminInvitation,
  createAdminInvitation,
  describeInvitation,
} from '#api/accounts/invitations.ts';
import {
  currentSetupLink,
  ensureSetupLink,
  keepsSetupLink,
  SETUP_LINK_TTL_MS,
} from '#api/accounts/setup-link.ts';
import { isAppError } from '#api/http/errors.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  t = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-setup-'));
  // The file's database is the suite's own: no administrator, as after a first `npm start`.
  await t.db.deleteFrom('users').where('role', '=', 'admin').execute();
});
afterAll(async () => {
  await t.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const tokenOf = (link: { path: string }) =>
  new URL(link.path, 'http://x').searchParams.get('token')!;

const password = { password: 'first owner pw', confirmPassword: 'first owner pw' };

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
}

describe('the setup link, while no administrator exists', () => {
  it('is made once, kept 0600 in DATA_DIR, and the same link is given back while valid', async () => {
    const first = await ensureSetupLink(t.db, { dataDir });
    expect(first?.made).toBe(true);
    expect(first!.link.path).toMatch(/^\/admin\/invitation\?token=[a-z2-7]{32}$/);
    expect(first!.link.expiresAt.getTime() - Date.now()).toBeGreaterThan(
      SETUP_LINK_TTL_MS - 60_000,
    );
    const file = path.join(dataDir, 'setup-link.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Only the hash in the database, and no address: it is chosen on acceptance.
    const rows = await t.db.selectFrom('admin_invitations').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.email).toBeNull();
    expect(Buffer.from(rows[0]!.token_hash).toString('utf8')).not.toContain(tokenOf(first!.link));

    const again = await ensureSetupLink(t.db, { dataDir });
    expect(again).toEqual({ link: first!.link, made: false });
    expect(await currentSetupLink(t.db, { dataDir })).toEqual(first!.link);
    expect(await describeInvitation({ db: t.db }, tokenOf(first!.link))).toMatchObject({
      email: null,
    });
  });

  it('expires: past its time it is no longer shown nor accepted, and a new one is made', async () => {
    const kept = (await currentSetupLink(t.db, { dataDir }))!;
    const later = () => new Date(kept.expiresAt.getTime() + 1000);
    expect(await currentSetupLink(t.db, { dataDir, now: later })).toBeNull();
    expect(
      await codeOf(
        acceptAdminInvitation(
          { db: t.db, now: later },
          { token: tokenOf(kept), email: 'late@example.org', fullName: 'Late', ...password },
        ),
      ),
    ).toBe('invalid_token');
    const renewed = await ensureSetupLink(t.db, { dataDir, now: later });
    expect(renewed?.made).toBe(true);
    expect(renewed!.link.path).not.toBe(kept.path);
  });

  it('asks for the address it names none of, then is used once', async () => {
    const link = (await ensureSetupLink(t.db, { dataDir }))!.link;
    const token = tokenOf(link);
    const error = await acceptAdminInvitation(
      { db: t.db },
      { token, fullName: 'Owner', ...password },
    )
      .then(() => null)
      .catch((e: unknown) => e);
    expect(isAppError(error, 'invalid_input')).toBe(true);
    expect((error as { fields?: unknown }).fields).toEqual({ email: 'auth.error.emailRequired' });

    const accepted = await acceptAdminInvitation(
      { db: t.db },
      { token, email: 'first.owner@example.org', fullName: 'First Owner', ...password },
    );
    expect(accepted.user).toMatchObject({ email: 'first.owner@example.org', role: 'admin' });
    expect(
      await codeOf(
        acceptAdminInvitation(
          { db: t.db },
          { token, email: 'second@example.org', fullName: 'Second', ...password },
        ),
      ),
    ).toBe('invalid_token');
  });
});

describe('once an administrator exists', () => {
  it('is never shown nor made again, and the kept token is forgotten', async () => {
    expect(keepsSetupLink(dataDir)).toBe(true);
    expect(await currentSetupLink(t.db, { dataDir })).toBeNull();
    expect(await ensureSetupLink(t.db, { dataDir })).toBeNull();
    expect(keepsSetupLink(dataDir)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'setup-link.json'))).toBe(false);
  });

  it('voids a setup link still unused: an administrator made by invitation closes it', async () => {
    // A setup invitation made while none existed (another node's, say), unused.
    await t.db.deleteFrom('users').where('role', '=', 'admin').execute();
    const link = (await ensureSetupLink(t.db, { dataDir }))!.link;
    const invited = await createAdminInvitation(t.db, 'named@example.org', {
      siteUrl: 'http://localhost:4321',
    });
    const named = new URL(invited.url).searchParams.get('token')!;
    // The invitation page names the address an invitation is for (issue 27 item 6).
    expect(await describeInvitation({ db: t.db }, named)).toMatchObject({
      email: 'named@example.org',
    });
    // Whatever the form sends, a named invitation makes its own address's account.
    const accepted = await acceptAdminInvitation(
      { db: t.db },
      { token: named, email: 'other@example.org', fullName: 'Named', ...password },
    );
    expect(accepted.user.email).toBe('named@example.org');

    expect(await describeInvitation({ db: t.db }, tokenOf(link))).toBeNull();
    expect(
      await codeOf(
        acceptAdminInvitation(
          { db: t.db },
          { token: tokenOf(link), email: 'late@example.org', fullName: 'Late', ...password },
        ),
      ),
    ).toBe('invalid_token');
    expect(await describeInvitation({ db: t.db }, 'not-a-token')).toBeNull();
  });
});
