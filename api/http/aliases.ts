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

/**
 * A work's page in each language (issue 25), kept in step with src/i18n ENGLISH_FOLDERS: the
 * French folder typed under /en/, and the English one typed on the French site, answer 301.
 */
const WORK_FOLDERS = { fr: '/oeuvres/', en: '/en/works/' } as const;
const WORK_FOLDER_ALIASES: Record<string, string> = {
  '/en/oeuvres/': WORK_FOLDERS.en,
  '/works/': WORK_FOLDERS.fr,
};

/** The canonical location for an alias path (with its query), or null when it is not one. */
export function aliasTarget(url: string): string | null {
  const [pathname = '/', query] = url.split(/\?(.*)/s);
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const english = trimmed.startsWith('/en/');
  const target = ALIASES[english ? trimmed.slice(3) : trimmed];
  const folder = Object.keys(WORK_FOLDER_ALIASES).find(
    (from) => trimmed.startsWith(from) && trimmed.length > from.length,
  );
  const localized = target
    ? english
      ? target === '/'
        ? '/en/'
        : `/en${target}`
      : target
    : folder
      ? `${WORK_FOLDER_ALIASES[folder]}${trimmed.slice(folder.length)}`
      : ENGLISH_ALIASES[trimmed];
  if (!localized) return null;
  return query ? `${localized}?${query}` : localized;
}

const GALLERIES: Record<string, string> = {
  '/gallery': WORK_FOLDERS.fr,
  '/en/gallery': WORK_FOLDERS.en,
};
const WORK_KEY = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Where an old shared link to a work's overlay (`/gallery?work=<key>`, before issue 25) now
 * lives: the work's own page when the served build has it (`hasPage`), else null — an unknown
 * key shows the gallery. Asked only when the query names `work`, so other requests pay nothing.
 */
export function workPageTarget(url: string, hasPage: (path: string) => boolean): string | null {
  const query = url.indexOf('?');
  if (query < 0 || !url.includes('work=', query)) return null;
  const pathname = url.slice(0, query);
  const folder = GALLERIES[pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname];
  if (!folder) return null;
  const key = new URLSearchParams(url.slice(query + 1)).get('work');
  if (!key || key.length > 120 || !WORK_KEY.test(key)) return null;
  const target = `${folder}${key}`;
  return hasPage(target) ? target : null;
}
