// French writes the first day of a month as an ordinal: « le 1er juin 2026 », never « le 1 juin »
// (Imprimerie nationale's rules; Intl's French long dates print the cardinal). Applied to every
// French long date the buyer or the owner reads: terms, certificates, withdrawal letters, the back
// office.
const MONTHS =
  'janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre';
const FIRST = new RegExp(`(^|[^\\d])1 (${MONTHS})`, 'g');

/** '1 juin 2026' → '1er juin 2026'; any other text unchanged. */
export function frenchFirstOfMonth(text: string): string {
  return text.replace(FIRST, '$11er $2');
}

export type DateLocale = 'fr' | 'en';

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A long date as the buyer and the owner read it: '1er juin 2026' / '1 June 2026', with the time
 * when asked ('1er juin 2026 à 09:05'). In the gallery's time zone unless told: the server and
 * the browser print the same.
 */
export function formatLongDate(
  locale: DateLocale,
  value: Date | string,
  options: { time?: boolean; timeZone?: string } = {},
): string {
  const timeZone = options.timeZone ?? 'Europe/Paris';
  const key = `${locale}|${timeZone}|${options.time === true}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
      dateStyle: 'long',
      ...(options.time && { timeStyle: 'short' as const }),
      timeZone,
    });
    formatters.set(key, format);
  }
  const text = format.format(typeof value === 'string' ? new Date(value) : value);
  return locale === 'fr' ? frenchFirstOfMonth(text) : text;
}
