// Money as people read it. Amounts are integer cents everywhere below the display layer; at it,
// one Intl.NumberFormat per locale and currency (fr-FR / en, EUR by default). Shared by the back
// office, its services' history lines, the invoices' PDF and the order mails. The storefront's
// price (src/i18n formatPrice: ',00' dropped on a whole amount) and the payment emulator's Stripe
// amounts (zero-decimal currencies) differ on purpose and keep their own.

export type MoneyLocale = 'fr' | 'en';

const formats = new Map<string, Intl.NumberFormat>();

function formatFor(locale: MoneyLocale, currency: string, wholeUnits: boolean): Intl.NumberFormat {
  const key = `${locale} ${currency} ${wholeUnits ? 'whole' : 'cents'}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en', {
      style: 'currency',
      currency,
      ...(wholeUnits ? { maximumFractionDigits: 0 } : {}),
    });
    formats.set(key, format);
  }
  return format;
}

/** An amount to the cent, as a reader of the locale writes it: `1 234,50 €`, `€1,234.50`. Throws
 * a RangeError, as Intl does, for a malformed currency code. */
export function formatMoney(cents: number, currency = 'EUR', locale: MoneyLocale = 'fr'): string {
  return formatFor(locale, currency, false).format(cents / 100);
}

/** back office §9: an amount rounded to the unit, in French: `1 235 €`, `1 000 $US`. */
export function formatWholeMoney(cents: number, currency = 'EUR'): string {
  return formatFor('fr', currency, true).format(cents / 100);
}
