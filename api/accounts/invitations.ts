// Administrator invitations (ARCHITECTURE "Accounts and admin"): no default credential exists;
// the owner runs `npm run admin:invite -- <email>`, which stores a hashed, single-use invitation
// valid 72 hours and prints its link. Accepting it creates a new administrator account.
import { audit } from '../admin/audit.ts';
import { isUniqueViolation, type Database } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { findUserByEmail } from './users.ts';
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

/**
 * Creates the administrator of an invitation and signs them in: `invalid_token` when the link is
 * unknown, used or expired; `account_exists` when its address has meanwhile got an account.
 */
export async function acceptAdminInvitation(
  deps: { db: Database; now?: Clock },
  input: AcceptInvitationInput,
): Promise<{ token: string; session: Session; user: SessionUser }> {
  const { db } = deps;
  const now = timeOf(deps);
  if (!isTokenShaped(input.token)) throw new AppError('invalid_token');
  const tokenHash = hashToken(input.token);
  const invitation = await db
    .selectFrom('admin_invitations')
    .select(['id', 'email'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!invitation) throw new AppError('invalid_token');
  if (await findUserByEmail(db, invitation.email)) throw new AppError('account_exists');
  assertUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('admin_invitations')
        .set({ used_at: now })
        .where('id', '=', invitation.id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('email')
        .executeTakeFirst();
      if (!used) throw new AppError('invalid_token');
      const user = await trx
        .insertInto('users')
        .values({
          email: used.email,
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
