// Customer accounts (issue 5, docs/accounts-api.md, docs/decisions/010): signup, login, logout,
// e-mail verification, password reset and change, on our own session layer (sessions.ts).
// Nothing here tells a visitor whether an address has an account: signup with a taken address and
// login with an unknown one cost an Argon2 run and answer exactly like the real thing, and no
// session opens before the address is proven (docs/decisions/038).
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { afterAnswer } from '../background.ts';
import { ipBucket } from '../contact/index.ts';
import { isUniqueViolation, type Database, type Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer, MailMessage } from '../mail/index.ts';
import { hit, rateLimitKey, type RateLimitRule } from '../ratelimit/index.ts';
import { liveSettings, type SiteSettings } from '../settings/index.ts';
import {
  alreadyRegisteredMail,
  resetPasswordMail,
  resetPasswordUrl,
  verificationMail,
  verificationUrl,
  type Locale,
} from './mails.ts';
import {
  assertUncommonPassword,
  hashPassword,
  verifyDummyPassword,
  verifyPassword,
} from './passwords.ts';
import {
  createSession,
  invalidateSession,
  invalidateUserSessions,
  type Role,
  type Session,
  type SessionUser,
} from './sessions.ts';
import { findUserByEmail, type UserRow } from './users.ts';
import { createChallenge, needsSecondFactor } from './second-factor.ts';
import {
  attemptSucceeded,
  beginAttempt,
  clearAccountThrottle,
  loginThrottleKeys,
  throttleKeyList,
} from './throttle.ts';
import { hashToken, isTokenShaped, randomToken } from './tokens.ts';
import type {
  ChangePasswordInput,
  ForgotPasswordInput,
  LoginInput,
  ResetPasswordInput,
  SignupInput,
} from '../../src/schemas/accounts.ts';

export {
  SESSION_COOKIE,
  sessionCookieOptions,
  validateSessionToken,
  type Session,
  type SessionUser,
} from './sessions.ts';
import { type Clock, timeOf } from '../clock.ts';
export { requireAdmin, requireUser } from './guards.ts';
export { acceptAdminInvitation, createAdminInvitation } from './invitations.ts';
export { getAccountOverview, getSubscription, listAccountOrders } from './orders.ts';
export { findUserByEmail, hasAdmin } from './users.ts';

export interface AccountDeps {
  db: Database;
  mailer: Mailer;
  /** The site's public URL without trailing slash, for the links in mails. */
  siteUrl: string;
  /** Read from the database when not given (sender name and address of the mails). */
  settings?: SiteSettings;
  now?: Clock;
}

/** Where the request came from, for the per-address limits. */
export interface RequestMeta {
  ip: string;
}

/** Mail sent after the answer: awaited by tests, ignored by endpoints (failures are logged). */
export interface Delivery {
  delivered: Promise<void>;
}

export const PASSWORD_RESET_TTL_MS = 3600 * 1000;
export const EMAIL_VERIFICATION_TTL_MS = 24 * 3600 * 1000;

/**
 * Mail-sending forms: 10 requests an hour per client, 3 an hour for one mailbox from one client,
 * 10 an hour for one mailbox from everywhere. Someone asking for the owner's reset link from
 * their own address cannot use up the owner's: that takes four addresses (issue 14), and even
 * then the owner only waits for the hour to end.
 */
export const ACCOUNT_MAIL_LIMITS: {
  perEmailFromIp: RateLimitRule;
  perEmail: RateLimitRule;
  perIp: RateLimitRule;
} = {
  perEmailFromIp: { limit: 3, windowSeconds: 3600 },
  perEmail: { limit: 10, windowSeconds: 3600 },
  perIp: { limit: 10, windowSeconds: 3600 },
};

export function toRole(value: string): Role {
  return value === 'admin' ? 'admin' : 'customer';
}

// ---------------------------------------------------------------------------------------------
// Signup and e-mail verification

/** What a signup leaves the browser: the mail's delivery and the mark of the browser. */
export interface SignupResult extends Delivery {
  /**
   * For the signup cookie: SHA-256 of the link's token under a label (signupBrowserMark) when an
   * account was created, random bytes of the same shape otherwise. The verification link signs
   * in only the browser holding it (docs/decisions/038); it never reveals the token.
   */
  browserMark: string;
}

