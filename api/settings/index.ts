// Site settings (back office §3 "Site settings"): key/value JSON rows with typed defaults. The shape
// and rules live in src/schemas/settings.ts, shared with the admin endpoint and the settings screen.
// Money is stored in cents; the back office shows euros.
import { fieldErrors } from '../../src/schemas/fields.ts';
import { settingsSchema, type SettingKey, type SiteSettings } from '../../src/schemas/settings.ts';
import { audit, type Actor } from '../admin/audit.ts';
import { requestPublish } from '../build/publish.ts';
import type { Database } from '../db/index.ts';
import { AppError } from '../http/errors.ts';

export { settingsSchema, type SettingKey, type SiteSettings };

const hours = (open: string, close: string) => ({ open, close });

// back office §9: free_threshold 500, default_cost 15, currency EUR, WELCOME10 / ART20 / a 15 % code.
export const DEFAULT_SETTINGS: SiteSettings = {
  site_title: 'Galerie Sasha Kovač',
  // '' : the English pages show the French title (issue 27 §6).
  site_title_en: '',
  site_description: {
    fr: 'Peintures originales et tirages d’art numérotés de Sasha Kovač, artiste contemporaine née à Zagreb et installée au Portugal.',
    en: 'Original paintings and numbered fine-art prints by Sasha Kovač, a contemporary artist born in Zagreb and based in Portugal.',
  },
  artist_name: 'Sasha Kovač',
  contact_email: 'contact@galerie-sasha.example',
  contact_phone: '+351 21 000 00 00',
  contact_address: 'Rua da Rosa 112, 1200-389 Lisboa, Portugal',
  instagram_url: 'https://www.instagram.com/sasha.kovac.art',
  site_maintenance: false,
  currency: 'EUR',
  shipping_info: { default_cost_cents: 1500, free_threshold_cents: 50000 },
  // issue 25, part 7: what a collector asks before paying for an original, by its longest side.
  shipping_notes: {
    small_max_cm: 60,
    medium_max_cm: 120,
    small: {
      fr: 'Expédiée sous 3 jours ouvrés dans un carton renforcé à double cannelure, coins protégés, assurée à sa valeur, remise contre signature.',
      en: 'Ships within 3 working days in a reinforced double-wall box with corner protectors, insured for its full value, signed for on delivery.',
    },
    medium: {
      fr: 'Expédiée sous 5 à 7 jours ouvrés dans une caisse en bois faite pour elle, assurée à sa valeur, par transporteur avec suivi et remise contre signature.',
      en: 'Ships within 5 to 7 working days in a wooden crate built for it, insured for its full value, by tracked carrier and signed for on delivery.',
    },
    large: {
      fr: 'Caisse en bois sur mesure et transporteur spécialisé en œuvres d’art : expédition sous 10 à 15 jours ouvrés, assurée à sa valeur, livraison sur rendez-vous.',
      en: 'Custom wooden crate and a specialist fine-art shipper: ships within 10 to 15 working days, insured for its full value, delivered by appointment.',
    },
  },
  promo_codes: [
    { code: 'WELCOME10', discount: 10, active: true },
    { code: 'ART20', discount: 20, active: true },
    { code: 'SASHA25', discount: 15, active: true },
  ],
  promo_banner_code: 'SASHA25',
  // The demo seed stores a portrait and sets it (api/catalog/seed.ts).
  artist_portrait: null,
  opening_hours: [
    { day: 'mon', open: null, close: null },
    { day: 'tue', ...hours('10:00', '19:00') },
    { day: 'wed', ...hours('10:00', '19:00') },
    { day: 'thu', ...hours('10:00', '19:00') },
    { day: 'fri', ...hours('10:00', '19:00') },
    { day: 'sat', ...hours('10:00', '19:00') },
    { day: 'sun', ...hours('14:00', '18:00') },
  ],
  // Filled in by the owner in the Général tab; invoices say what is missing until then.
  legal_identity: {
    name: '',
    address: '',
    siret: '',
    // Empty until the owner states it: the right mention depends on the seller's country and VAT
    // status (e.g. 'TVA non applicable, art. 293 B du CGI' for a French micro-entreprise).
    vat_mention: '',
    // Issue 26: stated by the owner; the dashboard says so until then.
    vat_regime: '',
    vat_rate_bp: 0,
  },
};

/**
 * All settings: stored values over the defaults. A stored value that no longer fits its schema
 * (hand-edited row, older shape) falls back to the default instead of breaking every page.
 */
export async function getSettings(db: Database): Promise<SiteSettings> {
  const rows = await db.selectFrom('site_settings').select(['key', 'value']).execute();
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    if (!(row.key in DEFAULT_SETTINGS)) continue;
    const field = settingsSchema.shape[row.key as SettingKey];
    const parsed = field.safeParse(row.value);
    if (parsed.success) merged[row.key] = parsed.data;
  }
  return merged as SiteSettings;
}

/**
 * Keys whose change only shows on prerendered pages: saving them asks for a publish. The others
 * (promo codes, shipping, currency, maintenance) decide money or access and act on the next
 * request through the live cache below, with no publish (docs/decisions/013).
 */
export const PUBLISHED_KEYS = new Set<SettingKey>([
  'site_title',
  'site_title_en',
  'site_description',
  'artist_name',
  'contact_email',
  'contact_phone',
  'contact_address',
  'instagram_url',
  'artist_portrait',
  'promo_banner_code',
  'opening_hours',
  // The legal pages print the seller's identity.
  'legal_identity',
  // Read live for money (cart, checkout); the prerendered prices show it too.
  'currency',
  // Printed on the originals' pages (issue 25, part 7).
  'shipping_notes',
]);

