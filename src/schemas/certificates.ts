// Certificates of authenticity (issue 26, docs/decisions/046): the inputs of the holder's transfer
// and of the owner's revocation, and the shapes the account page and the back office receive.
// Written with zod/mini so the account island stays small; error messages are translation keys.
import * as z from 'zod/mini';

export type CertificateStateName = 'valid' | 'replaced' | 'revoked' | 'transferred';

export const certificateTransferSchema = z.strictObject(
  {
    serial: z
      .string({ error: 'certificates.error.invalid' })
      .check(
        z.trim(),
        z.toUpperCase(),
        z.regex(/^GAL-[A-Z2-7]{20}$/, { error: 'certificates.error.invalid' }),
      ),
    email: z
      .string({ error: 'certificates.error.email' })
      .check(
        z.trim(),
        z.toLowerCase(),
        z.minLength(1, { error: 'certificates.error.email' }),
        z.maxLength(254, { error: 'certificates.error.email' }),
        z.regex(z.regexes.email, { error: 'certificates.error.email' }),
      ),
    locale: z.enum(['fr', 'en'], { error: 'certificates.error.invalid' }),
  },
  { error: 'certificates.error.invalid' },
);
export type CertificateTransferInput = z.infer<typeof certificateTransferSchema>;

export const certificateRevokeSchema = z.strictObject({
  reason: z
    .string({ error: 'Dites pourquoi (3 à 500 caractères).' })
    .check(
      z.trim(),
      z.minLength(3, { error: 'Dites pourquoi (3 à 500 caractères).' }),
      z.maxLength(500, { error: 'Dites pourquoi (3 à 500 caractères).' }),
    ),
});
export type CertificateRevokeInput = z.infer<typeof certificateRevokeSchema>;

/** A certificate the signed-in account holds, as its account page lists it. */
export interface HeldCertificate {
  serial: string;
  title: string;
  /** 'pièce unique' / the edition number, in the page's language. */
  nature: string;
  issuedAt: string;
  pdfUrl: string;
  publicUrl: string;
  /** A transfer offered and not yet claimed: to whom (the address the holder typed) and until when. */
  pendingTransfer: { email: string; expiresAt: string } | null;
}

/** A certificate in the back office's order detail (French only): the holder is shown there. */
export interface AdminCertificate {
  serial: string;
  label: string | null;
  title: string;
  state: CertificateStateName;
  issuedAt: string;
  stateChangedAt: string | null;
  replacedBy: string | null;
  revokedReason: string | null;
  holderEmail: string;
  pdfUrl: string;
  publicUrl: string;
}
