// The seller's identity as the buyer's mails print it (issue 26: the contract's confirmation on a
// durable medium names the trader): legal name, address, SIRET, the VAT regime's mention, the
// owner's further mention and the contact address — each line only when it is filled in, so an
// incomplete identity never shows "non renseigné" (docs/decisions/047).
import { vatMention } from '../../src/domain/legal.ts';
import type { SiteSettings } from '../settings/index.ts';

type Locale = 'fr' | 'en';

export function sellerLines(settings: SiteSettings, locale: Locale): string[] {
  const legal = settings.legal_identity;
  return [
    legal.name.trim() || settings.site_title,
    ...(legal.address.trim() || settings.contact_address).split(/\r?\n/),
    legal.siret ? `SIRET ${legal.siret}` : '',
    vatMention({ regime: legal.vat_regime, rateBp: legal.vat_rate_bp }, locale),
    legal.vat_mention,
    settings.contact_email,
  ]
    .map((line) => line.trim())
    .filter(Boolean);
}
