// Administrators' second factor and re-authentication (issue 24, docs/decisions/037).
// - TOTP (RFC 6238: an authenticator app, 6 digits, 30 s, SHA-1, one step either side) with
//   @oslojs/otp; the step last accepted is stored, so a code works once. Ten single-use recovery
//   codes, kept as SHA-256 like every token (tokens.ts); using one is audited and mailed.
// - Sign-in: once the factor is on, a right password opens no session but a pending challenge
//   (its token in an HttpOnly cookie, SHA-256 in `login_challenges`, 5 minutes, single-use, five
//   codes at most), and the code, counted by the login throttle, opens the session.
// - Re-authentication: erasing a customer, refunding, changing payment settings and inviting an
//   administrator ask for a proof (the code, or the password without a second factor) given in
//   the last 5 minutes on this session (`sessions.reauthenticated_at`).
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { getRandomValues } from 'node:crypto';
import { afterAnswer } from '../background.ts';
import { ipBucket } from '../contact/index.ts';
import type { Database, Executor } from '../db/index.ts';
import { audit, type Actor } from '../admin/audit.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import { liveSettings } from '../settings/index.ts';
import { type Clock, systemClock, timeOf } from '../clock.ts';
import { recoveryCodeUsedMail } from './mails.ts';
import { verifyDummyPassword, verifyPassword } from './passwords.ts';
import { createSession, invalidateSession, type Session, type SessionUser } from './sessions.ts';
import { attemptSucceeded, beginAttempt, loginThrottleKeys, throttleKeyList } from './throttle.ts';
import { hashToken, isTokenShaped, randomToken } from './tokens.ts';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one (a clock a little off, a code typed late). */
const TOTP_WINDOW = 1;
/** 160 bits, the key length RFC 4226 recommends for HMAC-SHA-1. */
const TOTP_KEY_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;
/** A pending sign-in waits this long for its code… */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** …and takes this many wrong codes before it is void (the password is asked again). */
export const CHALLENGE_MAX_ATTEMPTS = 5;
/** A re-authentication covers the session's sensitive actions for this long. */
export const REAUTH_TTL_MS = 5 * 60 * 1000;
export const CHALLENGE_COOKIE = 'login-challenge';
const ISSUER = 'Galerie';

export interface SecondFactorDeps {
  db: Database;
  now?: Clock;
}

export interface RequestMeta {
  ip: string;
}

// ---------------------------------------------------------------------------------------------
// Codes

/** What a typed code looks like: six digits, or a recovery code (letters and digits, any case). */
export function normaliseCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

const TOTP_SHAPE = /^\d{6}$/;
const RECOVERY_SHAPE = /^[a-z2-7]{12}$/;

/** A new recovery code: 60 random bits as 12 characters of [a-z2-7], shown `abcd-efgh-ijkl`. */
function newRecoveryCode(): string {
  const raw = encodeBase32LowerCaseNoPadding(getRandomValues(new Uint8Array(8))).slice(0, 12);
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
}

const stepOf = (now: Date) => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/** The step among now-1…now+1 (after `after`) whose code is `code`, or null. */
function matchingStep(
  key: Uint8Array,
  code: string,
  now: Date,
  after: number | null,
): number | null {
  const typed = new TextEncoder().encode(code);
  const current = stepOf(now);
  let found: number | null = null;
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    const expected = new TextEncoder().encode(generateHOTP(key, BigInt(step), TOTP_DIGITS));
    // Every step is compared, in constant time: the answer's timing tells nothing.
    if (constantTimeEqual(expected, typed) && (after === null || step > after)) found ??= step;
  }
  return found;
}

/**
 * Uses `code` as the user's second factor, in `trx`: a TOTP code of a step not used yet (the step
 * is stored, conditionally, so two requests cannot both use it), or an unused recovery code
 * (marked used). Null when it is neither. Only for a factor that is on.
 */
