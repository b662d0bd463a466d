// What each tab edits, as its react-hook-form holds it, and the patch it saves (back office §2, §5;
// issues 12, 27). The form values have the settings' own shape, so a field's name is the path the
// server names a bad value by (`legal_identity.siret`); only what the owner types as text differs:
// amounts in French ('9 400,00', src/admin/ui/format.ts), centimetres and the VAT rate ('5,5').
// Each tab's resolver is the kernel's schema (src/schemas/settings.ts) after `patchOf`
// (./checks.ts, loaded when a form is first checked): the owner reads the same message before and
// after the round trip. Nothing here imports zod, so the screen's first load carries none.
import { formatVatRate, parseVatRate } from '../../domain/legal.ts';
import type { SettingsTab } from '../../domain/settings.ts';
import type { PromoCode, SettingKey, SiteSettings } from '../../schemas/settings.ts';
import { centsToField, fieldToCents } from '../ui/format.ts';

type Bilingual = { fr: string; en: string };

/** The Général tab's form values. */
export type GeneralDraft = {
  site_title: string;
  site_title_en: string;
  site_description: Bilingual;
  contact_email: string;
  contact_phone: string;
  contact_address: string;
  instagram_url: string;
  site_maintenance: boolean;
  legal_identity: {
    name: string;
    address: string;
    siret: string;
    vat_mention: string;
    /** Issue 26: '' | 'franchise' | 'rate'. */
    vat_regime: string;
    /** The rate as typed in percent ('5,5'). */
    vat_rate_bp: string;
  };
};

/** The E-commerce tab's form values: amounts and centimetres as typed. */
export type CommerceDraft = {
  currency: string;
  shipping_info: { default_cost_cents: string; free_threshold_cents: string };
  /** issue 25, part 7: the originals' shipping notes by size. */
  shipping_notes: {
    small_max_cm: string;
    medium_max_cm: string;
    small: Bilingual;
    medium: Bilingual;
    large: Bilingual;
  };
};

export type PromotionsDraft = {
  promo_codes: PromoCode[];
  promo_banner_code: string;
};

export type Drafts = {
  general: GeneralDraft;
  commerce: CommerceDraft;
  promotions: PromotionsDraft;
};

/** Centimetres as typed → a number; NaN when empty or not a number (the schema names the field). */
const centimetres = (typed: string) => (typed.trim() === '' ? NaN : Number(typed.trim()));

export function draftOf<T extends SettingsTab>(tab: T, s: SiteSettings): Drafts[T] {
  const drafts: { [K in SettingsTab]: () => Drafts[K] } = {
    general: () => ({
      site_title: s.site_title,
      site_title_en: s.site_title_en,
      site_description: { ...s.site_description },
      contact_email: s.contact_email,
      contact_phone: s.contact_phone,
      contact_address: s.contact_address,
      instagram_url: s.instagram_url,
      site_maintenance: s.site_maintenance,
      legal_identity: {
        name: s.legal_identity.name,
        address: s.legal_identity.address,
        siret: s.legal_identity.siret,
        vat_mention: s.legal_identity.vat_mention,
        vat_regime: s.legal_identity.vat_regime,
        vat_rate_bp:
          s.legal_identity.vat_rate_bp > 0 ? formatVatRate(s.legal_identity.vat_rate_bp, 'fr') : '',
      },
    }),
    commerce: () => ({
      currency: s.currency,
      shipping_info: {
        default_cost_cents: centsToField(s.shipping_info.default_cost_cents, true),
        free_threshold_cents: centsToField(s.shipping_info.free_threshold_cents, false),
      },
      shipping_notes: {
        small_max_cm: String(s.shipping_notes.small_max_cm),
        medium_max_cm: String(s.shipping_notes.medium_max_cm),
        small: { ...s.shipping_notes.small },
        medium: { ...s.shipping_notes.medium },
        large: { ...s.shipping_notes.large },
      },
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
    const legal = d.legal_identity;
    return {
      site_title: d.site_title,
      site_title_en: d.site_title_en,
      site_description: { fr: d.site_description.fr, en: d.site_description.en },
      contact_email: d.contact_email,
      contact_phone: d.contact_phone,
      contact_address: d.contact_address,
      instagram_url: d.instagram_url,
      site_maintenance: d.site_maintenance,
      legal_identity: {
        name: legal.name,
        address: legal.address,
        siret: legal.siret,
        vat_mention: legal.vat_mention,
        vat_regime: legal.vat_regime,
        // Empty: no rate (the schema asks for one under 'rate'); anything else must read as one.
        vat_rate_bp: legal.vat_rate_bp.trim() === '' ? 0 : parseVatRate(legal.vat_rate_bp),
      },
    };
  }
  if (tab === 'commerce') {
    const d = draft as CommerceDraft;
    const notes = d.shipping_notes;
    return {
      currency: d.currency,
      shipping_info: {
        default_cost_cents: fieldToCents(d.shipping_info.default_cost_cents),
        free_threshold_cents: fieldToCents(d.shipping_info.free_threshold_cents),
      },
      shipping_notes: {
        small_max_cm: centimetres(notes.small_max_cm),
        medium_max_cm: centimetres(notes.medium_max_cm),
        small: { fr: notes.small.fr, en: notes.small.en },
        medium: { fr: notes.medium.fr, en: notes.medium.en },
        large: { fr: notes.large.fr, en: notes.large.en },
      },
    };
  }
  const d = draft as PromotionsDraft;
  return { promo_codes: d.promo_codes, promo_banner_code: d.promo_banner_code };
}
