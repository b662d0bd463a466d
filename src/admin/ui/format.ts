// How the back office writes dates and amounts (issue 27 §6). Dates are always written in Paris
// time, on the server and in the browser alike: the server renders the same text the island
// hydrates with (no React error #418, no wrong hour flashing first). Amounts typed in a field are
// French ("9 400,00"); the parser also takes a dot, spaces and no-break spaces.

import { formatLongDate } from '../../domain/dates.ts';

const PARIS = 'Europe/Paris';
const DATE_TIME = new Intl.DateTimeFormat('fr-FR', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: PARIS,
});
const DATE = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: PARIS });
const TIME = new Intl.DateTimeFormat('fr-FR', { timeStyle: 'short', timeZone: PARIS });

/** '26/11/2026 23:14', Paris time. */
export const frenchDate = (iso: string | Date): string => DATE_TIME.format(new Date(iso));
/** '26/11/2026', Paris time. */
export const frenchDay = (iso: string | Date): string => DATE.format(new Date(iso));
/** '23:14', Paris time. */
export const frenchHour = (iso: string | Date): string => TIME.format(new Date(iso));
/** '26 novembre 2026', Paris time. */
export const frenchLongDate = (iso: string | Date): string =>
  formatLongDate('fr', new Date(iso), { timeZone: PARIS });

const DECIMAL = new Intl.NumberFormat('fr-FR', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const WHOLE = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });

/**
 * Cents as an amount field shows them, in French: '9 400,00' (or '500' for a whole amount when
 * `decimals` is false). The group separator is a plain space, so the owner can type it back.
 */
export function centsToField(cents: number, decimals = true): string {
  const text =
    decimals || cents % 100 !== 0 ? DECIMAL.format(cents / 100) : WHOLE.format(cents / 100);
  return text.replace(/[\u202f\u00a0]/g, ' ');
}

/**
 * An amount as typed → cents: '9 400,00', '9400.5', '9 400' all read; NaN when empty or not a
 * number (the schema then names the field and says how to write it).
 */
export function fieldToCents(text: string): number {
  const compact = text
    .trim()
    .replace(/[\s\u202f\u00a0]/g, '')
    .replace(/€$/, '');
  if (!/^-?\d+(?:[.,]\d{0,2})?$/.test(compact)) return NaN;
  const [whole = '0', fraction = ''] = compact.replace(',', '.').split('.');
  const sign = whole.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(whole)) * 100 + Number(fraction.padEnd(2, '0')));
}