async function useCode(
  trx: Executor,
  userId: string,
  code: string,
  now: Date,
): Promise<'totp' | 'recovery' | null> {
  const typed = normaliseCode(code);
  if (TOTP_SHAPE.test(typed)) {
    const credential = await trx
      .selectFrom('totp_credentials')
      .select(['key', 'last_counter'])
      .where('user_id', '=', userId)
      .where('enabled_at', 'is not', null)
      .executeTakeFirst();
    if (!credential) return null;
    const step = matchingStep(credential.key, typed, now, credential.last_counter);
    if (step === null) return null;
    const stored = await trx
      .updateTable('totp_credentials')
      .set({ last_counter: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_counter', 'is', null), eb('last_counter', '<', step)]))
      .executeTakeFirst();
    return stored.numUpdatedRows > 0n ? 'totp' : null;
  }
  if (RECOVERY_SHAPE.test(typed)) {
    const used = await trx
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hashToken(typed))
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return used ? 'recovery' : null;
  }
  return null;
}

async function isEnabled(db: Executor, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('totp_credentials')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

async function recoveryCodesLeft(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Replaces the user's recovery codes with ten new ones, returned once in clear. */
async function newRecoveryCodes(trx: Executor, userId: string, now: Date): Promise<string[]> {
  await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await trx
    .insertInto('recovery_codes')
    .values(
      codes.map((code) => ({
        user_id: userId,
        code_hash: hashToken(normaliseCode(code)),
        created_at: now,
      })),
    )
    .execute();
  return codes;
}

// ---------------------------------------------------------------------------------------------
// Setting it up, and off

export interface SecondFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

export async function secondFactorStatus(
  db: Executor,
  userId: string,
): Promise<SecondFactorStatus> {
  const enabled = await isEnabled(db, userId);
  return { enabled, recoveryCodesLeft: enabled ? await recoveryCodesLeft(db, userId) : 0 };
}

export interface TotpSetup {
  /** The key in base32 (upper case, as authenticator apps show it), for typing. */
  secret: string;
  /** otpauth://totp/… for a QR code or a tap on a phone. */
  uri: string;
}

/**
 * A new key for the user's authenticator app, pending until `confirmTotpSetup` sees a code from
 * it (a new setup replaces a pending one). Refused while the factor is on: turn it off first.
 */
export async function beginTotpSetup(
  deps: SecondFactorDeps,
  user: Pick<SessionUser, 'id' | 'email'>,
  siteTitle: string = ISSUER,
): Promise<TotpSetup> {
  const now = timeOf(deps);
  if (await isEnabled(deps.db, user.id))
    throw new AppError('rejected', {
      message: 'La double authentification est déjà activée.',
    });
  const key = getRandomValues(new Uint8Array(TOTP_KEY_BYTES));
  await deps.db
    .insertInto('totp_credentials')
    .values({ user_id: user.id, key: Buffer.from(key), created_at: now })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ key: Buffer.from(key), last_counter: null, created_at: now }),
    )
    .execute();
  return {
    secret: encodeBase32UpperCaseNoPadding(key),
    uri: createTOTPKeyURI(siteTitle, user.email, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS),
  };
}

/**
 * Turns the factor on when `code` comes from the pending key, and returns the ten recovery codes
 * (shown once). Counted by the login throttle like any code. Audited.
 */
export async function confirmTotpSetup(
  deps: SecondFactorDeps,
  user: Pick<SessionUser, 'id' | 'email'>,
  code: string,
  meta: RequestMeta,
): Promise<{ recoveryCodes: string[] }> {
  const { db } = deps;
  const now = timeOf(deps);
  const keys = loginThrottleKeys(user.email, ipBucket(meta.ip));
  await beginAttempt(db, throttleKeyList(keys), now);
  const result = await db.transaction().execute(async (trx) => {
    const pending = await trx
      .selectFrom('totp_credentials')
      .select(['key', 'enabled_at'])
      .where('user_id', '=', user.id)
      .forUpdate()
      .executeTakeFirst();
    if (!pending || pending.enabled_at)
      throw new AppError('rejected', {
        message: pending
          ? 'La double authentification est déjà activée.'
          : 'Commencez par afficher une nouvelle clé.',
      });
    const typed = normaliseCode(code);
    const step = TOTP_SHAPE.test(typed) ? matchingStep(pending.key, typed, now, null) : null;
    if (step === null) return null;
    await trx
      .updateTable('totp_credentials')
      .set({ enabled_at: now, last_counter: step })
      .where('user_id', '=', user.id)
      .execute();
    const recoveryCodes = await newRecoveryCodes(trx, user.id, now);
    await audit(trx, user, 'account.second_factor_on', 'user', user.id, null, {
      recoveryCodes: RECOVERY_CODE_COUNT,
    });
    return { recoveryCodes };
  });
  if (!result) throw new AppError('invalid_second_factor');
  await attemptSucceeded(db, keys);
  return result;
}

export type Proof = { password: string } | { code: string };

/**
 * Turns the factor off after the password or a code (recovery codes included): the key and the
 * recovery codes are deleted. Audited.
 */
export async function disableSecondFactor(
  deps: SecondFactorDeps & { mailer?: Mailer; siteUrl?: string },
  user: Pick<SessionUser, 'id' | 'email'>,
  proof: Proof,
  meta: RequestMeta,
): Promise<{ delivered: Promise<void> }> {
  const { db } = deps;
  const now = timeOf(deps);
  if (!(await isEnabled(db, user.id)))
    throw new AppError('rejected', { message: 'La double authentification n’est pas activée.' });
  return checkProof(deps, user, proof, meta, now, async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('totp_credentials').where('user_id', '=', user.id).execute();
    await audit(trx, user, 'account.second_factor_off', 'user', user.id, null, null);
  });
}

