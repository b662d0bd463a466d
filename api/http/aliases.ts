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

/** The canonical location for an alias path (with its query), or null when it is not one. */
export function aliasTarget(url: string): string | null {
  const [pathname = '/', query] = url.split(/\?(.*)/s);
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const english = trimmed.startsWith('/en/');
  const target = ALIASES[english ? trimmed.slice(3) : trimmed];
  if (!target) return null;
  const localized = english ? (target === '/' ? '/en/' : `/en${target}`) : target;
  return query ? `${localized}?${query}` : localized;
}
