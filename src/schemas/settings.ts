// The site settings' shape and rules (back office §2 "Site settings", §3, §5, §9; issue 12), shared
// by the settings service, the admin endpoint and the settings screen: one schema per key, each
// message the French text the owner reads next to the field. Written with zod/mini, small enough
// for the back office's island. Money is stored in cents; the screen shows euros.
import * as z from 'zod/mini';
import { CURRENCIES } from '../domain/currencies.ts';
import { VAT_REGIMES } from '../domain/legal.ts';
import type { ShippingNotes } from '../domain/shipping-note.ts';
import { multiLine, singleLine } from './text.ts';
import { PROMO_MESSAGES } from '../domain/settings.ts';

// The screen's plain constants live in src/domain/settings.ts (its first load carries no zod);
// every importer of the kernel's settings still finds them here.
export {
  normalizePromoCode,
  PROMO_CODE_MAX_LENGTH,
  PROMO_DEFAULT_DISCOUNT,
  PROMO_MESSAGES,
  SETTINGS_SAVED,
  SETTINGS_TABS,
  type SettingsTab,
} from '../domain/settings.ts';

/** The owner reads this next to a field holding a control character (src/schemas/text.ts). */
const CHARACTERS = 'Ce champ contient des caractères non autorisés';

const text = (max: number, required: string | null, lines: 'single' | 'multi' = 'single') =>
  z
    .string()
    .check(
      z.trim(),
      ...(required ? [z.minLength(1, { error: required })] : []),
      z.maxLength(max, { error: `${max} caractères au plus` }),
      lines === 'multi' ? multiLine(CHARACTERS) : singleLine(CHARACTERS),
    );

// Each message says how to write the field right (issue 27 §6), not just that it is wrong.
const euroCents = (label: string) =>
  z.number({ error: `${label} : montant invalide, écrivez par exemple 15,00` }).check(
    z.int({ error: `${label} : montant invalide, deux décimales au plus (15,50)` }),
    z.gte(0, { error: `${label} : le montant ne peut pas être négatif` }),
    // Ten million euros: far above any shipping cost, and inside a 32-bit column.
    z.lte(1_000_000_000, { error: `${label} : montant trop élevé` }),
  );

export const promoCodeSchema = z.object({
  code: z
    .string({ error: PROMO_MESSAGES.codeRequired })
    .check(
      z.trim(),
      z.toUpperCase(),
      z.minLength(1, { error: PROMO_MESSAGES.codeRequired }),
      z.regex(/^[A-Z0-9_-]{0,32}$/, { error: PROMO_MESSAGES.codeFormat }),
    ),
  discount: z
    .number({ error: PROMO_MESSAGES.discountRange })
    .check(
      z.int({ error: PROMO_MESSAGES.discountRange }),
      z.gte(1, { error: PROMO_MESSAGES.discountRange }),
      z.lte(100, { error: PROMO_MESSAGES.discountRange }),
    ),
  active: z.boolean(),
});
export type PromoCode = z.infer<typeof promoCodeSchema>;

export const promoCodesSchema = z.array(promoCodeSchema).check(
  z.maxLength(200, { error: '200 codes au plus' }),
  z.superRefine((codes, ctx) => {
    const seen = new Set<string>();
    codes.forEach((promo, index) => {
      if (seen.has(promo.code))
        ctx.addIssue({
          code: 'custom',
          message: PROMO_MESSAGES.duplicate,
          path: [index, 'code'],
          input: promo.code,
        });
      seen.add(promo.code);
    });
  }),
);

const httpUrl = (error: string) =>
  z.string().check(
    z.trim(),
    z.maxLength(300, { error }),
    z.refine((value) => /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(value), { error }),
    singleLine(error),
  );

/** issue 25, part 7: one default note per size class, both languages (the E-commerce tab). */
const shippingNote = (label: string) =>
  z.object({
    fr: text(600, `${label}\u00a0: la note en français est obligatoire`, 'multi'),
    en: text(600, `${label}\u00a0: la note en anglais est obligatoire`, 'multi'),
  });
const centimetres = (label: string) =>
  z
    .number({ error: `${label}\u00a0: nombre de centimètres invalide` })
    .check(
      z.int({ error: `${label}\u00a0: nombre entier de centimètres` }),
      z.gte(1, { error: `${label}\u00a0: au moins 1 cm` }),
      z.lte(1000, { error: `${label}\u00a0: 1\u202f000 cm au plus` }),
    );
export const SHIPPING_NOTES_ORDER =
  'La limite des formats moyens doit dépasser celle des petits formats';

export const shippingNotesSchema = z
  .object({
    small_max_cm: centimetres('Petits formats'),
    medium_max_cm: centimetres('Formats moyens'),
    small: shippingNote('Petits formats'),
    medium: shippingNote('Formats moyens'),
    large: shippingNote('Grands formats'),
  })
  .check(
    z.superRefine((notes, ctx) => {
      if (notes.medium_max_cm <= notes.small_max_cm)
        ctx.addIssue({
          code: 'custom',
          message: SHIPPING_NOTES_ORDER,
          path: ['medium_max_cm'],
          input: notes.medium_max_cm,
        });
    }),
  );
// The kernel's rule (src/domain/shipping-note.ts) reads exactly what this schema gives.
type CheckNotes<T extends ShippingNotes> = T;
export type ShippingNotesSetting = CheckNotes<z.infer<typeof shippingNotesSchema>>;

const EMAIL_FIX = 'Adresse email invalide : écrivez-la comme nom@exemple.fr';
export const SIRET_FIX =
  'Le SIRET compte 14 chiffres (espaces permis) : corrigez-le, ou laissez le champ vide si vous n’en avez pas';
