// The back office's JavaScript per screen (issue 11, issue 27): every script a real browser
// fetches on a screen's first load, gzip, plus its inline scripts; and no admin code on any
// public page (no public script mentions `/api/admin`). Used by bench/admin.ts (with its 1 000
// works) and bench/admin-screens.ts (the screens alone, in a minute).
import { chromium } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';
import { printTable, rawGet } from './util.ts';

export const SCREEN_JS_BYTES = {
  screenJsBytes: 120 * 1024,
  // The analytics screen carries chart.js (issue 12 asks for it), about 62 KB gzip, loaded there
  // only: its own budget.
  analyticsScreenJsBytes: 160 * 1024,
};

export const screenBudget = (page: string) =>
  page === '/admin/analytics'
    ? SCREEN_JS_BYTES.analyticsScreenJsBytes
    : SCREEN_JS_BYTES.screenJsBytes;

const SCREENS = [
  '/admin/dashboard',
  '/admin/artworks',
  '/admin/orders',
  '/admin/analytics',
  '/admin/settings',
  // Issue 27: every screen, now that each carries TanStack Query and react-hook-form.
  '/admin/customers',
  '/admin/messages',
  '/admin/editions',
  '/admin/security',
];
const PUBLIC = [
  '/',
  '/gallery',
  '/about',
  '/contact',
  '/panier',
  '/commande',
  '/login',
  '/signup',
  '/account',
];

export interface ScreenJs {
  page: string;
  gzipBytes: number;
  /** Each script fetched, by path, gzip bytes (the inline scripts as one). */
  scripts: { name: string; gzipBytes: number }[];
}

async function scriptsOf(
  base: string,
  page: string,
  cookie: string | null,
): Promise<{ urls: Set<string>; inlineGzip: number; texts: string[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    if (cookie) {
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: base }]);
    }
    const tab = await context.newPage();
    const urls = new Set<string>();
    tab.on('response', (r) => {
      if (r.request().resourceType() === 'script') urls.add(r.url());
    });
    await tab.goto(`${base}${page}`, { waitUntil: 'networkidle' });
    const texts: string[] = [];
    for (const url of urls) texts.push((await rawGet(url)).body.toString());
    const inline = await tab.$$eval('script:not([src])', (s) => s.map((e) => e.textContent ?? ''));
    texts.push(...inline);
    return { urls, inlineGzip: gzipSync(inline.join('\n')).length, texts };
  } finally {
    await browser.close();
  }
}

/** Each screen's first-load JavaScript, and the public pages holding admin code. */
export async function measureScreens(
  base: string,
  cookie: string,
): Promise<{ screens: ScreenJs[]; leaks: string[] }> {
  const screens: ScreenJs[] = [];
  for (const page of SCREENS) {
    const { urls, inlineGzip } = await scriptsOf(base, page, cookie);
    const scripts = [{ name: '(inline)', gzipBytes: inlineGzip }];
    for (const url of urls) {
      const response = await rawGet(url.startsWith('http') ? url : `${base}${url}`, {
        'accept-encoding': 'gzip',
      });
      scripts.push({ name: new URL(url, base).pathname, gzipBytes: response.body.length });
    }
    scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
    screens.push({ page, gzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0), scripts });
  }
  const leaks: string[] = [];
  for (const page of PUBLIC) {
    const { texts } = await scriptsOf(base, page, null);
    if (texts.some((text) => text.includes('/api/admin'))) leaks.push(page);
  }
  return { screens, leaks };
}

export function printScreens(screens: ScreenJs[], leaks: string[]): void {
  printTable(
    'JavaScript per admin screen (gzip, first load)',
    ['screen', 'JS', 'budget'],
    screens.map((s) => [
      s.page,
      `${(s.gzipBytes / 1024).toFixed(1)} KB`,
      `≤ ${screenBudget(s.page) / 1024} KB ${s.gzipBytes <= screenBudget(s.page) ? '✓' : '✗'}`,
    ]),
    'lrl',
  );
  console.log(
    leaks.length
      ? `\nAdmin code found on public pages: ${leaks.join(', ')} ✗`
      : `\nNo admin code on the ${PUBLIC.length} public pages checked ✓`,
  );
}

/** Whether a screen is over its budget or a public page holds admin code. */
export const screensFailed = (screens: ScreenJs[], leaks: string[]) =>
  screens.some((s) => s.gzipBytes > screenBudget(s.page)) || leaks.length > 0;
