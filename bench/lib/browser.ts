// What Chromium really downloads: the JavaScript of every page (forced to gzip, so the figures
// compare with the budgets whatever the server prefers) and the gallery's first view.
import zlib from 'node:zlib';
import {
  type Browser,
  type BrowserContextOptions,
  chromium,
  devices,
  type Page,
} from '@playwright/test';
import type { Budgets, Viewport } from './budgets.ts';
import { javascriptBudget } from './budgets.ts';
import { type Check, errorMessage, kb, rawGet, sleep } from './util.ts';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Resolves once no request has been in flight for `quietMs` (at most `maxMs`). Playwright's
 * `networkidle` only holds for the first load; this also works after scrolling.
 */
function networkQuiet(page: Page): (quietMs?: number, maxMs?: number) => Promise<void> {
  let inflight = 0;
  let last = Date.now();
  page.on('request', () => {
    inflight++;
    last = Date.now();
  });
  const done = () => {
    inflight = Math.max(0, inflight - 1);
    last = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async (quietMs = 500, maxMs = 15_000) => {
    const started = Date.now();
    while (Date.now() - started < maxMs) {
      if (inflight === 0 && Date.now() - last >= quietMs) return;
      await sleep(50);
    }
  };
}

interface Transfer {
  url: string;
  type: string;
  /** Body bytes as sent (compressed). */
  bodyBytes: number;
  headerBytes: number;
  contentEncoding: string | null;
}

/** Records every finished request of a page with its transfer sizes. */
function recordTransfers(page: Page): () => Promise<Transfer[]> {
  const pending: Promise<Transfer | null>[] = [];
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        if (request.url().startsWith('data:')) return null;
        return {
          url: request.url(),
          type: request.resourceType(),
          bodyBytes: sizes.responseBodySize,
          headerBytes: sizes.responseHeadersSize,
          contentEncoding: (await response?.headerValue('content-encoding')) ?? null,
        };
      })().catch(() => null),
    );
  });
  return async () => (await Promise.all(pending)).filter((t): t is Transfer => t !== null);
}

/** Scrolls to the bottom in half-screen steps, as a reader would (at most 60 steps). */
async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let step = 0; step < 60; step++) {
      const y = (step * window.innerHeight) / 2;
      if (y > document.documentElement.scrollHeight) break;
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
    }
  });
}