/** Ten new recovery codes for a factor that is on (the old ones stop working). Audited. */
export async function regenerateRecoveryCodes(
  deps: SecondFactorDeps,
  user: Pick<SessionUser, 'id' | 'email'>,
): Promise<{ recoveryCodes: string[] }> {
  const now = timeOf(deps);
  if (!(await isEnabled(deps.db, user.id)))
    throw new AppError('rejected', { message: 'La double authentification n’est pas activée.' });
  return deps.db.transaction().execute(async (trx) => {
    const recoveryCodes = await newRecoveryCodes(trx, user.id, now);
    await audit(trx, user, 'account.recovery_codes_renewed', 'user', user.id, null, {
      recoveryCodes: RECOVERY_CODE_COUNT,
    });
    return { recoveryCodes };
  });
}

// ---------------------------------------------------------------------------------------------
// Proofs: the password, or a code

/**
 * Checks a proof of the user's presence, counted by the login throttle (before the check), then
 * runs `then` in the same transaction as the code's use. A code is accepted only when the factor
 * is on; a recovery code used is audited and mailed to the account (after the answer).
 */
async function checkProof(
  deps: SecondFactorDeps & { mailer?: Mailer | undefined; siteUrl?: string | undefined },
  user: Pick<SessionUser, 'id' | 'email'>,
  proof: Proof,
  meta: RequestMeta,
  now: Date,
  then: (trx: Executor) => Promise<void>,
): Promise<{ delivered: Promise<void> }> {
  const { db } = deps;
  const keys = loginThrottleKeys(user.email, ipBucket(meta.ip));
  await beginAttempt(db, throttleKeyList(keys), now);
  if ('password' in proof) {
    const row = await db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirst();
    const valid = row?.password_hash
      ? await verifyPassword(row.password_hash, proof.password)
      : await verifyDummyPassword(proof.password);
    if (!valid) throw new AppError('invalid_credentials');
    await db.transaction().execute(then);
    await attemptSucceeded(db, keys);
    return { delivered: Promise.resolve() };
  }
  const kind = await db.transaction().execute(async (trx) => {
    const used = await useCode(trx, user.id, proof.code, now);
    if (!used) return null;
    if (used === 'recovery') await auditRecoveryCode(trx, user);
    await then(trx);
    return used;
  });
  if (!kind) throw new AppError('invalid_second_factor');
  await attemptSucceeded(db, keys);
  return {
    delivered: kind === 'recovery' ? mailRecoveryCodeUse(deps, user, now) : Promise.resolve(),
  };
}

async function auditRecoveryCode(trx: Executor, user: Actor): Promise<void> {
  await audit(trx, user, 'account.recovery_code_used', 'user', user.id, null, {
    left: await recoveryCodesLeft(trx, user.id),
  });
}

