// The links the buyer's mails carry, with one wording per target in each language (issue 26): the
// same words for the invoice, the withdrawal form or the terms in every mail that links them.
import type { MailPart } from './compose.ts';

type Locale = 'fr' | 'en';

export const LINK_LABELS = {
  invoice: { fr: 'Télécharger la facture (PDF)', en: 'Download the invoice (PDF)' },
  creditNote: { fr: 'Télécharger l’avoir (PDF)', en: 'Download the credit note (PDF)' },
  withdrawalForm: { fr: 'Formulaire de rétractation', en: 'Withdrawal form' },
  terms: { fr: 'Conditions générales de vente', en: 'Terms of sale' },
  tracking: { fr: 'Suivre le colis', en: 'Track the parcel' },
  certificate: { fr: 'Télécharger le certificat (PDF)', en: 'Download the certificate (PDF)' },
} as const satisfies Record<string, Record<Locale, string>>;

export type LinkTarget = keyof typeof LINK_LABELS;

/** A link part, worded as every mail words that target. */
export function linkTo(target: LinkTarget, locale: Locale, href: string): MailPart {
  return { link: { label: LINK_LABELS[target][locale], href } };
}

/** The terms of sale page in the buyer's language. */
export function termsUrl(siteUrl: string, locale: Locale): string {
  return `${siteUrl}${locale === 'en' ? '/en/terms' : '/terms'}`;
}

/** The withdrawal form (order number and email), in the buyer's language. */
export function withdrawalFormUrl(siteUrl: string, locale: Locale): string {
  return `${siteUrl}${locale === 'en' ? '/en/withdrawal' : '/retractation'}`;
}
