// Server side (Astro pages only): the translations an island needs, picked by key prefix, so the
// browser receives only these texts in its language instead of both dictionaries.
import fr from '../i18n/fr.json';
import { t, type Locale, type MessageKey } from '../i18n/index.ts';

export function pickMessages(locale: Locale, prefixes: readonly string[]): Record<string, string> {
  const keys = (Object.keys(fr) as MessageKey[]).filter((key) =>
    prefixes.some((prefix) => key.startsWith(prefix)),
  );
  // Templates stay raw ({title}, {count}…): the island fills them.
  return Object.fromEntries(keys.map((key) => [key, t(locale, key, {})]));
}

/** A back-office screen's French texts with their prefix taken off (`admin.orders.title` → `title`). */
export function adminTexts(prefix: `admin.${string}.`): Record<string, string> {
  return Object.fromEntries(
    Object.entries(pickMessages('fr', [prefix])).map(([key, value]) => [
      key.slice(prefix.length),
      value,
    ]),
  );
}
