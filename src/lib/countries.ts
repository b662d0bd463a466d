// The shipping countries by name, from the one list the checkout's schema holds (COUNTRIES): the
// checkout's select and the terms of sale's shipping section both come from here, so the terms
// never list a country the checkout does not offer, nor the other way round.
import type { Locale } from '../i18n/index.ts';
import { COUNTRIES, type Country } from '../schemas/checkout.ts';

export function countryName(locale: Locale, code: string): string {
  return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
}

/** The checkout's options, in the list's order (France first, the default). */
export function countryOptions(locale: Locale): { code: Country; name: string }[] {
  return COUNTRIES.map((code) => ({ code, name: countryName(locale, code) }));
}

/** 'Allemagne, Autriche, … et Suisse': the countries in alphabetical order, as a sentence. */
export function countryListText(locale: Locale): string {
  const names = COUNTRIES.map((code) => countryName(locale, code)).sort((a, b) =>
    a.localeCompare(b, locale),
  );
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(names);
}