/** The administrator hears of every recovery code used: one they did not use means a thief. */
function mailRecoveryCodeUse(
  deps: { db: Database; mailer?: Mailer | undefined; siteUrl?: string | undefined },
  user: Pick<SessionUser, 'id' | 'email'>,
  now: Date,
): Promise<void> {
  const { mailer } = deps;
  if (!mailer) return Promise.resolve();
  return afterAnswer(
    (async () => {
      const left = await recoveryCodesLeft(deps.db, user.id);
      const settings = await liveSettings(deps.db);
      await mailer.send(
        recoveryCodeUsedMail(settings, user.email, {
          at: now,
          left,
          securityUrl: `${deps.siteUrl ?? ''}/admin/security`,
        }),
      );
    })().catch((error: unknown) =>
      log.error({ err: error }, 'Accounts: the recovery code notice failed'),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Sign-in with a second factor

/** Whether the user must give a code after the password. */
export const needsSecondFactor = isEnabled;

/** A pending sign-in for `userId`: its token goes into the challenge cookie, only its hash stays. */
export async function createChallenge(
  db: Executor,
  userId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  await db.deleteFrom('login_challenges').where('expires_at', '<=', now).execute();
  await db
    .insertInto('login_challenges')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      expires_at: expiresAt,
      created_at: now,
    })
    .execute();
  return { token, expiresAt };
}

export interface SecondFactorLogin {
  token: string;
  session: Session;
  user: SessionUser;
  /** The recovery code notice, when one was used (awaited by tests). */
  delivered: Promise<void>;
}

/**
 * The second step of a sign-in: the challenge's code opens the session. `invalid_token` when the
 * challenge is unknown, used, expired or has had its five codes (the password is asked again);
 * `invalid_second_factor` for a wrong or already used code. Counted by the login throttle.
 */
export async function completeSecondFactor(
  deps: SecondFactorDeps & { mailer?: Mailer; siteUrl?: string },
  challengeToken: string | undefined,
  code: string,
  meta: RequestMeta & { replaceSessionId?: string | undefined },
): Promise<SecondFactorLogin> {
  const { db } = deps;
  const now = timeOf(deps);
  if (!isTokenShaped(challengeToken)) throw new AppError('invalid_token');
  // Each code typed spends one of the challenge's attempts, before it is checked.
  const challenge = await db
    .updateTable('login_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('token_hash', '=', hashToken(challengeToken))
    .where('expires_at', '>', now)
    .where('attempts', '<', CHALLENGE_MAX_ATTEMPTS)
    .returning(['id', 'user_id'])
    .executeTakeFirst();
  if (!challenge) {
    await db
      .deleteFrom('login_challenges')
      .where('token_hash', '=', hashToken(challengeToken))
      .execute();
    throw new AppError('invalid_token');
  }
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'full_name', 'role', 'email_verified_at'])
    .where('id', '=', challenge.user_id)
    .executeTakeFirstOrThrow();
  const keys = loginThrottleKeys(user.email, ipBucket(meta.ip));
  await beginAttempt(db, throttleKeyList(keys), now);
  const result = await db.transaction().execute(async (trx) => {
    const used = await useCode(trx, user.id, code, now);
    if (!used) return null;
    // Single-use: whichever request deletes it is the one that signs in.
    const taken = await trx
      .deleteFrom('login_challenges')
      .where('id', '=', challenge.id)
      .executeTakeFirst();
    if (taken.numDeletedRows === 0n) throw new AppError('invalid_token');
    if (used === 'recovery') await auditRecoveryCode(trx, user);
    if (meta.replaceSessionId) await invalidateSession(trx, meta.replaceSessionId);
    const opened = await createSession(trx, user.id, now);
    await trx
      .updateTable('users')
      .set({ last_sign_in_at: now })
      .where('id', '=', user.id)
      .execute();
    return { ...opened, used };
  });
  if (!result) throw new AppError('invalid_second_factor');
  await attemptSucceeded(db, keys);
  return {
    token: result.token,
    session: result.session,
    user: {
      id: user.id,
      email: user.email,
      name: user.full_name,
      role: user.role === 'admin' ? 'admin' : 'customer',
      emailVerified: user.email_verified_at !== null,
    },
    delivered:
      result.used === 'recovery' ? mailRecoveryCodeUse(deps, user, now) : Promise.resolve(),
  };
}

// ---------------------------------------------------------------------------------------------
// Re-authentication

/** What the re-authentication dialog asks for: the code when the factor is on, else the password. */
export async function reauthMethod(db: Executor, userId: string): Promise<'code' | 'password'> {
  return (await isEnabled(db, userId)) ? 'code' : 'password';
}

/**
 * Marks the session re-authenticated after a proof: the code (or a recovery code) when the
 * factor is on, the password otherwise. Throttled like a login.
 */
export async function reauthenticate(
  deps: SecondFactorDeps & { mailer?: Mailer; siteUrl?: string },
  user: Pick<SessionUser, 'id' | 'email'>,
  sessionId: string,
  proof: Proof,
  meta: RequestMeta,
): Promise<{ delivered: Promise<void> }> {
  const now = timeOf(deps);
  const method = await reauthMethod(deps.db, user.id);
  if (('code' in proof ? 'code' : 'password') !== method)
    throw new AppError('invalid_input', {
      fields: { [method]: 'admin.reauth.required' },
    });
  return checkProof(deps, user, proof, meta, now, async (trx) => {
    await trx
      .updateTable('sessions')
      .set({ reauthenticated_at: now })
      .where('id', '=', sessionId)
      .execute();
  });
}

/**
 * Refuses a sensitive action (`reauth_required`, 403) unless the session was re-authenticated in
 * the last REAUTH_TTL_MS; the answer says what the dialog must ask for.
 */
export async function requireRecentAuth(
  db: Executor,
  locals: { user?: SessionUser | null | undefined; session?: Session | null | undefined },
  now: Date = systemClock(),
): Promise<void> {
  if (isRecentlyReauthenticated(locals.session, now)) return;
  const method = locals.user ? await reauthMethod(db, locals.user.id) : 'password';
  throw new AppError('reauth_required', { details: { method } });
}

/** Whether the session's last re-authentication is under REAUTH_TTL_MS old. */
export function isRecentlyReauthenticated(
  session: Pick<Session, 'reauthenticatedAt'> | null | undefined,
  now: Date = systemClock(),
): boolean {
  const at = session?.reauthenticatedAt?.getTime();
  return at !== undefined && at <= now.getTime() && now.getTime() - at <= REAUTH_TTL_MS;
}
