// Site settings (back office §3 "Site settings"): key/value JSON rows with typed defaults.
// Money is stored in cents; the back office shows euros.
import { z } from 'zod';
import { currencySchema } from '../../src/schemas/views.ts';
import { requestPublish } from '../build/publish.ts';
import type { Database } from '../db/index.ts';

const promoCode = z.object({
  code: z
    .string()
    .trim()
    .min(1)
    .transform((c) => c.toUpperCase()),
  discount: z.number().int().min(1).max(100),
  active: z.boolean(),
});

export const settingsSchema = z.object({
  site_title: z.string(),
  site_description: z.object({ fr: z.string(), en: z.string() }),
  artist_name: z.string(),
  contact_email: z.email(),
  contact_phone: z.string(),
  contact_address: z.string(),
  instagram_url: z.url(),
  site_maintenance: z.boolean(),
  currency: currencySchema,
  shipping_info: z.object({
    default_cost_cents: z.number().int().min(0),
    free_threshold_cents: z.number().int().min(0),
  }),
  promo_codes: z.array(promoCode),
  /** The artist's portrait on the about page (a stored image master), or none. */
  artist_portrait: z
    .object({
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      alt: z.object({ fr: z.string(), en: z.string() }),
    })
    .nullable(),
  /** The code the storefront's promo banner advertises (storefront §1: -15 % with SASHA25). */
  promo_banner_code: z.string(),
  /** storefront §9: Tuesday to Saturday 10:00-19:00, Sunday 14:00-18:00, closed Monday. */
  opening_hours: z.array(
    z.object({
      day: z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']),
      open: z
        .string()
        .regex(/^\d{2}:\d{2}$/)
        .nullable(),
      close: z
        .string()
        .regex(/^\d{2}:\d{2}$/)
        .nullable(),
    }),
  ),
});

export type SiteSettings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof SiteSettings;

const hours = (open: string, close: string) => ({ open, close });

// back office §9: free_threshold 500, default_cost 15, currency EUR, WELCOME10 / ART20 / a 15 % code.
export const DEFAULT_SETTINGS: SiteSettings = {
  site_title: 'Galerie Sasha Kovač',
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
  'site_description',
  'artist_name',
  'contact_email',
  'contact_phone',
  'contact_address',
  'instagram_url',
  'artist_portrait',
  'promo_banner_code',
  'opening_hours',
  // Read live for money (cart, checkout); the prerendered prices show it too.
  'currency',
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
 * Saves some settings in one transaction after validating each against its schema (nothing is
 * written when one is invalid), then refreshes the live cache. Returns the keys that changed.
 */
export async function saveSettings(
  db: Database,
  patch: Partial<Record<SettingKey, unknown>>,
): Promise<{ settings: SiteSettings; changed: SettingKey[] }> {
  const fields: Record<string, string> = {};
  const values: Partial<Record<SettingKey, unknown>> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in settingsSchema.shape)) {
      fields[key] = 'unknown setting';
      continue;
    }
    const parsed = settingsSchema.shape[key as SettingKey].safeParse(value);
    if (parsed.success) values[key as SettingKey] = parsed.data;
    else fields[key] = parsed.error.issues[0]?.message ?? 'invalid value';
  }
  if (Object.keys(fields).length) throw new SettingsError(fields);
  const before = await getSettings(db);
  const changed = (Object.keys(values) as SettingKey[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(values[key]),
  );
  if (changed.length)
    await db.transaction().execute(async (trx) => {
      for (const key of changed)
        await trx
          .insertInto('site_settings')
          .values({ key, value: JSON.stringify(values[key]) })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(values[key]) }))
          .execute();
    });
  invalidateSettings(db);
  if (changed.some((key) => PUBLISHED_KEYS.has(key)))
    requestPublish(`settings ${changed.filter((k) => PUBLISHED_KEYS.has(k)).join(', ')}`);
  return { settings: await liveSettings(db), changed };
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