/**
 * Creates an unverified customer account and mails a verification link; when the address
 * already has an account, mails that address a notice instead. Both paths hash the password,
 * send one mail (after the answer) and open no session, so the caller cannot tell them apart —
 * nor afterwards: an unverified account cannot sign in until its link is opened (login).
 */
export async function signup(
  deps: AccountDeps,
  input: SignupInput,
  meta: RequestMeta,
): Promise<SignupResult> {
  const { db } = deps;
  const now = timeOf(deps);
  const locale: Locale = input.locale ?? 'fr';
  // Refused whether or not the address has an account: the answer tells nothing about it.
  assertUncommonPassword(input.password);
  await enforceMailLimits(db, 'signup', input.email, meta, now);
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(db, input.email);
  let created = false;
  const token = randomToken();
  if (!existing) {
    try {
      await db
        .insertInto('users')
        .values({
          email: input.email,
          full_name: input.fullName,
          password_hash: passwordHash,
          role: 'customer',
          email_verification_hash: hashToken(token),
          email_verification_expires_at: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_MS),
          created_at: now,
          updated_at: now,
        })
        .execute();
      created = true;
    } catch (error) {
      // The same address signed up a moment ago: answer as for any taken address.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  const delivery = sendLater(deps, 'signup mail', (settings) =>
    created
      ? verificationMail(
          settings,
          input.email,
          verificationUrl(deps.siteUrl, token, locale),
          locale,
        )
      : alreadyRegisteredMail(settings, input.email, deps.siteUrl, locale),
  );
  return { ...delivery, browserMark: signupBrowserMark(created ? token : randomToken()) };
}

/**
 * The signup cookie's value for a verification token: a digest under its own label, so it is
 * never the stored hash of the token and gives nothing to whoever reads the cookie.
 */
export function signupBrowserMark(token: string): string {
  return hashToken(`signup-browser:${token}`).toString('base64url');
}

/** Whether the signup cookie's `mark` is the one `signup` gave for `token` (constant time). */
export function isSignupBrowser(mark: string | undefined, token: string): boolean {
  if (!mark) return false;
  const expected = Buffer.from(signupBrowserMark(token));
  const given = Buffer.from(mark);
  return given.byteLength === expected.byteLength && constantTimeEqual(given, expected);
}

