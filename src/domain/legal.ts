// The seller's legal identity and VAT regime (issue 26, docs/decisions/047), pure: the settings
// screen, the dashboard, the invoices, the mails and the legal pages read the same rules.
// - Complete means what the settings require: a name, an address and a VAT regime stated. The
//   SIRET is optional (src/schemas/settings.ts: a seller outside France has none; issue 27: the
//   dashboard counted it missing beside its 'Facultatif'); only a SIRET given but not 14 digits
//   is named. Until then the dashboard lists what is missing; a document leaves an empty field
//   out, never prints it as "non renseigné".
// - The shop's prices include any VAT (consumer prices). Under a rate, the tax is taken out of the
//   total once: before tax = round(total × 10 000 / (10 000 + rate in basis points)), half away
//   from zero, to the cent; tax = total − before tax. The three amounts always add up.

export type VatRegime = '' | 'franchise' | 'rate';
export const VAT_REGIMES = ['', 'franchise', 'rate'] as const;

export interface LegalIdentity {
  name: string;
  address: string;
  siret: string;
  vat_mention: string;
  vat_regime: VatRegime;
  /** The VAT rate in basis points: 2000 = 20 %, 550 = 5,5 %. Only read under 'rate'. */
  vat_rate_bp: number;
}

export type LegalField = 'name' | 'address' | 'siret' | 'vat_regime';

/** What the dashboard names, in the owner's French. */
export const LEGAL_FIELD_LABELS: Record<LegalField, string> = {
  name: 'Nom ou raison sociale',
  address: 'Adresse légale',
  siret: 'SIRET',
  vat_regime: 'Régime de TVA',
};

/** The required fields of the identity still empty (or a SIRET given wrong), in the settings' order. */
export function missingLegalFields(legal: LegalIdentity): LegalField[] {
  const missing: LegalField[] = [];
  if (!legal.name.trim()) missing.push('name');
  if (!legal.address.trim()) missing.push('address');
  const siret = legal.siret.replace(/\s+/g, '');
  if (siret && !/^\d{14}$/.test(siret)) missing.push('siret');
  if (legal.vat_regime === '' || (legal.vat_regime === 'rate' && !(legal.vat_rate_bp > 0)))
    missing.push('vat_regime');
  return missing;
}

/** '20', '5,5' (fr) / '5.5' (en): a rate in basis points as a reader writes the percentage. */
export function formatVatRate(rateBp: number, locale: 'fr' | 'en'): string {
  const text = String(rateBp / 100);
  return locale === 'fr' ? text.replace('.', ',') : text;
}

/** '5,5' or '5.5' or '20 %' typed by the owner → basis points; NaN when it is not a rate. */
export function parseVatRate(typed: string): number {
  const text = typed.trim().replace(/\s*%$/, '').replace(',', '.');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text)) return NaN;
  return Math.round(Number(text) * 100);
}

/** The VAT mention of a document, in its language; '' when the regime is not stated. */
export function vatMention(
  vat: { regime: VatRegime; rateBp: number },
  locale: 'fr' | 'en',
): string {
  if (vat.regime === 'franchise')
    return locale === 'fr'
      ? 'TVA non applicable, art. 293 B du CGI'
      : 'VAT not applicable, article 293 B of the French tax code (CGI)';
  if (vat.regime === 'rate' && vat.rateBp > 0)
    return locale === 'fr'
      ? `Prix TTC, TVA au taux de ${formatVatRate(vat.rateBp, 'fr')} % incluse`
      : `Prices include VAT at ${formatVatRate(vat.rateBp, 'en')}%`;
  return '';
}

export interface VatAmounts {
  rateBp: number;
  beforeTaxCents: number;
  taxCents: number;
  afterTaxCents: number;
}

/** Divides and rounds half away from zero, in integers only (no float error on cents). */
function divideRounded(numerator: number, denominator: number): number {
  const sign = numerator < 0 ? -1 : 1;
  const n = Math.abs(numerator);
  const quotient = Math.floor(n / denominator);
  const rest = n - quotient * denominator;
  const result = sign * (rest * 2 >= denominator ? quotient + 1 : quotient);
  // Never -0: a zero is a zero in JSON and in a comparison.
  return result === 0 ? 0 : result;
}

/** The amounts of a total that includes VAT at `rateBp` (see the header for the rounding). */
export function splitVat(afterTaxCents: number, rateBp: number): VatAmounts {
  if (!Number.isInteger(afterTaxCents) || !Number.isInteger(rateBp) || rateBp <= 0)
    throw new Error(`Cannot split ${afterTaxCents} cents at ${rateBp} basis points.`);
  const beforeTaxCents = divideRounded(afterTaxCents * 10_000, 10_000 + rateBp);
  return {
    rateBp,
    beforeTaxCents,
    taxCents: afterTaxCents - beforeTaxCents,
    afterTaxCents,
  };
}
