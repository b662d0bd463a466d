// What anyone may learn of a certificate by its serial (issue 26): the work, the edition, the
// issue date, the state and the provenance as dates — never its holder, never the order. Lookups
// are rate-limited per network, so serials cannot be tried in bulk; the PDF needs its signed link.
import type { Database, Executor } from '../db/index.ts';
import { ipBucket } from '../contact/index.ts';
import { AppError } from '../http/errors.ts';
import { configuredMedia } from '../media/storage.ts';
import type { MediaStorage } from '../media/storage.ts';
import { hit, rateLimitKey, type RateLimitRule } from '../ratelimit/index.ts';
import {
  normalizeSerial,
  parisDate,
  type CertificateContent,
  type CertificateState,
  type ProvenanceStep,
} from './content.ts';
import { findCertificate, type StoredCertificate } from './index.ts';
import { checkDownloadToken } from './links.ts';
import { certificatePhoto, renderCertificatePdf } from './pdf.ts';
import { ensureSigningKey, publicSigningKeys, type PublicSigningKey } from './signing.ts';

/** Lookups of serials (page or JSON) per network per minute: plenty for people, little for a script. */
export const CERTIFICATE_LOOKUP_LIMIT: RateLimitRule = { limit: 30, windowSeconds: 60 };

export interface PublicCertificate {
  serial: string;
  state: CertificateState;
  /** When it stopped being valid (ISO), or null. */
  stateChangedAt: string | null;
  /** The newer serial of a reissue — the same holder's; a transfer's is not told. */
  replacedBy: string | null;
  /** The signed content, as issued (it names no buyer). */
  content: CertificateContent;
  signature: string;
  keyId: string;
  /** Sale and transfers, dates only, including a transfer of this very certificate. */
  provenance: ProvenanceStep[];
  key: PublicSigningKey | null;
}

const notFound = () => new AppError('not_found', { message: 'No certificate has this serial.' });

/** Counts one lookup from `ip`; rate_limited past the limit. */
export async function limitLookup(db: Database, ip: string, now: Date): Promise<void> {
  const bucket = ipBucket(ip) || 'unknown';
  const result = await hit(
    db,
    rateLimitKey('certificate:ip', bucket),
    CERTIFICATE_LOOKUP_LIMIT,
    now,
  );
  if (!result.allowed)
    throw new AppError('rate_limited', { retryAfterSeconds: result.retryAfterSeconds });
}

export function toPublic(
  found: StoredCertificate,
  keys: readonly PublicSigningKey[],
): PublicCertificate {
  const provenance = [...found.content.provenance];
  if (found.state === 'transferred' && found.stateChangedAt)
    provenance.push({ event: 'transfer', date: parisDate(found.stateChangedAt) });
  return {
    serial: found.serial,
    state: found.state,
    stateChangedAt: found.stateChangedAt,
    replacedBy: found.state === 'replaced' ? found.replacedBy : null,
    content: found.content,
    signature: found.signature,
    keyId: found.content.keyId,
    provenance,
    key: keys.find((k) => k.id === found.content.keyId) ?? null,
  };
}

/** The public view of a serial, counted against the asker's network; not_found when unknown. */
export async function lookupCertificate(
  db: Database,
  serialInput: string,
  ip: string,
  now: Date,
): Promise<PublicCertificate> {
  await limitLookup(db, ip, now);
  const serial = normalizeSerial(serialInput);
  if (!serial) throw notFound();
  const found = await findCertificate(db, serial);
  if (!found) throw notFound();
  return toPublic(found, await publicSigningKeys(db));
}

/** The PDF of a stored certificate, drawn from its signed content. */
export async function renderStoredCertificate(
  db: Executor,
  found: StoredCertificate,
  storage: MediaStorage = configuredMedia().storage,
): Promise<Uint8Array> {
  const photo = await certificatePhoto(db, storage, found.content.work.photo);
  return renderCertificatePdf(
    {
      algorithm: 'Ed25519',
      keyId: found.content.keyId,
      content: found.content,
      signature: found.signature,
    },
    photo,
  );
}

/** `certificat-GAL-….pdf` / `certificate-GAL-….pdf`. */
export function certificateFileName(found: StoredCertificate): string {
  return `${found.content.language === 'en' ? 'certificate' : 'certificat'}-${found.serial}.pdf`;
}

/**
 * The PDF through its signed link (the order mail, the account page): the token must be the
 * serial's; anything else is not found. A replaced, revoked or transferred certificate still
 * downloads — it says what it was — but the public page says what it is now.
 */
export async function certificatePdfByLink(
  db: Database,
  serialInput: string,
  token: string,
  storage?: MediaStorage,
): Promise<{ fileName: string; bytes: Uint8Array }> {
  const serial = normalizeSerial(serialInput);
  if (!serial) throw notFound();
  const key = await ensureSigningKey(db);
  if (!checkDownloadToken(key, serial, token)) throw notFound();
  const found = await findCertificate(db, serial);
  if (!found) throw notFound();
  return {
    fileName: certificateFileName(found),
    bytes: await renderStoredCertificate(db, found, storage),
  };
}

/** The photo of the certified work as the page draws it (its variants), or null without one. */
export async function certificatePhotoMeta(
  db: Executor,
  sha256: string | null,
  locale: 'fr' | 'en',
): Promise<{ sha256: string; width: number; height: number; alt: string } | null> {
  if (!sha256) return null;
  const row = await db
    .selectFrom('media')
    .select(['sha256', 'width', 'height', 'alt_fr', 'alt_en'])
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  if (!row) return null;
  return {
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    alt: (locale === 'en' ? row.alt_en : row.alt_fr) || '',
  };
}
