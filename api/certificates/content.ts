// What a certificate of authenticity says (issue 26): the content that is signed, frozen at issue.
// Every text a reader sees is in it, in both languages, so the PDF (in the buyer's language) and the
// public page (in the visitor's) are drawn from the signed content alone — and it names no buyer.
import { randomBytes } from 'node:crypto';
import type { EditionKind } from '../../src/domain/editions.ts';
import { formatLongDate } from '../../src/domain/dates.ts';

export const CERTIFICATE_FORMAT = 'galerie-certificate/1';

export type CertificateState = 'valid' | 'replaced' | 'revoked' | 'transferred';
export const CERTIFICATE_STATES: readonly CertificateState[] = [
  'valid',
  'replaced',
  'revoked',
  'transferred',
];

export interface Bilingual {
  fr: string;
  en: string;
}

/** One step of the work's provenance since the gallery sold it: dates only, never a person. */
export interface ProvenanceStep {
  event: 'sale' | 'transfer';
  /** YYYY-MM-DD, Paris time. */
  date: string;
}

export interface CertificateContent {
  format: typeof CERTIFICATE_FORMAT;
  serial: string;
  keyId: string;
  /** ISO 8601 instant. */
  issuedAt: string;
  /** The language of the PDF (the buyer's). */
  language: 'fr' | 'en';
  artist: string;
  work: {
    type: 'original' | 'print';
    title: Bilingual;
    year: number | null;
    technique: Bilingual;
    dimensions: string;
    /** Where the work is signed, as the owner wrote it ('' when not said). */
    signed: Bilingual;
    /** SHA-256 of the photo's master, so the PDF always shows the same photo; null without one. */
    photo: string | null;
  };
  /** null for an original: a unique work. */
  edition: { kind: EditionKind; number: number; size: number; label: string } | null;
  /** YYYY-MM-DD, Paris time. */
  saleDate: string;
  gallery: { name: string; address: string; siret: string; email: string; url: string };
  /** The certificate's public page. */
  publicUrl: string;
  provenance: ProvenanceStep[];
  /** The certificate this one replaces (a reissue), or null. */
  replaces: string | null;
}

// RFC 4648 base32 alphabet: no 0/1/8/9, read aloud or typed without confusing O and 0.
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const SERIAL_PATTERN = /^GAL-[A-Z2-7]{20}$/;

/** 'GAL-' and 20 base32 characters: 100 random bits, not to be guessed or enumerated. */
export function newSerial(): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const byte of bytes) out += BASE32[byte & 31];
  return `GAL-${out}`;
}

/** A serial as a person may type it (lower case, spaces or dashes in groups) → its stored form. */
export function normalizeSerial(input: string): string | null {
  const compact = input
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '');
  const serial = compact.startsWith('GAL') ? `GAL-${compact.slice(3)}` : '';
  return SERIAL_PATTERN.test(serial) ? serial : null;
}

const parisDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** YYYY-MM-DD of an instant in the gallery's time zone. */
export function parisDate(instant: Date | string): string {
  return parisDay.format(new Date(instant));
}

/** '26 novembre 2026' / '26 November 2026' of a YYYY-MM-DD or an instant. */
export function longDate(value: string, locale: 'fr' | 'en'): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  return formatLongDate(locale, date);
}

/** The words the PDF and the public page share. */
export const CERTIFICATE_TEXT = {
  fr: {
    title: 'Certificat d’authenticité',
    artist: 'Artiste',
    work: 'Œuvre',
    year: 'Année',
    technique: 'Technique',
    dimensions: 'Dimensions',
    nature: 'Nature',
    unique: 'Œuvre originale — pièce unique',
    edition: 'Édition',
    signed: 'Signature',
    notSigned: 'non précisé',
    saleDate: 'Date de vente',
    issued: 'Date d’émission',
    serial: 'Numéro de série',
    gallery: 'Galerie',
    key: 'Clé de signature',
    signature: 'Signature électronique (Ed25519)',
    verify:
      'Vérifiez ce certificat à l’adresse ci-dessous ou avec la clé publique de la galerie\u00a0:',
    statement: (artist: string) =>
      `La galerie certifie que l’œuvre décrite ci-dessous est une œuvre authentique de ${artist}.`,
    replaces: (serial: string) => `Remplace le certificat ${serial}.`,
    provenance: 'Provenance',
    sale: 'Vente par la galerie',
    transfer: 'Transfert à un nouveau propriétaire',
    unknownYear: 'non précisée',
  },
  en: {
    title: 'Certificate of authenticity',
    artist: 'Artist',
    work: 'Work',
    year: 'Year',
    technique: 'Technique',
    dimensions: 'Dimensions',
    nature: 'Nature',
    unique: 'Original work — unique work',
    edition: 'Edition',
    signed: 'Signature',
    notSigned: 'not stated',
    saleDate: 'Date of sale',
    issued: 'Date of issue',
    serial: 'Serial number',
    gallery: 'Gallery',
    key: 'Signing key',
    signature: 'Electronic signature (Ed25519)',
    verify: 'Check this certificate at the address below or with the gallery’s public key:',
    statement: (artist: string) =>
      `The gallery certifies that the work described below is an authentic work by ${artist}.`,
    replaces: (serial: string) => `Replaces certificate ${serial}.`,
    provenance: 'Provenance',
    sale: 'Sold by the gallery',
    transfer: 'Transferred to a new owner',
    unknownYear: 'not stated',
  },
} as const;

/** 'Tirage n° 7/50' / 'Print no. 7/50', artist's proofs and HC copies named as such. */
export function editionText(
  edition: NonNullable<CertificateContent['edition']>,
  locale: 'fr' | 'en',
) {
  const label = edition.label;
  if (edition.kind === 'ea')
    return locale === 'fr' ? `Épreuve d’artiste ${label}` : `Artist’s proof ${label}`;
  if (edition.kind === 'hc')
    return locale === 'fr' ? `Exemplaire hors commerce ${label}` : `Hors commerce copy ${label}`;
  return locale === 'fr'
    ? `Tirage d’art, exemplaire n° ${label}`
    : `Fine-art print, copy no. ${label}`;
}

/** The nature line: "pièce unique" for an original, the edition number for a print. */
export function natureText(content: CertificateContent, locale: 'fr' | 'en'): string {
  return content.edition ? editionText(content.edition, locale) : CERTIFICATE_TEXT[locale].unique;
}

/** Reads stored or extracted content; throws when it is not a certificate's content. */
export function asContent(value: unknown): CertificateContent {
  const content = (typeof value === 'string' ? JSON.parse(value) : value) as CertificateContent;
  if (
    !content ||
    typeof content !== 'object' ||
    content.format !== CERTIFICATE_FORMAT ||
    typeof content.serial !== 'string'
  )
    throw new Error('Not the content of a Galerie certificate.');
  return content;
}
