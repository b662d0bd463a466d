// What happens to a certificate after issue (issue 26): the owner reissues a lost one (the old
// serial says "replaced") or revokes one with a reason; a refund or a withdrawal revokes the
// order's certificates at once; the holder hands one to a new owner, who claims it with their own
// account and gets a fresh certificate (the old one says "transferred"). Every change is a state
// change of the old row plus, where it applies, a new signed row: a signed content never changes.
import { sql } from 'kysely';
import { owner } from '../accounts/orders.ts';
import { hashToken, isTokenShaped, randomToken } from '../accounts/tokens.ts';
import { audit, type Actor } from '../admin/audit.ts';
import type { Database, Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { normalizeSerial, parisDate } from './content.ts';
import { certificateSiteUrl, findCertificate, type StoredCertificate } from './index.ts';
import { reissueRow } from './issue.ts';

/** How long a transfer's claim link works. */
export const TRANSFER_TTL_MS = 14 * 24 * 3600 * 1000;

const notFound = () => new AppError('not_found', { message: 'No such certificate.' });

/** The certificate by a serial as typed; not_found for a malformed or unknown one. */
async function lockCertificate(trx: Executor, serialInput: string): Promise<StoredCertificate> {
  const serial = normalizeSerial(serialInput);
  if (!serial) throw notFound();
  await trx
    .selectFrom('certificates')
    .select('serial')
    .where('serial', '=', serial)
    .forUpdate()
    .executeTakeFirst();
  const found = await findCertificate(trx, serial);
  if (!found) throw notFound();
  return found;
}

const summary = (c: Pick<StoredCertificate, 'serial' | 'state'>) => ({
  serial: c.serial,
  state: c.state,
});

async function setState(
  trx: Executor,
  serial: string,
  values: {
    state: 'replaced' | 'revoked' | 'transferred';
    now: Date;
    reason?: string;
  },
): Promise<void> {
  await trx
    .updateTable('certificates')
    .set({
      state: values.state,
      state_changed_at: values.now,
      revoked_reason: values.reason ?? null,
    })
    .where('serial', '=', serial)
    .where('state', '=', 'valid')
    .execute();
  // A pending hand-over of a certificate that is no longer valid can no longer be claimed.
  await trx
    .updateTable('certificate_transfers')
    .set({ cancelled_at: values.now })
    .where('serial', '=', serial)
    .where('claimed_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .execute();
}

/** The owner revokes a valid certificate, saying why. */
export async function revokeCertificate(
  db: Database,
  actor: Actor,
  serialInput: string,
  reason: string,
  now: Date,
): Promise<{ serial: string; state: 'revoked' }> {
  const why = reason.trim();
  if (why.length < 3 || why.length > 500)
    throw new AppError('invalid_input', {
      fields: { reason: 'Dites pourquoi (3 à 500 caractères).' },
    });
  return db.transaction().execute(async (trx) => {
    const found = await lockCertificate(trx, serialInput);
    if (found.state !== 'valid')
      throw new AppError('version_conflict', {
        message: `Ce certificat n’est plus valide (${found.state}).`,
      });
    await setState(trx, found.serial, { state: 'revoked', now, reason: why });
    await audit(trx, actor, 'certificate.revoke', 'certificate', found.serial, summary(found), {
      serial: found.serial,
      state: 'revoked',
      reason: why,
    });
    return { serial: found.serial, state: 'revoked' as const };
  });
}

/** The owner reissues a lost certificate: the old one is "replaced" by a new serial. */
export async function reissueCertificate(
  db: Database,
  actor: Actor,
  serialInput: string,
  now: Date,
  siteUrl: string = certificateSiteUrl(),
): Promise<{ serial: string; replaced: string }> {
  return db.transaction().execute(async (trx) => {
    const found = await lockCertificate(trx, serialInput);
    if (found.state !== 'valid')
      throw new AppError('version_conflict', {
        message: `Seul un certificat valide peut être réémis (celui-ci : ${found.state}).`,
      });
    const serial = await reissueRow(trx, found, now, siteUrl, {
      locale: found.content.language,
      holderUserId: found.holderUserId,
      holderEmail: found.holderEmail,
      provenance: found.content.provenance,
      replaces: found.serial,
      retireOld: () => setState(trx, found.serial, { state: 'replaced', now }),
    });
    await audit(trx, actor, 'certificate.reissue', 'certificate', found.serial, summary(found), {
      serial: found.serial,
      state: 'replaced',
      replacedBy: serial,
    });
    return { serial, replaced: found.serial };
  });
}

const RETURN_REASONS = {
  cancellation: 'Commande annulée',
  refund: 'Commande remboursée',
  withdrawal: 'Rétractation de l’acheteur',
} as const;

/**
 * A refund, a cancellation or a withdrawal brought the order's works back: every valid
 * certificate of the order is revoked in the same transaction, and the audit log says so.
 */
export async function revokeOrderCertificates(
  trx: Executor,
  orderId: string,
  now: Date,
  reason: keyof typeof RETURN_REASONS,
  actor: Actor | null = null,
  /** Only the certificates of these order lines (a refund of some lines, issue 27). */
  itemIds?: readonly number[],
): Promise<string[]> {
  if (itemIds?.length === 0) return [];
  const rows = await trx
    .selectFrom('certificates')
    .select('serial')
    .where('order_id', '=', orderId)
    .$if(itemIds !== undefined, (qb) => qb.where('order_item_id', 'in', itemIds!))
    .where('state', '=', 'valid')
    .forUpdate()
    .execute();
  for (const { serial } of rows) {
    await setState(trx, serial, { state: 'revoked', now, reason: RETURN_REASONS[reason] });
    await trx
      .insertInto('audit_log')
      .values({
        actor_id: actor?.id ?? null,
        actor_email: actor?.email ?? null,
        action: 'certificate.revoke',
        entity: 'certificate',
        entity_id: serial,
        at: now,
        before: JSON.stringify({ serial, state: 'valid' }),
        after: JSON.stringify({ serial, state: 'revoked', reason: RETURN_REASONS[reason] }),
      })
      .execute();
  }
  return rows.map((r) => r.serial);
}

/** Whether the signed-in user holds the certificate: by account, or by verified address. */
async function heldBy(
  db: Executor,
  userId: string,
  certificate: Pick<StoredCertificate, 'holderUserId' | 'holderEmail'>,
): Promise<boolean> {
  if (certificate.holderUserId) return certificate.holderUserId === userId;
  const me = await owner(db, userId);
  return !!me?.verifiedEmail && me.verifiedEmail === certificate.holderEmail.toLowerCase();
}

/** The valid certificates the account holds, newest first. */
export async function heldCertificates(
  db: Executor,
  user: { id: string },
): Promise<StoredCertificate[]> {
  const me = await owner(db, user.id);
  if (!me) return [];
  const rows = await db
    .selectFrom('certificates')
    .select('serial')
    .where('state', '=', 'valid')
    .where(
      me.verifiedEmail
        ? sql<boolean>`(holder_user_id = ${me.id} OR (holder_user_id IS NULL AND lower(holder_email) = ${me.verifiedEmail}))`
        : sql<boolean>`holder_user_id = ${me.id}`,
    )
    .orderBy('issued_at', 'desc')
    .limit(500)
    .execute();
  const out: StoredCertificate[] = [];
  for (const row of rows) {
    const found = await findCertificate(db, row.serial);
    if (found) out.push(found);
  }
  return out;
}

export interface TransferRequest {
  serial: string;
  email: string;
  locale: 'fr' | 'en';
}

export interface StartedTransfer {
  serial: string;
  email: string;
  locale: 'fr' | 'en';
  expiresAt: string;
  /** The claim link, for the mail only. */
  token: string;
  content: StoredCertificate['content'];
}

/**
 * The holder offers a certificate to a new owner's address: one pending offer per certificate (a
 * new one replaces the previous). The claim link goes by mail (the caller sends it).
 */
export async function startTransfer(
  db: Database,
  user: { id: string; email: string },
  request: TransferRequest,
  now: Date,
): Promise<StartedTransfer> {
  return db.transaction().execute(async (trx) => {
    const serial = normalizeSerial(request.serial);
    if (!serial) throw notFound();
    const found = await lockCertificate(trx, serial);
    if (found.state !== 'valid' || !(await heldBy(trx, user.id, found))) throw notFound();
    const email = request.email.trim().toLowerCase();
    if (email === user.email.trim().toLowerCase())
      throw new AppError('invalid_input', {
        fields: { email: 'certificates.transfer.self' },
      });
    await trx
      .updateTable('certificate_transfers')
      .set({ cancelled_at: now })
      .where('serial', '=', serial)
      .where('claimed_at', 'is', null)
      .where('cancelled_at', 'is', null)
      .execute();
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + TRANSFER_TTL_MS);
    await trx
      .insertInto('certificate_transfers')
      .values({
        serial,
        new_owner_email: email,
        locale: request.locale,
        token_hash: hashToken(token),
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return {
      serial,
      email,
      locale: request.locale,
      expiresAt: expiresAt.toISOString(),
      token,
      content: found.content,
    };
  });
}

export interface PendingTransfer {
  serial: string;
  locale: 'fr' | 'en';
  expiresAt: string;
  content: StoredCertificate['content'];
}

async function pendingTransfer(db: Executor, token: string, now: Date, lock: boolean) {
  if (!isTokenShaped(token)) throw new AppError('invalid_token');
  let query = db
    .selectFrom('certificate_transfers')
    .select(['id', 'serial', 'locale', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .where('claimed_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .where('expires_at', '>', now);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError('invalid_token');
  const found = await findCertificate(db, row.serial);
  if (!found || found.state !== 'valid') throw new AppError('invalid_token');
  return { row, found };
}

/** What the claim page shows before the new owner accepts: the work, never the sender. */
export async function transferByToken(
  db: Executor,
  token: string,
  now: Date,
): Promise<PendingTransfer> {
  const { row, found } = await pendingTransfer(db, token, now, false);
  return {
    serial: found.serial,
    locale: row.locale === 'en' ? 'en' : 'fr',
    expiresAt: new Date(row.expires_at).toISOString(),
    content: found.content,
  };
}

/**
 * The new owner, signed in, claims the certificate: a fresh one is issued to their account, the
 * old one says "transferred", and the provenance gains the transfer's date.
 */
export async function claimTransfer(
  db: Database,
  user: { id: string; email: string },
  token: string,
  now: Date,
  siteUrl: string = certificateSiteUrl(),
): Promise<{ serial: string }> {
  return db.transaction().execute(async (trx) => {
    const { row, found } = await pendingTransfer(trx, token, now, true);
    await lockCertificate(trx, found.serial);
    if (await heldBy(trx, user.id, found))
      throw new AppError('rejected', { message: 'This certificate is already yours.' });
    const serial = await reissueRow(trx, found, now, siteUrl, {
      locale: row.locale === 'en' ? 'en' : 'fr',
      holderUserId: user.id,
      holderEmail: user.email,
      provenance: [...found.content.provenance, { event: 'transfer', date: parisDate(now) }],
      replaces: null,
      retireOld: () => setState(trx, found.serial, { state: 'transferred', now }),
    });
    await trx
      .updateTable('certificate_transfers')
      .set({ claimed_at: now, claimed_by: user.id, new_serial: serial, cancelled_at: null })
      .where('id', '=', row.id)
      .execute();
    return { serial };
  });
}