/** Mails a new verification link to a signed-in user whose address is not verified yet. */
export async function resendVerification(
  deps: AccountDeps,
  userId: string,
  locale: Locale,
  meta: RequestMeta,
): Promise<Delivery> {
  const { db } = deps;
  const now = timeOf(deps);
  const user = await db
    .selectFrom('users')
    .select(['email', 'email_verified_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new AppError('unauthorized');
  if (user.email_verified_at) return { delivered: Promise.resolve() };
  await enforceMailLimits(db, 'verify', user.email, meta, now);
  const token = randomToken();
  await db
    .updateTable('users')
    .set({
      email_verification_hash: hashToken(token),
      email_verification_expires_at: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_MS),
    })
    .where('id', '=', userId)
    .execute();
  return sendLater(deps, 'verification mail', (settings) =>
    verificationMail(settings, user.email, verificationUrl(deps.siteUrl, token, locale), locale),
  );
}

/** Marks the address of the link's account verified; `invalid_token` if unknown, used or expired. */
export async function verifyEmail(
  deps: Pick<AccountDeps, 'db' | 'now'>,
  token: unknown,
): Promise<{ userId: string }> {
  if (!isTokenShaped(token)) throw new AppError('invalid_token');
  const now = timeOf(deps);
  const row = await deps.db
    .updateTable('users')
    .set({
      email_verified_at: now,
      email_verification_hash: null,
      email_verification_expires_at: null,
      updated_at: now,
    })
    .where('email_verification_hash', '=', hashToken(token))
    .where('email_verification_expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new AppError('invalid_token');
  return { userId: row.id };
}

/**
 * Opens a session for a customer whose verification link was just opened in the browser that
 * signed up (the endpoint checks the signup cookie): the link reached the mailbox, the cookie
 * shows it is the same person. Ends whatever session the browser held, as a login does. Null for
 * an administrator: the back office's sign-in stays its own (docs/decisions/038).
 */
export async function signInVerified(
  deps: Pick<AccountDeps, 'db' | 'now'>,
  userId: string,
  meta: { replaceSessionId?: string | undefined },
): Promise<{ token: string; session: Session; user: SessionUser } | null> {
  const { db } = deps;
  const now = timeOf(deps);
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'full_name', 'role', 'password_hash', 'email_verified_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || toRole(user.role) !== 'customer' || !user.email_verified_at) return null;
  if (meta.replaceSessionId) await invalidateSession(db, meta.replaceSessionId);
  const { token, session } = await createSession(db, user.id, now);
  await db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', user.id).execute();
  return { token, session, user: sessionUser(user) };
}

// ---------------------------------------------------------------------------------------------
// Login and logout

/**
 * A session, or — for an account with a second factor — no session yet but a pending challenge
 * whose token goes into the challenge cookie until the code is given (second-factor.ts).
 */
export type LoginResult =
  | { token: string; session: Session; user: SessionUser; secondFactor?: undefined }
  | { secondFactor: { token: string; expiresAt: Date }; user: SessionUser };

/**
 * Checks the password and opens a new session. Throttled per (account, client address), per
 * account and per address (throttle.ts) before the password is even looked at; an unknown address
 * costs the same Argon2 verification as a wrong password and gets the same `invalid_credentials`.
 */
export async function login(
  deps: Pick<AccountDeps, 'db' | 'now'>,
  input: LoginInput,
  meta: RequestMeta & {
    replaceSessionId?: string | undefined;
    /** The back office's login: any other account gets the same answer as a wrong password. */
    requireRole?: 'admin';
  },
): Promise<LoginResult> {
  const { db } = deps;
  const now = timeOf(deps);
  const keys = loginThrottleKeys(input.email, ipBucket(meta.ip));
  await beginAttempt(db, throttleKeyList(keys), now);
  const user = await findUserByEmail(db, input.email);
  const valid = user?.password_hash
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyDummyPassword(input.password);
  if (!user || !valid) throw new AppError('invalid_credentials');
  // A customer whose address was never proven is refused like a wrong password, and counted as a
  // failure: otherwise "sign up with X, then sign in" would tell a taken X from a free one
  // (issue 24, break 7). The verification link or a password reset proves it. Administrators
  // come from an invitation mailed to them (invitations.ts): their address is proven.
  if (toRole(user.role) === 'customer' && !user.email_verified_at)
    throw new AppError('invalid_credentials');
  if (meta.requireRole && user.role !== meta.requireRole) throw new AppError('invalid_credentials');
  await attemptSucceeded(db, keys);
  // The password alone opens no session once a second factor is on (docs/decisions/037).
  if (await needsSecondFactor(db, user.id))
    return { secondFactor: await createChallenge(db, user.id, now), user: sessionUser(user) };
  // Never carry a session over a login: whatever the browser held is ended, a new one begins.
  if (meta.replaceSessionId) await invalidateSession(db, meta.replaceSessionId);
  const { token, session } = await createSession(db, user.id, now);
  await db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', user.id).execute();
  return { token, session, user: sessionUser(user) };
}

export async function logout(db: Executor, sessionId: string | undefined): Promise<void> {
  if (sessionId) await invalidateSession(db, sessionId);
}

// ---------------------------------------------------------------------------------------------
// Password reset and change

/**
 * Mails a single-use reset link valid 1 hour when the address has an account. Only the rate
 * limits run before the answer; the look-up and the mail happen after it, so the answer's content
 * and timing are the same whether the account exists or not.
 */
export async function requestPasswordReset(
  deps: AccountDeps,
  input: ForgotPasswordInput,
  meta: RequestMeta,
): Promise<Delivery> {
  const { db } = deps;
  const now = timeOf(deps);
  const locale: Locale = input.locale ?? 'fr';
  await enforceMailLimits(db, 'reset', input.email, meta, now);
  const delivered = afterAnswer(
    (async () => {
      const user = await findUserByEmail(db, input.email);
      if (!user) return;
      const token = randomToken();
      await db.transaction().execute(async (trx) => {
        // Only the newest link works: asking again voids the earlier ones.
        await trx
          .deleteFrom('password_reset_tokens')
          .where('user_id', '=', user.id)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .insertInto('password_reset_tokens')
          .values({
            user_id: user.id,
            token_hash: hashToken(token),
            expires_at: new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
            created_at: now,
          })
          .execute();
      });
      const settings = deps.settings ?? (await liveSettings(db));
      await deps.mailer.send(
        resetPasswordMail(
          settings,
          user.email,
          resetPasswordUrl(deps.siteUrl, token, locale),
          locale,
        ),
      );
    })().catch((error: unknown) =>
      log.error({ err: error }, 'Accounts: the password reset mail failed'),
    ),
  );
  return { delivered };
}

/**
 * Sets a new password from a reset link: the link is used up, every session of the account ends,
 * its login throttle is cleared (from every address), and its address counts as verified (the
 * link reached it). Never refused by a login lock: the reset is how a locked-out owner gets in.
 */
export async function resetPassword(
  deps: Pick<AccountDeps, 'db' | 'now'>,
  input: ResetPasswordInput,
): Promise<{ userId: string }> {
  const { db } = deps;
  const now = timeOf(deps);
  if (!isTokenShaped(input.token)) throw new AppError('invalid_token');
  const tokenHash = hashToken(input.token);
  const pending = await db
    .selectFrom('password_reset_tokens')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!pending) throw new AppError('invalid_token');
  assertUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: now })
      .where('id', '=', pending.id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!used) throw new AppError('invalid_token');
    const updated = await trx
      .updateTable('users')
      .set((eb) => ({
        password_hash: passwordHash,
        email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)),
        updated_at: now,
      }))
      .where('id', '=', used.user_id)
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    await invalidateUserSessions(trx, updated.id);
    await trx
      .deleteFrom('password_reset_tokens')
      .where('user_id', '=', updated.id)
      .where('used_at', 'is', null)
      .execute();
    return updated;
  });
  await clearAccountThrottle(db, user.email);
  return { userId: user.id };
}

