// The first administrator's setup link (issue 27 item 0, docs/decisions/048): while no
// administrator exists, the server keeps one single-use invitation without an address — whoever
// accepts it chooses the account's email — prints its link at start and shows it on
// /admin/login to a request made on this machine. Nothing else lets anyone in: no default
// credential, and the link is void as soon as an administrator exists.
//
// The database keeps only the token's hash, as for every invitation; the token itself is kept in
// DATA_DIR/setup-link.json (mode 0600, beside the embedded database and the payment emulator's
// key) so a restart prints the same link while it is valid, and the login page can show it.
import fs from 'node:fs';
import path from 'node:path';
import { type Clock, timeOf } from '../clock.ts';
import type { Database } from '../db/index.ts';
import { hashToken, isTokenShaped, randomToken } from './tokens.ts';
import { hasAdmin } from './users.ts';

/** Shorter than an invitation's 72 h: the server makes a new one by itself when it lapses. */
export const SETUP_LINK_TTL_MS = 24 * 3600 * 1000;

export interface SetupLink {
  /** Same-site path of the link: `/admin/invitation?token=…`. */
  path: string;
  expiresAt: Date;
}

interface Kept {
  token: string;
  expiresAt: string;
}

const fileOf = (dataDir: string) => path.join(dataDir, 'setup-link.json');

const linkOf = (token: string, expiresAt: Date): SetupLink => ({
  path: `/admin/invitation?${new URLSearchParams({ token })}`,
  expiresAt,
});

function readKept(dataDir: string): Kept | null {
  try {
    const kept = JSON.parse(fs.readFileSync(fileOf(dataDir), 'utf8')) as Partial<Kept>;
    if (typeof kept.token !== 'string' || !isTokenShaped(kept.token)) return null;
    if (typeof kept.expiresAt !== 'string') return null;
    return { token: kept.token, expiresAt: kept.expiresAt };
  } catch {
    return null;
  }
}

/** Written whole and readable by the server's user only (a new file, renamed over the old). */
function writeKept(dataDir: string, kept: Kept): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const temporary = `${fileOf(dataDir)}.${process.pid}.tmp`;
  fs.rmSync(temporary, { force: true });
  fs.writeFileSync(temporary, JSON.stringify(kept), { mode: 0o600, flag: 'wx' });
  fs.renameSync(temporary, fileOf(dataDir));
}

export function forgetSetupLink(dataDir: string): void {
  fs.rmSync(fileOf(dataDir), { force: true });
}

/** Whether `token` is an unused, unexpired setup invitation (one without an address). */
async function usable(db: Database, token: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('admin_invitations')
    .select('id')
    .where('token_hash', '=', hashToken(token))
    .where('email', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * At start and while the server runs: null once an administrator exists (the kept token is then
 * forgotten); otherwise the kept link while it is usable, else a new one (`made`).
 */
export async function ensureSetupLink(
  db: Database,
  options: { dataDir: string; now?: Clock },
): Promise<{ link: SetupLink; made: boolean } | null> {
  if (await hasAdmin(db)) {
    forgetSetupLink(options.dataDir);
    return null;
  }
  const now = timeOf(options);
  const kept = readKept(options.dataDir);
  if (kept && (await usable(db, kept.token, now)))
    return { link: linkOf(kept.token, new Date(kept.expiresAt)), made: false };
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + SETUP_LINK_TTL_MS);
  await db
    .insertInto('admin_invitations')
    .values({ email: null, token_hash: hashToken(token), expires_at: expiresAt, created_at: now })
    .execute();
  writeKept(options.dataDir, { token, expiresAt: expiresAt.toISOString() });
  return { link: linkOf(token, expiresAt), made: true };
}

/**
 * The link /admin/login shows to a request from this machine: the kept one while no
 * administrator exists and it is usable, else null. Only reads (a GET never writes).
 */
export async function currentSetupLink(
  db: Database,
  options: { dataDir: string; now?: Clock },
): Promise<SetupLink | null> {
  const kept = readKept(options.dataDir);
  if (!kept || (await hasAdmin(db))) return null;
  return (await usable(db, kept.token, timeOf(options)))
    ? linkOf(kept.token, new Date(kept.expiresAt))
    : null;
}

/** Whether the server should look again: a link is kept (no administrator was seen yet). */
export function keepsSetupLink(dataDir: string): boolean {
  return readKept(dataDir) !== null;
}
