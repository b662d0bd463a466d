// One translation helper and one URL helper for both languages (French default, unprefixed;
// English under /en/). Keys are flat and dotted; fr.json and en.json must hold the same keys.
import en from './en.json';
import fr from './fr.json';

export const LOCALES = ['fr', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'fr';
export type MessageKey = keyof typeof fr;

const dictionaries: Record<Locale, Record<MessageKey, string>> = { fr, en };

export function isLocale(value: unknown): value is Locale {
  return value === 'fr' || value === 'en';
}

/** The message for `key`, with `{name}` placeholders replaced from `params`. */
export function t(
  locale: Locale,
  key: MessageKey,
  params: Record<string, string | number> = {},
): string {
  const template = dictionaries[locale][key];
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in params ? String(params[name]) : match,
  );
}

/** The locale a pathname belongs to. */
export function localeFromPath(pathname: string): Locale {
  return pathname === '/en' || pathname.startsWith('/en/') ? 'en' : 'fr';
}

/**
 * Pages whose English address is not the French one with /en in front (issue 9): the French
 * path (the page's key everywhere in the code) → its English path. The old English addresses
 * answer 301 (api/http/aliases.ts).
 */
export const ENGLISH_PATHS: Readonly<Record<string, string>> = {
  '/panier': '/cart',
  '/commande': '/checkout',
  '/retractation': '/withdrawal',
  '/retractation/confirmation': '/withdrawal/confirmation',
  '/certificat/transfert': '/certificate/transfer',
};
const FRENCH_PATHS = Object.fromEntries(
  Object.entries(ENGLISH_PATHS).map(([fr, en]) => [en, fr]),
) as Readonly<Record<string, string>>;

/** Families of pages under one French folder (issue 25): a work is /oeuvres/<key>, /en/works/<key>. */
const ENGLISH_FOLDERS: Readonly<Record<string, string>> = {
  '/oeuvres/': '/works/',
  '/certificat/': '/certificate/',
};
const FRENCH_FOLDERS = Object.fromEntries(
  Object.entries(ENGLISH_FOLDERS).map(([fr, en]) => [en, fr]),
) as Readonly<Record<string, string>>;

/** A path whose folder is translated, in the other language; undefined when it has none. */
function translateFolder(page: string, folders: Readonly<Record<string, string>>) {
  for (const [from, to] of Object.entries(folders))
    if (page.startsWith(from) && page.length > from.length) return to + page.slice(from.length);
  return undefined;
}

/** The page a path shows, as its French path: '/en/gallery' → '/gallery', '/en/cart' → '/panier'. */
export function unlocalizedPath(pathname: string): string {
  if (localeFromPath(pathname) !== 'en') return pathname || '/';
  const page = pathname.slice(3) || '/';
  return FRENCH_PATHS[page] ?? translateFolder(page, FRENCH_FOLDERS) ?? page;
}

/** The path of a page in a locale: localizedPath('en', '/gallery') → '/en/gallery'. */
export function localizedPath(locale: Locale, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return clean;
  if (clean === '/') return '/en/';
  const [page = clean, rest = ''] = clean.split(/(?=[?#])/);
  return `/en${ENGLISH_PATHS[page] ?? translateFolder(page, ENGLISH_FOLDERS) ?? page}${rest}`;
}

/** A work's own page (issue 25): workPath('fr', 'seuil') → '/oeuvres/seuil', '/en/works/seuil' in English. */
export function workPath(locale: Locale, key: string): string {
  return localizedPath(locale, `/oeuvres/${key}`);
}

/** The same page in another locale, keeping query and hash. */
export function switchLocalePath(url: URL, target: Locale): string {
  return `${localizedPath(target, unlocalizedPath(url.pathname))}${url.search}${url.hash}`;
}

/** The storefront's price: ',00' is dropped on a whole amount (350 €, 19,99 €), on purpose; the back
 * office, invoices and mails write every cent with src/domain/money.ts. */
export function formatPrice(locale: Locale, cents: number, currency: string): string {
  return new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en', {
    style: 'currency',
    currency,
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100);
}
