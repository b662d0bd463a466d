// The settings screen's checks on the kernel's schemas (src/schemas/settings.ts, zod/mini): each
// tab's resolver, a patch checked key by key, a new promo code. Loaded when the owner first saves
// or adds a code (./useSettingsTab.ts, ./AddPromoForm.tsx), not with the screen.
import * as z from 'zod/mini';
import { normalizePromoCode, PROMO_MESSAGES, SETTINGS_TABS } from '../../domain/settings.ts';
import { fieldErrors } from '../../schemas/fields.ts';
import {
  promoCodeSchema,
  settingsSchema,
  type PromoCode,
  type SettingKey,
  type SettingsTab,
} from '../../schemas/settings.ts';
import { patchOf, type Drafts } from './drafts.ts';

const mask = (tab: SettingsTab) =>
  Object.fromEntries(SETTINGS_TABS[tab].map((key) => [key, true])) as Record<SettingKey, true>;

/**
 * A tab's resolver schema: the form values → the patch → the kernel's schema of those keys. Its
 * output is the checked, normalised patch the tab sends.
 */
export function tabSchema<T extends SettingsTab>(tab: T) {
  return z.pipe(
    z.transform((values: Drafts[T]) => patchOf(tab, values)),
    z.pick(settingsSchema, mask(tab)),
  );
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
