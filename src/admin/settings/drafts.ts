// What each tab edits, as the form holds it, and the patch it saves (back office §2, §5; issue 12).
// The checks are the shared schema's own (src/schemas/settings.ts), path for path as the server
// names a bad field, so the owner reads the same message before and after the round trip. Money
// is held in euros as typed and saved in cents, rounded to the cent without float errors.
import { formatVatRate, parseVatRate } from '../../domain/legal.ts';
import { fieldErrors } from '../../schemas/fields.ts';
import {
  normalizePromoCode,
  PROMO_MESSAGES,
  promoCodeSchema,
  settingsSchema,
  type PromoCode,
  type SettingKey,
  type SettingsTab,
  type SiteSettings,
} from '../../schemas/settings.ts';

/** The Général tab: one string (or the maintenance flag) per dotted setting path. */
export type GeneralDraft = Record<(typeof GENERAL_PATHS)[number], string> & {
  site_maintenance: boolean;
};
export const GENERAL_PATHS = [
  'site_title',
  'site_description.fr',
  'site_description.en',
  'contact_email',
  'contact_phone',
  'contact_address',
  'instagram_url',
  'legal_identity.name',
  'legal_identity.address',
  'legal_identity.siret',
  'legal_identity.vat_mention',
  // Issue 26: '' | 'franchise' | 'rate', and the rate as typed in percent ('5,5').
  'legal_identity.vat_regime',
  'legal_identity.vat_rate_bp',
] as const;

export interface CommerceDraft extends Record<(typeof SHIPPING_NOTE_PATHS)[number], string> {
  currency: string;
  /** Euros as typed ('15.00'). */
  'shipping_info.default_cost_cents': string;
  'shipping_info.free_threshold_cents': string;
}

/** issue 25, part 7: the originals' shipping notes by size, as the E-commerce tab holds them. */
export const SHIPPING_NOTE_PATHS = [
  'shipping_notes.small_max_cm',
  'shipping_notes.medium_max_cm',
  'shipping_notes.small.fr',
  'shipping_notes.small.en',
  'shipping_notes.medium.fr',
  'shipping_notes.medium.en',
  'shipping_notes.large.fr',
  'shipping_notes.large.en',
] as const;

/** Centimetres as typed → a number; NaN when empty or not a number (the schema names the field). */
const centimetres = (typed: string) => (typed.trim() === '' ? NaN : Number(typed.trim()));

export interface PromotionsDraft {
  promo_codes: PromoCode[];
  promo_banner_code: string;
}

export interface Drafts {
  general: GeneralDraft;
  commerce: CommerceDraft;
  promotions: PromotionsDraft;
}

/** Cents as the euros field shows them: '15.00' for a cost, '500' for a whole threshold. */
export function centsToEuros(cents: number, decimals: boolean): string {
  return decimals || cents % 100 !== 0 ? (cents / 100).toFixed(2) : String(cents / 100);
}

/** Euros as typed → cents; NaN when empty or not a number (the schema then names the field). */
export function eurosToCents(euros: string): number {
  const text = euros.trim().replace(',', '.');
  return text === '' ? NaN : Math.round(Number(text) * 100);
}

export function draftOf<T extends SettingsTab>(tab: T, s: SiteSettings): Drafts[T] {
  const drafts: { [K in SettingsTab]: () => Drafts[K] } = {
    general: () => ({
      site_title: s.site_title,
      'site_description.fr': s.site_description.fr,
      'site_description.en': s.site_description.en,
      contact_email: s.contact_email,
      contact_phone: s.contact_phone,
      contact_address: s.contact_address,
      instagram_url: s.instagram_url,
      site_maintenance: s.site_maintenance,
      'legal_identity.name': s.legal_identity.name,
      'legal_identity.address': s.legal_identity.address,
      'legal_identity.siret': s.legal_identity.siret,
      'legal_identity.vat_mention': s.legal_identity.vat_mention,
      'legal_identity.vat_regime': s.legal_identity.vat_regime,
      'legal_identity.vat_rate_bp':
        s.legal_identity.vat_rate_bp > 0 ? formatVatRate(s.legal_identity.vat_rate_bp, 'fr') : '',
    }),
    commerce: () => ({
      currency: s.currency,
      'shipping_info.default_cost_cents': centsToEuros(s.shipping_info.default_cost_cents, true),
      'shipping_info.free_threshold_cents': centsToEuros(
        s.shipping_info.free_threshold_cents,
        false,
      ),
      'shipping_notes.small_max_cm': String(s.shipping_notes.small_max_cm),
      'shipping_notes.medium_max_cm': String(s.shipping_notes.medium_max_cm),
      'shipping_notes.small.fr': s.shipping_notes.small.fr,
      'shipping_notes.small.en': s.shipping_notes.small.en,
      'shipping_notes.medium.fr': s.shipping_notes.medium.fr,
      'shipping_notes.medium.en': s.shipping_notes.medium.en,
      'shipping_notes.large.fr': s.shipping_notes.large.fr,
      'shipping_notes.large.en': s.shipping_notes.large.en,
    }),
    promotions: () => ({
      promo_codes: s.promo_codes.map((code) => ({ ...code })),
      promo_banner_code: s.promo_banner_code,
    }),
  };
  return drafts[tab]();
}