/** Inline classic and module scripts (JSON-LD and other data blocks are not JavaScript). */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = attrs.match(/\stype\s*=\s*["']?([^"'\s>]+)/i)?.[1]?.toLowerCase();
    if (type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue;
    if (m[2]?.trim()) scripts.push(m[2]);
  }
  return scripts;
}

export interface PageWeight {
  page: string;
  status: 'ok' | 'missing' | 'error';
  error?: string;
  htmlBytes: number | null;
  htmlGzipBytes: number | null;
  scripts: { url: string; gzipBytes: number; contentEncoding: string | null }[];
  externalGzipBytes: number | null;
  inlineScriptCount: number;
  /** The inline scripts' text gzipped together on its own (they travel inside the HTML). */
  inlineGzipBytes: number | null;
  totalGzipBytes: number | null;
  budgetBytes: number;
}

/**
 * The JavaScript a browser downloads for a page (every script response, module imports and
 * preloads included, after load and after scrolling to the bottom, with Accept-Encoding: gzip)
 * plus its inline scripts, and the page's HTML size.
 */
export async function measurePage(
  browser: Browser,
  baseUrl: string,
  page: string,
  budgets: Budgets,
): Promise<PageWeight> {
  const result: PageWeight = {
    page,
    status: 'ok',
    htmlBytes: null,
    htmlGzipBytes: null,
    scripts: [],
    externalGzipBytes: null,
    inlineScriptCount: 0,
    inlineGzipBytes: null,
    totalGzipBytes: null,
    budgetBytes: javascriptBudget(budgets, page),
  };
  const url = `${baseUrl}${page}`;
  const raw = await rawGet(url, { 'accept-encoding': 'gzip' });
  if (raw.status === 404) return { ...result, status: 'missing' };
  if (raw.status !== 200) return { ...result, status: 'error', error: `HTTP ${raw.status}` };
  const gzipped = raw.headers['content-encoding'] === 'gzip';
  const html = gzipped ? zlib.gunzipSync(raw.body) : raw.body;
  result.htmlBytes = html.length;
  result.htmlGzipBytes = gzipped ? raw.body.length : zlib.gzipSync(html, { level: 9 }).length;
  const inline = inlineScripts(html.toString());
  result.inlineScriptCount = inline.length;
  result.inlineGzipBytes = inline.length
    ? zlib.gzipSync(inline.join('\n'), { level: 9 }).length
    : 0;

  const context = await browser.newContext({
    viewport: { width: 1350, height: 940 },
    extraHTTPHeaders: { 'Accept-Encoding': 'gzip' },
  });
  try {
    const tab = await context.newPage();
    const quiet = networkQuiet(tab);
    const transfers = recordTransfers(tab);
    const response = await tab.goto(url, { waitUntil: 'networkidle', timeout: 60_000 });
    if (!response || response.status() !== 200) {
      return { ...result, status: 'error', error: `browser got HTTP ${response?.status()}` };
    }
    await scrollThrough(tab);
    await quiet();
    const seen = new Map<string, PageWeight['scripts'][number]>();
    for (const t of await transfers()) {
      if (t.type !== 'script') continue;
      seen.set(t.url, {
        url: t.url.replace(baseUrl, ''),
        gzipBytes: t.bodyBytes,
        contentEncoding: t.contentEncoding,
      });
    }
    result.scripts = [...seen.values()];
    result.externalGzipBytes = result.scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    result.totalGzipBytes = result.externalGzipBytes + result.inlineGzipBytes;
    return result;
  } catch (error) {
    return { ...result, status: 'error', error: errorMessage(error) };
  } finally {
    await context.close();
  }
}

export function javascriptChecks(weights: PageWeight[]): Check[] {
  return weights.map((w) => {
    const budget = `≤ ${kb(w.budgetBytes)}`;
    if (w.status !== 'ok' || w.totalGzipBytes === null) {
      return {
        section: 'javascript',
        item: w.page,
        figure: w.status === 'missing' ? 'missing' : 'n/a',
        budget,
        status: w.status === 'missing' ? 'missing' : 'fail',
        value: null,
        ...(w.error ? { note: w.error } : {}),
      };
    }
    // Responses that were not gzipped would make the figure meaningless (too large or too small).
    const notGzip = w.scripts.filter((s) => s.contentEncoding !== 'gzip' && s.gzipBytes >= 256);
    return {
      section: 'javascript',
      item: w.page,
      figure: kb(w.totalGzipBytes),
      budget,
      status: w.totalGzipBytes <= w.budgetBytes ? 'pass' : 'fail',
      value: w.totalGzipBytes,
      ...(notGzip.length ? { note: `not gzip: ${notGzip.map((s) => s.url).join(', ')}` } : {}),
    };
  });
}

export interface FirstView {
  viewport: Viewport;
  status: 'ok' | 'missing' | 'error';
  error?: string;
  /** Transfer bytes (headers + body as sent) of every response. */
  totalBytes: number | null;
  requests: number;
  byType: Record<string, { requests: number; bytes: number }>;
  largest: { url: string; type: string; bytes: number }[];
}

/**
 * Everything a browser with this viewport downloads for a page before any scrolling, once the
 * network has been quiet for 500 ms (Playwright's `networkidle`), with its own Accept-Encoding.
 */
export async function measureFirstView(
  browser: Browser,
  baseUrl: string,
  page: string,
  viewport: Viewport,
): Promise<FirstView> {
  const result: FirstView = {
    viewport,
    status: 'ok',
    totalBytes: null,
    requests: 0,
    byType: {},
    largest: [],
  };
  const probe = await rawGet(`${baseUrl}${page}`);
  if (probe.status === 404) return { ...result, status: 'missing' };
  const phone = devices['Pixel 7'];
  const options: BrowserContextOptions = {
    viewport: { width: viewport.width, height: viewport.height },
    deviceScaleFactor: viewport.deviceScaleFactor,
    isMobile: viewport.mobile,
    hasTouch: viewport.mobile,
    ...(viewport.mobile && phone ? { userAgent: phone.userAgent } : {}),
  };
  const context = await browser.newContext(options);
  try {
    const tab = await context.newPage();
    const transfers = recordTransfers(tab);
    const response = await tab.goto(`${baseUrl}${page}`, {
      waitUntil: 'networkidle',
      timeout: 60_000,
    });
    if (!response || response.status() !== 200) {
      return { ...result, status: 'error', error: `HTTP ${response?.status()}` };
    }
    const all = await transfers();
    for (const t of all) {
      const bytes = t.bodyBytes + t.headerBytes;
      const entry = (result.byType[t.type] ??= { requests: 0, bytes: 0 });
      entry.requests++;
      entry.bytes += bytes;
    }
    result.requests = all.length;
    result.totalBytes = all.reduce((sum, t) => sum + t.bodyBytes + t.headerBytes, 0);
    result.largest = all
      .map((t) => ({
        url: t.url.replace(baseUrl, ''),
        type: t.type,
        bytes: t.bodyBytes + t.headerBytes,
      }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5);
    return result;
  } catch (error) {
    return { ...result, status: 'error', error: errorMessage(error) };
  } finally {
    await context.close();
  }
}
