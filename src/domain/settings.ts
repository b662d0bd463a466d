// The settings screen's plain constants and rules (back office §2, §5, §8; issues 12, 27): what
// each tab saves, its green banner, the promo codes' messages and normalisation. No zod here: the
// screen imports them on its first load and loads the kernel's schemas (src/schemas/settings.ts,
// which re-exports all of this) only when a form is first checked.
import type { SettingKey } from '../schemas/settings.ts';

/** §5: the three promo code messages, verbatim. */
export const PROMO_MESSAGES = {
  codeRequired: 'Veuillez entrer un code promo',
  discountRange: 'La remise doit être entre 1 et 100%',
  duplicate: 'Ce code promo existe déjà',
  codeFormat: 'Lettres, chiffres, tirets ou soulignés uniquement (32 au plus)',
} as const;

export const PROMO_DEFAULT_DISCOUNT = 10;
export const PROMO_CODE_MAX_LENGTH = 32;

/** §5: trimmed and forced to uppercase. */
export function normalizePromoCode(code: string): string {
  return code.trim().toUpperCase();
}

/** What each tab of the settings screen saves, in one request and one transaction. */
export const SETTINGS_TABS = {
  general: [
    'site_title',
    'site_title_en',
    'site_description',
    'contact_email',
    'contact_phone',
    'contact_address',
    'instagram_url',
    'site_maintenance',
    'legal_identity',
  ],
  commerce: ['currency', 'shipping_info', 'shipping_notes'],
  promotions: ['promo_codes', 'promo_banner_code'],
} as const satisfies Record<string, readonly SettingKey[]>;
export type SettingsTab = keyof typeof SETTINGS_TABS;

/** §8: the green banner of each tab. */
export const SETTINGS_SAVED: Record<SettingsTab, string> = {
  general: 'Paramètres généraux enregistrés avec succès',
  commerce: 'Paramètres e-commerce enregistrés avec succès',
  promotions: 'Codes promotionnels enregistrés avec succès',
};
