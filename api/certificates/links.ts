// The links a certificate is reached by: its public page, and its PDF through a signed link that
// works without an account (the order mail, the account page).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { loadConfig } from '../config.ts';
import { linkSecret, type SigningKey } from './signing.ts';

/** The site's address for the links a certificate carries (PUBLIC_SITE_URL). */
export function certificateSiteUrl(): string {
  return loadConfig().siteUrl;
}

/** `/certificat/<serial>` or `/en/certificate/<serial>`, absolute. */
export function publicCertificateUrl(siteUrl: string, serial: string, locale: 'fr' | 'en'): string {
  return locale === 'en'
    ? `${siteUrl}/en/certificate/${serial}`
    : `${siteUrl}/certificat/${serial}`;
}

/** The download link's token: an HMAC of the serial, so the link needs no account and no row. */
export function downloadToken(key: SigningKey, serial: string): string {
  return createHmac('sha256', linkSecret(key))
    .update(`pdf:${serial}`)
    .digest('base64url')
    .slice(0, 32);
}

export function checkDownloadToken(key: SigningKey, serial: string, token: string): boolean {
  const expected = Buffer.from(downloadToken(key, serial));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function pdfDownloadUrl(siteUrl: string, key: SigningKey, serial: string): string {
  return `${siteUrl}/api/certificates/${serial}/pdf?token=${downloadToken(key, serial)}`;
}
