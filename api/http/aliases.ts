// The spec's alternative addresses (storefront §2 route table) answer 301 to the canonical page,
// keeping the query string; the same under /en/.
const ALIASES: Record<string, string> = {
  '/accueil': '/',
  '/atelier': '/',
  '/oeuvres': '/gallery',
  '/artiste': '/about',
  '/demarche': '/about',
  '/correspondances': '/contact',
  // storefront §2: the payment provider's return addresses of an earlier variant.
  '/stripe/success': '/success',
  '/stripe/cancel': '/cancel',
};

/**
 * English addresses of an earlier version (issue 9: English pages get English paths), and the
 * English names typed on the French site. Kept in step with src/i18n ENGLISH_PATHS.
 */
const ENGLISH_ALIASES: Record<string, string> = {
  '/en/panier': '/en/cart',
  '/en/commande': '/en/checkout',
  '/cart': '/panier',
  '/checkout': '/commande',
  '/en/retractation': '/en/withdrawal',
  '/withdrawal': '/retractation',
};

/** The canonical location for an alias path (with its query), or null when it is not one. */
export function aliasTarget(url: string): string | null {
  const [pathname = '/', query] = url.split(/\?(.*)/s);
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const english = trimmed.startsWith('/en/');
  const target = ALIASES[english ? trimmed.slice(3) : trimmed];
  const localized = target
    ? english
      ? target === '/'
        ? '/en/'
        : `/en${target}`
      : target
    : ENGLISH_ALIASES[trimmed];
  if (!localized) return null;
  return query ? `${localized}?${query}` : localized;
}