/**
 * A signed-in user's new password: the current one is checked (throttled like a login), then
 * every session of the account ends and a new one is opened for this browser.
 */
export async function changePassword(
  deps: Pick<AccountDeps, 'db' | 'now'>,
  userId: string,
  input: ChangePasswordInput,
  meta: RequestMeta,
): Promise<{ token: string; session: Session }> {
  const { db } = deps;
  const now = timeOf(deps);
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new AppError('unauthorized');
  // Before the current password is checked: a refused new one costs no throttled attempt.
  assertUncommonPassword(input.password);
  const keys = loginThrottleKeys(user.email, ipBucket(meta.ip));
  await beginAttempt(db, throttleKeyList(keys), now);
  const valid = user.password_hash
    ? await verifyPassword(user.password_hash, input.currentPassword)
    : await verifyDummyPassword(input.currentPassword);
  if (!valid) throw new AppError('invalid_credentials');
  await attemptSucceeded(db, keys);
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await invalidateUserSessions(trx, user.id);
    return createSession(trx, user.id, now);
  });
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

function sessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    name: row.full_name,
    role: toRole(row.role),
    emailVerified: row.email_verified_at !== null,
  };
}

async function enforceMailLimits(
  db: Database,
  scope: string,
  email: string,
  meta: RequestMeta,
  now: Date,
): Promise<void> {
  const bucket = ipBucket(meta.ip);
  const emailKey = rateLimitKey(`${scope}:email`, email.trim().toLowerCase());
  // The narrowest first: a client over its own quota does not spend the mailbox's.
  const checks: Array<[string, RateLimitRule]> = [
    [rateLimitKey(`${emailKey}:ip`, bucket), ACCOUNT_MAIL_LIMITS.perEmailFromIp],
    [emailKey, ACCOUNT_MAIL_LIMITS.perEmail],
  ];
  if (bucket) checks.unshift([rateLimitKey(`${scope}:ip`, bucket), ACCOUNT_MAIL_LIMITS.perIp]);
  for (const [key, rule] of checks) {
    const result = await hit(db, key, rule, now);
    if (!result.allowed)
      throw new AppError('rate_limited', { retryAfterSeconds: result.retryAfterSeconds });
  }
}

/** Builds and sends one mail after the caller has answered; a failure is logged for the owner. */
function sendLater(
  deps: AccountDeps,
  what: string,
  build: (settings: SiteSettings) => MailMessage,
): Delivery {
  const delivered = afterAnswer(
    (async () => {
      const settings = deps.settings ?? (await liveSettings(deps.db));
      await deps.mailer.send(build(settings));
    })().catch((error: unknown) => log.error({ err: error }, `Accounts: the ${what} failed`)),
  );
  return { delivered };
}