/** The PATCH body of a tab: exactly its keys (SETTINGS_TABS), values not yet checked. */
export function patchOf<T extends SettingsTab>(
  tab: T,
  draft: Drafts[T],
): Partial<Record<SettingKey, unknown>> {
  if (tab === 'general') {
    const d = draft as GeneralDraft;
    return {
      site_title: d.site_title,
      site_description: { fr: d['site_description.fr'], en: d['site_description.en'] },
      contact_email: d.contact_email,
      contact_phone: d.contact_phone,
      contact_address: d.contact_address,
      instagram_url: d.instagram_url,
      site_maintenance: d.site_maintenance,
      legal_identity: {
        name: d['legal_identity.name'],
        address: d['legal_identity.address'],
        siret: d['legal_identity.siret'],
        vat_mention: d['legal_identity.vat_mention'],
        vat_regime: d['legal_identity.vat_regime'],
        // Empty: no rate (the schema asks for one under 'rate'); anything else must read as one.
        vat_rate_bp:
          d['legal_identity.vat_rate_bp'].trim() === ''
            ? 0
            : parseVatRate(d['legal_identity.vat_rate_bp']),
      },
    };
  }
  if (tab === 'commerce') {
    const d = draft as CommerceDraft;
    return {
      currency: d.currency,
      shipping_info: {
        default_cost_cents: eurosToCents(d['shipping_info.default_cost_cents']),
        free_threshold_cents: eurosToCents(d['shipping_info.free_threshold_cents']),
      },
      shipping_notes: {
        small_max_cm: centimetres(d['shipping_notes.small_max_cm']),
        medium_max_cm: centimetres(d['shipping_notes.medium_max_cm']),
        small: { fr: d['shipping_notes.small.fr'], en: d['shipping_notes.small.en'] },
        medium: { fr: d['shipping_notes.medium.fr'], en: d['shipping_notes.medium.en'] },
        large: { fr: d['shipping_notes.large.fr'], en: d['shipping_notes.large.en'] },
      },
    };
  }
  const d = draft as PromotionsDraft;
  return { promo_codes: d.promo_codes, promo_banner_code: d.promo_banner_code };
}

/** Checks a patch key by key with the shared schema: errors by path, as the server words them. */
export function checkPatch(patch: Partial<Record<SettingKey, unknown>>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(patch)) {
    const parsed = settingsSchema.shape[key as SettingKey].safeParse(value);
    if (parsed.success) continue;
    for (const [path, message] of Object.entries(fieldErrors(parsed.error)))
      errors[path === '_' ? key : `${key}.${path}`] ??= message;
  }
  return errors;
}

/** Whether the draft saves anything different from the settings it started from. */
export function differs<T extends SettingsTab>(tab: T, draft: Drafts[T], s: SiteSettings): boolean {
  return JSON.stringify(patchOf(tab, draft)) !== JSON.stringify(patchOf(tab, draftOf(tab, s)));
}

/**
 * §5: a new code, trimmed and upper-cased, discount 1–100, not already in the list. Every message
 * that applies at once: an empty code and a bad discount are both shown.
 */
export function newPromoCode(
  codes: readonly PromoCode[],
  code: string,
  discount: string,
): { ok: true; promo: PromoCode } | { ok: false; errors: { code?: string; discount?: string } } {
  const parsed = promoCodeSchema.safeParse({
    code,
    discount: discount.trim() === '' ? NaN : Number(discount),
    active: true,
  });
  const errors: { code?: string; discount?: string } = {};
  if (!parsed.success) {
    const found = fieldErrors(parsed.error);
    if (found['code']) errors.code = found['code'];
    if (found['discount']) errors.discount = found['discount'];
  }
  const normalized = normalizePromoCode(code);
  if (!errors.code && codes.some((promo) => promo.code === normalized))
    errors.code = PROMO_MESSAGES.duplicate;
  if (parsed.success && !errors.code) return { ok: true, promo: parsed.data };
  return { ok: false, errors };
}
