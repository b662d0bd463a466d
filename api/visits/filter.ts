// Which requests are page views (issue 12 item 9): pure rules over plain request data, so the HTTP
// layer can ask the cheap ones before answering and the rest once the response has finished.
import type { IncomingHttpHeaders } from 'node:http';

/**
 * User agents that are not people reading a page. A request without any user agent is not
 * counted either: browsers always send one.
 */
const BOT_WORDS = [
  'bot', // Googlebot, bingbot, Applebot, Discordbot, Twitterbot, …
  'crawl', // crawler, Crawl
  'spider', // Baiduspider, Sogou spider
  'slurp', // Yahoo
  'preview', // link previews (Skype, Teams, iMessage, Bing)
  'facebookexternalhit',
  'facebookcatalog',
  'embedly',
  'quora link',
  'whatsapp', // its link preview fetcher (WhatsApp/2.x); the app opens links in a real browser
  'curl',
  'wget',
  'python',
  'go-http-client',
  'java/', // Java/1.8
  'java-http-client',
  'okhttp',
  'node', // Node's fetch sends "node"; node-fetch, undici
  'axios',
  'httpie',
  'libwww',
  'scrapy',
  'headless', // HeadlessChrome: Playwright, Puppeteer and other automation
  'phantomjs',
  'lighthouse', // Chrome-Lighthouse, PageSpeed
  'pagespeed',
  'gtmetrix',
  'pingdom',
  'uptime', // UptimeRobot and other monitors
  'monitor',
  'statuscake',
  'validator', // W3C validators
  'feedfetcher',
  'archive.org',
];
const BOT_PATTERN = new RegExp(
  BOT_WORDS.map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
  'i',
);

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT_PATTERN.test(userAgent);
}

/** A page the browser fetches in case the reader goes there next: not a view (yet). */
export function isPrefetch(headers: IncomingHttpHeaders): boolean {
  // Sec-Purpose: prefetch / prefetch;prerender (Chromium's speculation rules), Purpose: prefetch
  // (older Chromium and Safari), X-Moz: prefetch (Firefox).
  const secPurpose = headers['sec-purpose'];
  if (typeof secPurpose === 'string' && /^\s*prefetch/i.test(secPurpose)) return true;
  const purpose = headers['purpose'];
  if (typeof purpose === 'string' && /^\s*prefetch/i.test(purpose)) return true;
  const moz = headers['x-moz'];
  return typeof moz === 'string' && /^\s*prefetch/i.test(moz);
}

/**
 * Addresses that are never public pages: the back office, endpoints, images, the payment
 * emulator (and its Stripe-shaped /v1 API), and the hashed build assets (never HTML: skipped
 * early so they cost nothing).
 */
const EXCLUDED_PREFIXES = ['/admin', '/api', '/media', '/emulator', '/v1', '/_astro'];

export function isExcludedPath(pathname: string): boolean {
  const lower = pathname.toLowerCase();
  return EXCLUDED_PREFIXES.some((prefix) => lower === prefix || lower.startsWith(`${prefix}/`));
}

/** The checks that need nothing but the request: done before answering, in a few microseconds. */
export function mayBeView(
  method: string | undefined,
  pathname: string,
  headers: IncomingHttpHeaders,
): boolean {
  return (
    method === 'GET' &&
    !isExcludedPath(pathname) &&
    !isBot(headers['user-agent']) &&
    !isPrefetch(headers)
  );
}

/**
 * What the response must be for a view: an HTML page, sent (200) or confirmed unchanged (304).
 * Built pages are revalidated on every visit (static-files.ts: `max-age=0, must-revalidate`), so
 * a reader coming back, the same day or the next, gets 304 for a page their browser still has:
 * leaving those out would miss returning visitors. A 304 only answers an ETag we issued, so it
 * names a real page too.
 */
export function isPageResponse(
  statusCode: number,
  contentType: number | string | string[] | undefined,
): boolean {
  return (
    (statusCode === 200 || statusCode === 304) &&
    typeof contentType === 'string' &&
    contentType.toLowerCase().startsWith('text/html')
  );
}

export const MAX_PATH_LENGTH = 200;
export const MAX_WORK_KEY_LENGTH = 120;
const WORK_KEY = /^[a-z0-9-]+$/;

/**
 * The path a view is counted under: percent-decoded (the static server decodes too, so
 * `/g%61llery` is the same page as `/gallery`), without a trailing slash, or null when it cannot
 * be decoded or is longer than any page's path (no row for it; truncating would merge addresses).
 */
export function countedPath(pathname: string): string | null {
  let path = pathname;
  if (path.includes('%'))
    try {
      path = decodeURIComponent(pathname);
    } catch {
      return null;
    }
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';
  return path.length <= MAX_PATH_LENGTH ? path : null;
}

/** The gallery's pages, where `?work=<key>` opened one work before works had pages (issue 25). */
const GALLERY_PATHS = new Set(['/gallery', '/en/gallery']);
/** A work's own page in each language (src/i18n ENGLISH_FOLDERS). */
const WORK_FOLDERS = ['/oeuvres/', '/en/works/'];

const validKey = (key: string | null | undefined) =>
  key && key.length <= MAX_WORK_KEY_LENGTH && WORK_KEY.test(key) ? key : null;

/**
 * The work an address shows: its own page (`/oeuvres/<key>`, `/en/works/<key>`), or a gallery
 * address with `?work=<key>` (answered 301 now, but counted as before when served), or null:
 * another page, no key, or a key that cannot be one of ours (keys are slugs: [a-z0-9-], at most
 * 120 characters).
 */
export function workKeyOf(path: string, url: string): string | null {
  const folder = WORK_FOLDERS.find((f) => path.startsWith(f));
  if (folder) return validKey(path.slice(folder.length));
  if (!GALLERY_PATHS.has(path)) return null;
  const query = url.indexOf('?');
  if (query < 0) return null;
  return validKey(new URLSearchParams(url.slice(query + 1)).get('work'));
}

/** The `session` cookie's value in a Cookie header, if any (api/accounts/sessions.ts). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}