const VAT_RATE_FIX = 'Taux de TVA invalide : écrivez un pourcentage, par exemple 5,5 ou 20';

const hhmm = z.nullable(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/)));

export const settingsSchema = z.object({
  site_title: text(120, 'Le titre du site est obligatoire'),
  /** The English pages' title (issue 27 §6); '' keeps the French one (settings stored before). */
  site_title_en: text(120, null),
  // Textareas on the General tab: line breaks are the owner's.
  site_description: z.object({
    fr: text(300, 'La description en français est obligatoire', 'multi'),
    en: text(300, 'La description en anglais est obligatoire', 'multi'),
  }),
  artist_name: text(120, "Le nom de l'artiste est obligatoire"),
  contact_email: z.string().check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(254, { error: EMAIL_FIX }),
    z.refine((value) => z.regexes.email.test(value), { error: EMAIL_FIX }),
  ),
  contact_phone: z.string().check(
    z.trim(),
    z.regex(/^[0-9+().\s-]{0,40}$/, {
      error: 'Numéro de téléphone invalide : chiffres, espaces et + ( ) . - seulement',
    }),
  ),
  contact_address: text(300, null),
  instagram_url: z.union([
    z.literal(''),
    httpUrl('Adresse Instagram invalide (elle commence par https://)'),
  ]),
  site_maintenance: z.boolean(),
  currency: z.enum(CURRENCIES, { error: 'Devise non proposée (EUR, USD ou GBP)' }),
  shipping_info: z.object({
    default_cost_cents: euroCents('Frais de port'),
    free_threshold_cents: euroCents('Seuil de livraison gratuite'),
  }),
  promo_codes: promoCodesSchema,
  /** How an original travels, by size (issue 25, part 7): a work's own note comes first. */
  shipping_notes: shippingNotesSchema,
  /** The artist's portrait on the about page (a stored image master), or none. */
  artist_portrait: z.nullable(
    z.object({
      sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
      width: z.number().check(z.int(), z.positive()),
      height: z.number().check(z.int(), z.positive()),
      alt: z.object({
        fr: z.string().check(singleLine(CHARACTERS)),
        en: z.string().check(singleLine(CHARACTERS)),
      }),
    }),
  ),
  /** The code the storefront's promo banner advertises (storefront §1), '' for no banner. */
  promo_banner_code: z
    .string()
    .check(
      z.trim(),
      z.toUpperCase(),
      z.regex(/^[A-Z0-9_-]{0,32}$/, { error: PROMO_MESSAGES.codeFormat }),
    ),
  /** storefront §9: Tuesday to Saturday 10:00-19:00, Sunday 14:00-18:00, closed Monday. */
  opening_hours: z.array(
    z.object({
      day: z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']),
      open: hhmm,
      close: hhmm,
    }),
  ),
  /**
   * The seller's legal identity (issue 12, beyond the spec): printed on invoices and the legal
   * pages. SIRET is optional (a seller outside France has none); when given it has 14 digits.
   */
  legal_identity: z
    .object({
      name: text(200, null),
      address: text(400, null, 'multi'),
      siret: z.string().check(
        z.overwrite((value) => value.replace(/\s+/g, '')),
        z.regex(/^(\d{14})?$/, { error: SIRET_FIX }),
      ),
      /** A further mention printed under the VAT one (an intra-EU VAT number…), or ''. */
      vat_mention: text(200, null),
      /**
       * Issue 26 (docs/decisions/047): the VAT regime invoices print — '' not stated yet,
       * 'franchise' (TVA non applicable, art. 293 B du CGI) or 'rate' (prices include VAT at
       * vat_rate_bp, the invoice gives the amounts before tax, the tax and after tax). Defaults
       * keep a value stored before these fields valid.
       */
      vat_regime: z._default(z.enum(VAT_REGIMES, { error: 'Choisissez un régime de TVA' }), ''),
      vat_rate_bp: z._default(
        z
          .number({ error: VAT_RATE_FIX })
          .check(
            z.int({ error: 'Taux de TVA invalide (deux décimales au plus, par exemple 5,5)' }),
            z.gte(0, { error: VAT_RATE_FIX }),
            z.lte(10_000, { error: 'Le taux de TVA ne peut dépasser 100 %' }),
          ),
        0,
      ),
    })
    .check(
      z.refine((legal) => legal.vat_regime !== 'rate' || legal.vat_rate_bp > 0, {
        error: 'Indiquez le taux de TVA',
        path: ['vat_rate_bp'],
      }),
    ),
});

export type SiteSettings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof SiteSettings;

/** The site's title in a page's language: the English one when the owner gave it (issue 27 §6). */
export function siteTitle(
  settings: Pick<SiteSettings, 'site_title' | 'site_title_en'>,
  locale: 'fr' | 'en',
): string {
  return (locale === 'en' && settings.site_title_en?.trim()) || settings.site_title;
}

/** How card payments are really taken (the E-commerce tab shows it; nothing to tick). */
export interface PaymentState {
  provider: 'stripe';
  /**
   * live: a live secret key (sk_live_…); test: a Stripe test key (sk_test_…); emulator: no key,
   * payments go to the built-in emulator (development and tests only).
   */
  mode: 'live' | 'test' | 'emulator';
  secretKeyConfigured: boolean;
  webhookSecretConfigured: boolean;
}

/** GET /api/admin/settings and the answer of a save. */
export interface SettingsView {
  settings: SiteSettings;
  payment: PaymentState;
  /** Keys a save changed (empty on GET). */
  changed: SettingKey[];
}
