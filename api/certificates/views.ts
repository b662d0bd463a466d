// The lists the account page and the back office show (issue 26): the holder's valid certificates
// with their links and pending hand-over, and an order's certificates with their whole history.
import type { Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import type { AdminCertificate, HeldCertificate } from '../../src/schemas/certificates.ts';
import { natureText } from './content.ts';
import { certificateSiteUrl, listOrderCertificates } from './index.ts';
import { heldCertificates } from './lifecycle.ts';
import { pdfDownloadUrl, publicCertificateUrl } from './links.ts';
import { ensureSigningKey } from './signing.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function accountCertificates(
  db: Executor,
  user: { id: string },
  locale: 'fr' | 'en',
  now: Date,
  siteUrl: string = certificateSiteUrl(),
): Promise<HeldCertificate[]> {
  const held = await heldCertificates(db, user);
  if (held.length === 0) return [];
  const key = await ensureSigningKey(db);
  const pending = await db
    .selectFrom('certificate_transfers')
    .select(['serial', 'new_owner_email', 'expires_at'])
    .where(
      'serial',
      'in',
      held.map((c) => c.serial),
    )
    .where('claimed_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  return held.map((c) => {
    const offer = pending.find((p) => p.serial === c.serial);
    return {
      serial: c.serial,
      title: c.content.work.title[locale],
      nature: natureText(c.content, locale),
      issuedAt: c.issuedAt,
      pdfUrl: pdfDownloadUrl(siteUrl, key, c.serial),
      publicUrl: publicCertificateUrl(siteUrl, c.serial, locale),
      pendingTransfer: offer
        ? { email: offer.new_owner_email, expiresAt: new Date(offer.expires_at).toISOString() }
        : null,
    };
  });
}

/** Every certificate issued for the order, replaced and transferred ones included. */
export async function adminOrderCertificates(
  db: Executor,
  orderId: string,
  siteUrl: string = certificateSiteUrl(),
): Promise<AdminCertificate[]> {
  if (!UUID.test(orderId)) throw new AppError('not_found', { message: 'No such order.' });
  const rows = await listOrderCertificates(db, [orderId]);
  if (rows.length === 0) return [];
  const key = await ensureSigningKey(db);
  return rows.map((c) => ({
    serial: c.serial,
    label: c.content.edition?.label ?? null,
    title: c.content.work.title.fr,
    state: c.state,
    issuedAt: c.issuedAt,
    stateChangedAt: c.stateChangedAt,
    replacedBy: c.replacedBy,
    revokedReason: c.revokedReason,
    holderEmail: c.holderEmail,
    pdfUrl: pdfDownloadUrl(siteUrl, key, c.serial),
    publicUrl: publicCertificateUrl(siteUrl, c.serial, 'fr'),
  }));
}