// The live cache: one loaded copy per database handle, shared by the server and the Astro handler
// (bundled separately, so the cache sits on a process-wide symbol like the database itself).
const CACHE = Symbol.for('galerie.settings');
type Cache = WeakMap<Database, { promise: Promise<SiteSettings>; value?: SiteSettings }>;
const holder = globalThis as { [CACHE]?: Cache };
const cache = (): Cache => (holder[CACHE] ??= new WeakMap());

/**
 * The settings every request decides with (prices, promo codes, shipping, currency, maintenance):
 * read once from the database, then from memory until a save invalidates them.
 */
export function liveSettings(db: Database): Promise<SiteSettings> {
  const entries = cache();
  let entry = entries.get(db);
  if (!entry) {
    const promise = getSettings(db);
    const created: { promise: Promise<SiteSettings>; value?: SiteSettings } = { promise };
    entry = created;
    entries.set(db, created);
    promise.then(
      (value) => (created.value = value),
      () => entries.get(db) === created && entries.delete(db),
    );
  }
  return entry.promise;
}

/** The cached settings if loaded, without waiting (the HTTP layer's maintenance check). */
export function peekSettings(db: Database): SiteSettings | undefined {
  return cache().get(db)?.value;
}

export function invalidateSettings(db: Database): void {
  cache().delete(db);
}

export class SettingsError extends Error {
  override name = 'SettingsError';
  readonly fields: Record<string, string>;
  constructor(fields: Record<string, string>) {
    super(`Invalid settings: ${Object.keys(fields).join(', ')}`);
    this.fields = fields;
  }
}

/**
 * Saves some settings in one transaction after validating each against the shared schema (nothing
 * is written when one is invalid: SettingsError names every bad field by its path, e.g.
 * `shipping_info.default_cost_cents`), records before → after in the audit log in that same
 * transaction, then refreshes the live cache. Returns the keys that changed.
 */
/**
 * The settings that decide what a card is charged (currency, shipping costs): changing them asks
 * for a re-authentication (docs/decisions/037). The Stripe keys themselves are environment
 * variables, out of the back office's reach.
 */
export const PAYMENT_SETTING_KEYS: ReadonlySet<SettingKey> = new Set(['currency', 'shipping_info']);

export async function saveSettings(
  db: Database,
  patch: Partial<Record<SettingKey, unknown>>,
  actor?: Actor,
  options: {
    /** false: a change to a payment setting is refused with `reauth_required`, nothing saved. */
    paymentChanges?: boolean;
  } = {},
): Promise<{ settings: SiteSettings; changed: SettingKey[] }> {
  const fields: Record<string, string> = {};
  const values: Partial<Record<SettingKey, unknown>> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (!Object.hasOwn(settingsSchema.shape, key)) {
      fields[key] = 'Paramètre inconnu';
      continue;
    }
    const parsed = settingsSchema.shape[key as SettingKey].safeParse(value);
    if (parsed.success) values[key as SettingKey] = parsed.data;
    else
      for (const [path, message] of Object.entries(fieldErrors(parsed.error)))
        fields[path === '_' ? key : `${key}.${path}`] ??= message;
  }
  if (Object.keys(fields).length) throw new SettingsError(fields);
  if (Object.keys(values).length === 0) return { settings: await liveSettings(db), changed: [] };
  const changed = await db.transaction().execute(async (trx) => {
    // Read inside the transaction, rows locked: two saves at once cannot both audit the same
    // "before".
    const rows = await trx
      .selectFrom('site_settings')
      .select(['key', 'value'])
      .where('key', 'in', Object.keys(values))
      .forUpdate()
      .execute();
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    const keys = (Object.keys(values) as SettingKey[]).filter(
      (key) => canonical(stored.get(key) ?? DEFAULT_SETTINGS[key]) !== canonical(values[key]),
    );
    if (options.paymentChanges === false && keys.some((key) => PAYMENT_SETTING_KEYS.has(key)))
      throw new AppError('reauth_required');
    for (const key of keys) {
      const value = JSON.stringify(values[key]);
      await trx
        .insertInto('site_settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: new Date() }))
        .execute();
      if (actor)
        await audit(
          trx,
          actor,
          'settings.update',
          'setting',
          key,
          stored.get(key) ?? DEFAULT_SETTINGS[key],
          values[key],
        );
    }
    return keys;
  });
  invalidateSettings(db);
  if (changed.some((key) => PUBLISHED_KEYS.has(key)))
    requestPublish(`settings ${changed.filter((k) => PUBLISHED_KEYS.has(k)).join(', ')}`);
  return { settings: await liveSettings(db), changed };
}

/**
 * JSON with object keys sorted: jsonb hands objects back in its own key order (`en` before `fr`),
 * so a plain JSON.stringify would call every unchanged object a change, audit it and publish.
 */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Writes the defaults for every key not stored yet; never overwrites the owner's values. */
export async function insertMissingDefaults(db: Database): Promise<number> {
  const result = await db
    .insertInto('site_settings')
    .values(
      Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({
        key,
        value: JSON.stringify(value),
      })),
    )
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** The promotion the storefront banner advertises: the configured code, only while it is active. */
export function bannerPromotion(settings: SiteSettings): { code: string; discount: number } | null {
  const wanted = settings.promo_banner_code.trim().toUpperCase();
  const promo = settings.promo_codes.find((code) => code.active && code.code === wanted);
  return promo ? { code: promo.code, discount: promo.discount } : null;
}
