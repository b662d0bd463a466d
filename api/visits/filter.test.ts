import { describe, expect, it } from 'vitest';
import {
  cookieValue,
  countedPath,
  isBot,
  isExcludedPath,
  isPageResponse,
  isPrefetch,
  mayBeView,
  workKeyOf,
} from './filter.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('bots', () => {
  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)',
    'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5',
    'curl/8.5.0',
    'Wget/1.21.4',
    'python-requests/2.32.3',
    'node',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
    'CCBot/2.0 (https://commoncrawl.org/faq/)',
    'WhatsApp/2.23.20.0 A',
    undefined,
    '',
  ])('%s is a bot', (ua) => {
    expect(isBot(ua)).toBe(true);
  });

  it.each([FIREFOX, SAFARI_IPHONE, CHROME_ANDROID])('%s is a person', (ua) => {
    expect(isBot(ua)).toBe(false);
  });
});

describe('prefetches', () => {
  it.each([
    { 'sec-purpose': 'prefetch' },
    { 'sec-purpose': 'prefetch;prerender' },
    { purpose: 'prefetch' },
    { 'x-moz': 'prefetch' },
  ])('%o is a prefetch', (headers) => {
    expect(isPrefetch(headers)).toBe(true);
  });

  it('a plain navigation is not', () => {
    expect(isPrefetch({ 'sec-fetch-mode': 'navigate', 'sec-purpose': '' })).toBe(false);
  });
});

describe('paths', () => {
  it.each(['/admin', '/admin/dashboard', '/ADMIN/x', '/api/cart', '/media/abc/400.avif'])(
    '%s is never a public page',
    (path) => {
      expect(isExcludedPath(path)).toBe(true);
    },
  );

  it.each(['/emulator/checkout/x', '/_astro/app.js'])('%s is skipped too', (path) => {
    expect(isExcludedPath(path)).toBe(true);
  });

  it.each(['/', '/gallery', '/en/about', '/administration-notes', '/apiary'])(
    '%s may be a page',
    (path) => {
      expect(isExcludedPath(path)).toBe(false);
    },
  );

  it('counts a page under its decoded path without a trailing slash, up to 200 characters', () => {
    expect(countedPath('/')).toBe('/');
    expect(countedPath('/en/')).toBe('/en');
    expect(countedPath('/g%61llery')).toBe('/gallery');
    expect(countedPath('/%E0%A4%A')).toBeNull();
    expect(countedPath(`/${'a'.repeat(199)}`)).toHaveLength(200);
    expect(countedPath(`/${'a'.repeat(200)}`)).toBeNull();
  });
});

describe('what is worth watching before the answer', () => {
  const person = { 'user-agent': FIREFOX };
  it('a GET of a page by a person, nothing else', () => {
    expect(mayBeView('GET', '/gallery', person)).toBe(true);
    expect(mayBeView('POST', '/gallery', person)).toBe(false);
    expect(mayBeView('HEAD', '/gallery', person)).toBe(false);
    expect(mayBeView('GET', '/admin/dashboard', person)).toBe(false);
    expect(mayBeView('GET', '/gallery', { 'user-agent': 'curl/8.5.0' })).toBe(false);
    expect(mayBeView('GET', '/gallery', { ...person, 'sec-purpose': 'prefetch' })).toBe(false);
  });
});

describe('responses', () => {
  it('an HTML page sent or confirmed unchanged', () => {
    expect(isPageResponse(200, 'text/html; charset=utf-8')).toBe(true);
    expect(isPageResponse(304, 'text/html; charset=utf-8')).toBe(true);
    expect(isPageResponse(404, 'text/html; charset=utf-8')).toBe(false);
    expect(isPageResponse(301, undefined)).toBe(false);
    expect(isPageResponse(503, 'text/html; charset=utf-8')).toBe(false);
    expect(isPageResponse(200, 'application/json; charset=utf-8')).toBe(false);
    expect(isPageResponse(200, 'text/css')).toBe(false);
    expect(isPageResponse(200, undefined)).toBe(false);
  });
});

describe('work keys', () => {
  it('from the gallery in both languages, bounded', () => {
    expect(workKeyOf('/gallery', '/gallery?work=seuil')).toBe('seuil');
    expect(workKeyOf('/en/gallery', '/en/gallery/?utm=x&work=nuit-bleue-2')).toBe('nuit-bleue-2');
    expect(workKeyOf('/gallery', '/gallery')).toBeNull();
    expect(workKeyOf('/about', '/about?work=seuil')).toBeNull();
    expect(workKeyOf('/gallery', '/gallery?work=Seuil')).toBeNull();
    expect(workKeyOf('/gallery', '/gallery?work=%3Cscript%3E')).toBeNull();
    expect(workKeyOf('/gallery', `/gallery?work=${'a'.repeat(120)}`)).toHaveLength(120);
    expect(workKeyOf('/gallery', `/gallery?work=${'a'.repeat(121)}`)).toBeNull();
    // A work's own page (issue 25), in both languages.
    expect(workKeyOf('/oeuvres/seuil', '/oeuvres/seuil?utm=x')).toBe('seuil');
    expect(workKeyOf('/en/works/le-grand-large', '/en/works/le-grand-large')).toBe(
      'le-grand-large',
    );
    expect(workKeyOf('/oeuvres/Seuil', '/oeuvres/Seuil')).toBeNull();
    expect(workKeyOf('/oeuvres/a/b', '/oeuvres/a/b')).toBeNull();
    expect(workKeyOf('/en/oeuvres/seuil', '/en/oeuvres/seuil')).toBeNull();
  });
});

describe('cookies', () => {
  it('finds the session cookie among others', () => {
    expect(cookieValue('a=1; session=abc.def; b=2', 'session')).toBe('abc.def');
    expect(cookieValue('cart-session-id=x', 'session')).toBeUndefined();
    expect(cookieValue(undefined, 'session')).toBeUndefined();
  });
});
