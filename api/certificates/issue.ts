// Making one certificate: its content (what it certifies, read at issue, in both languages),
// signed with the active key, stored with its holder. Issuing, reissuing and transfers all end here.
import type { Executor } from '../db/index.ts';
import { getSettings } from '../settings/index.ts';
import { editionLabel, type EditionKind } from '../../src/domain/editions.ts';
import {
  CERTIFICATE_FORMAT,
  newSerial,
  type CertificateContent,
  type ProvenanceStep,
} from './content.ts';
import type { StoredCertificate } from './index.ts';
import { publicCertificateUrl } from './links.ts';
import { ensureSigningKey, signContent } from './signing.ts';

export interface Subject {
  orderId: string;
  orderItemId: number;
  artworkId: number | null;
  edition: { kind: EditionKind; number: number; size: number } | null;
  locale: 'fr' | 'en';
  holderUserId: string | null;
  holderEmail: string;
  saleDate: string;
  provenance: ProvenanceStep[];
  replaces: string | null;
}

/** The work as the certificate describes it, read now (titles and texts in both languages). */
async function workOf(
  trx: Executor,
  artworkId: number | null,
  fallbackTitle: string,
  type: 'original' | 'print',
): Promise<CertificateContent['work']> {
  const art = artworkId
    ? await trx
        .selectFrom('artworks')
        .leftJoin('media', 'media.id', 'artworks.media_id')
        .select([
          'artworks.title_fr',
          'artworks.title_en',
          'artworks.year',
          'artworks.technique_fr',
          'artworks.technique_en',
          'artworks.dimensions',
          'artworks.signature_fr',
          'artworks.signature_en',
          'artworks.original_id',
          'media.sha256',
        ])
        .where('artworks.id', '=', artworkId)
        .executeTakeFirst()
    : undefined;
  if (!art)
    return {
      type,
      title: { fr: fallbackTitle, en: fallbackTitle },
      year: null,
      technique: { fr: '', en: '' },
      dimensions: '',
      signed: { fr: '', en: '' },
      photo: null,
    };
  return {
    type,
    title: { fr: art.title_fr, en: art.title_en || art.title_fr },
    year: art.year,
    technique: { fr: art.technique_fr, en: art.technique_en || art.technique_fr },
    dimensions: art.dimensions,
    signed: { fr: art.signature_fr, en: art.signature_en || art.signature_fr },
    photo: art.sha256 ?? null,
  };
}

/** Signs and stores one certificate; returns its serial. */
export async function insertCertificate(
  trx: Executor,
  subject: Subject,
  now: Date,
  siteUrl: string,
): Promise<string> {
  const key = await ensureSigningKey(trx, now);
  const settings = await getSettings(trx);
  const item = await trx
    .selectFrom('order_items')
    .select(['title', 'artwork_type'])
    .where('id', '=', subject.orderItemId)
    .executeTakeFirstOrThrow();
  const type = item.artwork_type === 'original' ? 'original' : 'print';
  const serial = newSerial();
  const content: CertificateContent = {
    format: CERTIFICATE_FORMAT,
    serial,
    keyId: key.id,
    issuedAt: now.toISOString(),
    language: subject.locale,
    artist: settings.artist_name,
    work: await workOf(trx, subject.artworkId, item.title, type),
    edition: subject.edition ? { ...subject.edition, label: editionLabel(subject.edition) } : null,
    saleDate: subject.saleDate,
    gallery: await galleryOf(trx, siteUrl),
    publicUrl: publicCertificateUrl(siteUrl, serial, subject.locale),
    provenance: subject.provenance,
    replaces: subject.replaces,
  };
  await trx
    .insertInto('certificates')
    .values({
      serial,
      order_id: subject.orderId,
      order_item_id: subject.orderItemId,
      artwork_id: subject.artworkId,
      edition_kind: subject.edition?.kind ?? null,
      edition_number: subject.edition?.number ?? null,
      locale: subject.locale,
      issued_at: now,
      state: 'valid',
      predecessor: subject.replaces,
      holder_user_id: subject.holderUserId,
      holder_email: subject.holderEmail,
      key_id: key.id,
      content: JSON.stringify(content),
      signature: signContent(content, key.privateKey),
    })
    .execute();
  return serial;
}

/** The gallery as the settings name it now: the legal identity, else the site's. */
async function galleryOf(trx: Executor, siteUrl: string): Promise<CertificateContent['gallery']> {
  const settings = await getSettings(trx);
  const legal = settings.legal_identity;
  return {
    name: legal.name.trim() || settings.site_title,
    address: legal.address.trim() || settings.contact_address,
    siret: legal.siret.trim(),
    email: settings.contact_email,
    url: siteUrl,
  };
}

/**
 * A new certificate standing for an old one (a reissue, or a transfer): the work, its edition and
 * its date of sale as the old one certified them, a new serial and issue date, signed now. The old
 * row leaves the 'valid' state first (one valid certificate per sold thing), then points to the
 * new one.
 */
export async function reissueRow(
  trx: Executor,
  old: StoredCertificate,
  now: Date,
  siteUrl: string,
  next: {
    locale: 'fr' | 'en';
    holderUserId: string | null;
    holderEmail: string;
    provenance: ProvenanceStep[];
    replaces: string | null;
    /** Moves the old row out of 'valid'. */
    retireOld: () => Promise<void>;
  },
): Promise<string> {
  const key = await ensureSigningKey(trx, now);
  const serial = newSerial();
  const content: CertificateContent = {
    ...old.content,
    serial,
    keyId: key.id,
    issuedAt: now.toISOString(),
    language: next.locale,
    gallery: await galleryOf(trx, siteUrl),
    publicUrl: publicCertificateUrl(siteUrl, serial, next.locale),
    provenance: next.provenance,
    replaces: next.replaces,
  };
  const row = await trx
    .selectFrom('certificates')
    .select(['order_id', 'order_item_id', 'artwork_id', 'edition_kind', 'edition_number'])
    .where('serial', '=', old.serial)
    .executeTakeFirstOrThrow();
  await next.retireOld();
  await trx
    .insertInto('certificates')
    .values({
      ...row,
      serial,
      locale: next.locale,
      issued_at: now,
      state: 'valid',
      predecessor: old.serial,
      holder_user_id: next.holderUserId,
      holder_email: next.holderEmail,
      key_id: key.id,
      content: JSON.stringify(content),
      signature: signContent(content, key.privateKey),
    })
    .execute();
  await trx
    .updateTable('certificates')
    .set({ replaced_by: serial })
    .where('serial', '=', old.serial)
    .execute();
  return serial;
}
