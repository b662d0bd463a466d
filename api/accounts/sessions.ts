// Sessions after the Lucia design (lucia-auth.com, without the deprecated package): the cookie
// holds `<id>.<secret>`, the database only the id and SHA-256(secret); a session lives 30 days and
// is extended when used in its second half. Expired sessions are deleted when met.
import type { Executor } from '../db/index.ts';
import { hostCookie } from '../http/cookies.ts';
import { hashToken, isTokenShaped, randomToken, tokenMatches } from './tokens.ts';
import { systemClock } from '../clock.ts';

/** The session cookie's bare name: `__Host-session` over HTTPS (sessionCookieName). */
export const SESSION_COOKIE = 'session';
export const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** A session used when less than this is left is extended to a full lifetime again. */
export const SESSION_RENEW_WITHIN_MS = SESSION_LIFETIME_MS / 2;
/** An administrator's session ends after this long without a request (issue 24)… */
export const ADMIN_IDLE_MS = 2 * 3600 * 1000;
/** …and this long after sign-in, however active. */
export const ADMIN_LIFETIME_MS = 7 * 24 * 3600 * 1000;
/** last_seen_at is written at most this often: not on every request of a busy screen. */
const SEEN_EVERY_MS = 60 * 1000;

const PRUNE_PROBABILITY = 0.01;

export type Role = 'customer' | 'admin';

/** What `Astro.locals.user` holds: plain data, safe to hand to a page (never a hash). */
export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  emailVerified: boolean;
}

export interface Session {
  id: string;
  userId: string;
  expiresAt: Date;
  /** When the user last proved their presence again on it (docs/decisions/037), or null. */
  reauthenticatedAt: Date | null;
}

export interface SessionValidation {
  session: Session;
  user: SessionUser;
  /** The expiry moved: the cookie must be set again. */
  refreshed: boolean;
}

/** Splits a cookie value into id and secret; null for anything we could not have issued. */
export function parseSessionToken(token: string): { id: string; secret: string } | null {
  const dot = token.indexOf('.');
  if (dot < 0) return null;
  const id = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  return isTokenShaped(id) && isTokenShaped(secret) ? { id, secret } : null;
}

/** A new session for `userId`; the token goes into the cookie and is never stored. */
export async function createSession(
  db: Executor,
  userId: string,
  now: Date = systemClock(),
): Promise<{ token: string; session: Session }> {
  const id = randomToken();
  const secret = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await db
    .insertInto('sessions')
    .values({
      id,
      secret_hash: hashToken(secret),
      user_id: userId,
      expires_at: expiresAt,
      created_at: now,
    })
    .execute();
  // Sessions nobody comes back with are never met again by validation: drop them now and then.
  if (Math.random() < PRUNE_PROBABILITY) await deleteExpiredSessions(db, now);
  return { token: `${id}.${secret}`, session: { id, userId, expiresAt, reauthenticatedAt: null } };
}

/**
 * The session and user a cookie value stands for, or null: unknown id, wrong secret (compared in
 * constant time) or expired (then deleted). A session in its second half is extended. An
 * administrator's also ends after ADMIN_IDLE_MS without a request and ADMIN_LIFETIME_MS after
 * sign-in: the back office holds the shop, its orders and its customers' data.
 */
export async function validateSessionToken(
  db: Executor,
  token: string,
  now: Date = systemClock(),
): Promise<SessionValidation | null> {
  const parts = parseSessionToken(token);
  if (!parts) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.secret_hash',
      'sessions.expires_at',
      'sessions.created_at',
      'sessions.last_seen_at',
      'sessions.reauthenticated_at',
      'users.id as user_id',
      'users.email',
      'users.full_name',
      'users.role',
      'users.email_verified_at',
    ])
    .where('sessions.id', '=', parts.id)
    .executeTakeFirst();
  if (!row || !tokenMatches(parts.secret, row.secret_hash)) return null;
  const admin = row.role === 'admin';
  const lastSeen = row.last_seen_at ?? row.created_at;
  if (
    row.expires_at.getTime() <= now.getTime() ||
    (admin &&
      (now.getTime() - lastSeen.getTime() > ADMIN_IDLE_MS ||
        now.getTime() - row.created_at.getTime() > ADMIN_LIFETIME_MS))
  ) {
    await db.deleteFrom('sessions').where('id', '=', row.id).execute();
    return null;
  }
  if (admin && now.getTime() - lastSeen.getTime() > SEEN_EVERY_MS)
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
  let expiresAt = row.expires_at;
  let refreshed = false;
  if (expiresAt.getTime() - now.getTime() < SESSION_RENEW_WITHIN_MS) {
    expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    await db
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('id', '=', row.id)
      .execute();
    refreshed = true;
  }
  return {
    session: {
      id: row.id,
      userId: row.user_id,
      expiresAt,
      reauthenticatedAt: row.reauthenticated_at,
    },
    user: {
      id: row.user_id,
      email: row.email,
      name: row.full_name,
      role: row.role === 'admin' ? 'admin' : 'customer',
      emailVerified: row.email_verified_at !== null,
    },
    refreshed,
  };
}

export async function invalidateSession(db: Executor, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Ends every session of a user (password change or reset). */
export async function invalidateUserSessions(db: Executor, userId: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes every session past its expiry. */
export async function deleteExpiredSessions(
  db: Executor,
  now: Date = systemClock(),
): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface SessionCookieOptions {
  path: '/';
  httpOnly: true;
  sameSite: 'lax';
  secure: boolean;
  expires: Date;
}

/** The session cookie's name where cookies are `secure`: `__Host-session`, else `session`. */
export function sessionCookieName(secure: boolean): string {
  return hostCookie(SESSION_COOKIE, secure);
}

/**
 * Cookie attributes for a session expiring at `expiresAt` (Path=/ and no Domain, as the
 * `__Host-` prefix requires). `secure`: whether the site is served
 * over HTTPS (`locals.secureCookies`: PUBLIC_SITE_URL or the trusted proxy's protocol, never the
 * `Host` header; api/http/client.ts).
 */
export function sessionCookieOptions(secure: boolean, expiresAt: Date): SessionCookieOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: expiresAt };
}
