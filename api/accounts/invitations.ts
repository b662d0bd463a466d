// Administrator invitations (ARCHITECTURE "Accounts and admin"): no default credential exists;
// the owner runs `npm run admin:invite -- <email>`, which stores a hashed, single-use invitation
// valid 72 hours and prints its link. Accepting it creates a new administrator account. The
// first administrator's setup link (api/accounts/setup-link.ts) is an invitation without an
// address: its email is chosen on acceptance, and only while no administrator exists.
import { sql } from 'kysely';
import { audit } from '../admin/audit.ts';
import { isUniqueViolation, type Database } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { findUserByEmail, hasAdmin } from './users.ts';
import { assertUncommonPassword, hashPassword } from './passwords.ts';
import { createSession, type Session, type SessionUser } from './sessions.ts';
import { hashToken, isTokenShaped, randomToken } from './tokens.ts';
import type { AcceptInvitationInput } from '../../src/schemas/accounts.ts';
import { type Clock, timeOf } from '../clock.ts';

export const INVITATION_TTL_MS = 72 * 3600 * 1000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface Invitation {
  email: string;
  url: string;
  expiresAt: Date;
}

/**
 * A new invitation for `email`; `invalid_input` for a malformed address and `account_exists`
 * when the address already has an account (an existing account is never promoted).
 */
export async function createAdminInvitation(
  db: Database,
  rawEmail: string,
  options: { siteUrl: string; createdBy?: string | null; now?: Clock },
): Promise<Invitation> {
  const email = rawEmail.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email))
    throw new AppError('invalid_input', { message: `“${rawEmail}” is not an email address.` });
  if (await findUserByEmail(db, email))
    throw new AppError('account_exists', {
      message: `${email} already has an account; invite another address (existing accounts are never promoted).`,
    });
  const now = timeOf(options);
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  await db
    .insertInto('admin_invitations')
    .values({
      email,
      token_hash: hashToken(token),
      created_by: options.createdBy ?? null,
      expires_at: expiresAt,
      created_at: now,
    })
    .execute();
  const url = `${options.siteUrl}/admin/invitation?${new URLSearchParams({ token })}`;
  return { email, url, expiresAt };
}

/** What the invitation page says of a link: for whom, until when; null when it cannot be used. */
export interface InvitationView {
  /** The invited address; null for the first administrator's setup link (chosen on acceptance). */
  email: string | null;
  expiresAt: Date;
}

/** A usable invitation by token (a setup link only while no administrator exists). */
async function usableInvitation(db: Database, token: string, now: Date) {
  if (!isTokenShaped(token)) return undefined;
  const invitation = await db
    .selectFrom('admin_invitations')
    .select(['id', 'email', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (invitation?.email === null && (await hasAdmin(db))) return undefined;
  return invitation;
}

/** For the invitation page (issue 27 item 6: the invitation names its email). */
export async function describeInvitation(
  deps: { db: Database; now?: Clock },
  token: string,
): Promise<InvitationView | null> {
  const invitation = await usableInvitation(deps.db, token, timeOf(deps));
  return invitation ? { email: invitation.email, expiresAt: invitation.expires_at } : null;
}

/** Taken in the transaction that creates the first administrator: two setup links, one owner. */
const FIRST_ADMIN_LOCK = sql`select pg_advisory_xact_lock(hashtext('galerie.first-administrator'))`;

/**
 * Creates the administrator of an invitation and signs them in: `invalid_token` when the link is
 * unknown, used or expired (a setup link also once an administrator exists); `account_exists`
 * when the address has meanwhile got an account; `invalid_input` (field `email`) when a setup
 * link is accepted without an address.
 */
export async function acceptAdminInvitation(
  deps: { db: Database; now?: Clock },
  input: AcceptInvitationInput,
): Promise<{ token: string; session: Session; user: SessionUser }> {
  const { db } = deps;
  const now = timeOf(deps);
  const invitation = await usableInvitation(db, input.token, now);
  if (!invitation) throw new AppError('invalid_token');
  const setup = invitation.email === null;
  // A named invitation's address is its own, whatever the form sent.
  const email = invitation.email ?? input.email;
  if (!email)
    throw new AppError('invalid_input', { fields: { email: 'auth.error.emailRequired' } });
  if (await findUserByEmail(db, email)) throw new AppError('account_exists');
  assertUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      if (setup) {
        await FIRST_ADMIN_LOCK.execute(trx);
        if (await hasAdmin(trx)) throw new AppError('invalid_token');
      }
      const used = await trx
        .updateTable('admin_invitations')
        .set({ used_at: now })
        .where('id', '=', invitation.id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('id')
        .executeTakeFirst();
      if (!used) throw new AppError('invalid_token');
      const user = await trx
        .insertInto('users')
        .values({
          email,
          full_name: input.fullName,
          password_hash: passwordHash,
          role: 'admin',
          created_at: now,
          updated_at: now,
          last_sign_in_at: now,
        })
        .returning(['id', 'email', 'full_name'])
        .executeTakeFirstOrThrow();
      const { token, session } = await createSession(trx, user.id, now);
      return {
        token,
        session,
        user: {
          id: user.id,
          email: user.email,
          name: user.full_name,
          role: 'admin' as const,
          emailVerified: false,
        },
      };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('account_exists');
    throw error;
  }
}

/**
 * An invitation made from the back office (docs/decisions/037): as the CLI's, plus who made it
 * and an audit entry, in one transaction. The endpoint asks for a re-authentication first: a
 * stolen session must not be able to mint an administrator.
 */
export async function inviteAdministrator(
  db: Database,
  email: string,
  actor: { id: string; email: string },
  options: { siteUrl: string; now?: Clock },
): Promise<Invitation> {
  return db.transaction().execute(async (trx) => {
    const invitation = await createAdminInvitation(trx, email, { ...options, createdBy: actor.id });
    await audit(trx, actor, 'admin.invite', 'invitation', invitation.email, null, {
      email: invitation.email,
      expiresAt: invitation.expiresAt.toISOString(),
    });
    return invitation;
  });
}
