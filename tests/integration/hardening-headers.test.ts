// Issue 14 §1 "Headers": no page had a Content Security Policy or framing protection. Now every
// response carries nosniff, a referrer policy, `X-Frame-Options: DENY` and a policy header with
// `frame-ancestors 'none'`, plus HSTS when the site's address is https://; every page also has
// Astro's policy, which allows each of its inline scripts and styles by hash and never by
// 'unsafe-inline'. Checked on the real built server: prerendered pages, on-demand pages,
// endpoints, the back office, the 403 page and the payment emulator's page — and on every page of
// the build, each inline <script> and <style> against the page's own policy.
import fs from 'node:fs/promises';
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCurrent, versionDir } from '#api/build/versions.ts';
import { openDatabase } from '#api/db/index.ts';
import { createGalerieServer } from '#api/http/app.ts';
import { cspHash } from '#api/http/headers.ts';
import { readPagePolicies } from '#api/http/site.ts';
import { StaticFiles } from '#api/http/static-files.ts';
import { testDbKind } from '../helpers/db.ts';
import { makeUser } from '../helpers/factories.ts';
import { freshShop, startServer, type FreshShop, type RunningServer } from '../helpers/server.ts';

// ---------------------------------------------------------------------------------------------
// Reading policies and pages the way a browser does.

type Policy = Map<string, string[]>;

function parsePolicy(text: string): Policy {
  const policy: Policy = new Map();
  for (const directive of text.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name && !policy.has(name.toLowerCase())) policy.set(name.toLowerCase(), sources);
  }
  return policy;
}

const unescapeHtml = (value: string) =>
  value
    .replace(/&#39;|&#x27;|&apos;/g, "'")
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const TAG =
  /<([a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function attributes(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of source.matchAll(ATTRIBUTE))
    found.set(m[1]!.toLowerCase(), unescapeHtml(m[2] ?? m[3] ?? m[4] ?? ''));
  return found;
}

/** The policies of a <meta http-equiv> in the page. */
function metaPolicies(html: string): string[] {
  return [...html.matchAll(TAG)]
    .filter(([, name]) => name!.toLowerCase() === 'meta')
    .map(([, , attrs]) => attributes(attrs!))
    .filter((a) => a.get('http-equiv')?.toLowerCase() === 'content-security-policy')
    .map((a) => a.get('content') ?? '');
}

/** Script types a browser runs; anything else (JSON-LD…) is a data block no policy governs. */
const RUNS = /^(|module|text\/javascript|application\/javascript)$/i;

/** The inline code of a page that a browser would run or apply, with the attributes it carries. */
function inlineCode(html: string) {
  const code: { kind: 'script' | 'style'; text: string }[] = [];
  for (const m of html.matchAll(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi)) {
    const kind = m[1]!.toLowerCase() as 'script' | 'style';
    const attrs = attributes(m[2]!);
    if (kind === 'script' && (attrs.has('src') || !RUNS.test(attrs.get('type') ?? ''))) continue;
    code.push({ kind, text: m[3]! });
  }
  const markup = html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '');
  const styleAttributes: string[] = [];
  const handlers: string[] = [];
  for (const [tag, name, attrs] of markup.matchAll(TAG))
    for (const attr of attributes(attrs!).keys()) {
      if (attr === 'style') styleAttributes.push(`<${name} style> in ${tag.slice(0, 80)}`);
      if (/^on[a-z]+$/.test(attr)) handlers.push(`<${name} ${attr}> in ${tag.slice(0, 80)}`);
    }
  return { code, styleAttributes, handlers };
}

/** The sources that govern `kind` under a policy (CSP 3 fallback list), or null if none does. */
function governing(policy: Policy, kind: 'script' | 'style', scope: 'elem' | 'attr') {
  return (
    policy.get(`${kind}-src-${scope}`) ??
    policy.get(`${kind}-src`) ??
    policy.get('default-src') ??
    null
  );
}

/**
 * What the page's policies refuse or allow only unsafely: each inline script and style must be
 * listed by hash in every policy that governs it; no policy may say 'unsafe-inline' or
 * 'unsafe-eval'; style and event-handler attributes cannot be allowed without them, so there are
 * none. A page without any script and style policy is refused as a whole.
 */
function problems(html: string, policies: string[]): string[] {
  const parsed = policies.map(parsePolicy);
  const found: string[] = [];
  for (const text of policies)
    if (/'unsafe-(inline|eval|hashes)'/.test(text)) found.push(`unsafe source in: ${text}`);
  const { code, styleAttributes, handlers } = inlineCode(html);
  for (const kind of ['script', 'style'] as const)
    if (!parsed.some((p) => governing(p, kind, 'elem')))
      found.push(`no policy governs inline ${kind}s`);
  for (const { kind, text } of code) {
    const hash = `'${cspHash(text)}'`;
    for (const policy of parsed) {
      const sources = governing(policy, kind, 'elem');
      if (sources && !sources.includes(hash))
        found.push(
          `${kind} ${hash} (${JSON.stringify(text.slice(0, 60))}) not in ${sources.join(' ')}`,
        );
    }
  }
  for (const attribute of [...styleAttributes, ...handlers]) found.push(attribute);
  return found;
}

// ---------------------------------------------------------------------------------------------

async function* htmlFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(full);
    else if (entry.name.endsWith('.html')) yield full;
  }
}

function expectCommonHeaders(response: Response, what: string): void {
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
  const policy = parsePolicy(response.headers.get('content-security-policy') ?? '');
  expect(policy.get('frame-ancestors'), what).toEqual(["'none'"]);
}

// Processes and a build, not the database kind, are under test: run once, on the embedded one.
describe.skipIf(testDbKind() !== 'pglite')('the built site, served', () => {
  let shop: FreshShop;
  let server: RunningServer;
  let dist: string;
  let base: string;
  // Their Cookie headers on the golden https:// shop (`__Host-session`, decision 038).
  let admin: { secureCookie: string };
  let customer: { secureCookie: string };

  beforeAll(async () => {
    // The golden shop (an https:// site, built): the owner and a customer added before the
    // server holds the embedded database.
    shop = await freshShop('hardening-headers');
    dist = shop.dist;
    const handle = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pgdata') });
    admin = await makeUser(handle.db, { role: 'admin' });
    customer = await makeUser(handle.db);
    await handle.close();
    server = await startServer(shop);
    base = server.base;
  });

  afterAll(async () => {
    await server?.stop();
    shop?.remove();
  });

  const get = (pathname: string, cookie?: string) =>
    fetch(`${base}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

  it('every built page allows each of its inline scripts and styles by hash, nothing unsafe', async () => {
    const version = versionDir(dist, readCurrent(dist)!);
    const client = path.join(version, 'client');
    // Astro's policies for the prerendered pages, which the server sends as headers (issue 24).
    const policies = await readPagePolicies(version);
    expect(policies).not.toBeNull();
    let pages = 0;
    const seen = { script: 0, style: 0 };
    for await (const file of htmlFiles(client)) {
      const html = await fs.readFile(file, 'utf8');
      const page = path.relative(client, file);
      // No <meta> policy: markup injected above it would push it out of <head>, unheeded.
      expect(metaPolicies(html), page).toEqual([]);
      const route = `/${page}`.replace(/\/index\.html$/, '').replace(/\.html$/, '') || '/';
      const policy = policies!.byRoute.get(route);
      expect(policy, page).toBeDefined();
      expect(problems(html, [policy!]), page).toEqual([]);
      for (const { kind } of inlineCode(html).code) seen[kind]++;
      pages++;
    }
    expect(pages).toBeGreaterThan(10);
    // Not a vacuous pass: the pages do have inline scripts and styles, each checked above.
    expect(seen.script).toBeGreaterThan(pages / 2);
    expect(seen.style).toBeGreaterThan(pages / 2);
  });

  it('prerendered pages: the headers of every response, Astro’s policy as a header, HSTS on the https:// site', async () => {
    for (const pathname of ['/', '/gallery', '/en/about', '/contact', '/does-not-exist']) {
      const response = await get(pathname);
      expect(response.headers.get('content-type'), pathname).toMatch(/^text\/html/);
      expectCommonHeaders(response, pathname);
      expect(response.headers.get('strict-transport-security'), pathname).toMatch(/^max-age=\d+/);
      const html = await response.text();
      expect(metaPolicies(html), pathname).toEqual([]);
      const header = response.headers.get('content-security-policy')!;
      expect(parsePolicy(header).get('script-src'), pathname).toContain("'self'");
      expect(problems(html, [header]), pathname).toEqual([]);
    }
  });

  it('on-demand pages: Astro’s policy is a header that also refuses framing', async () => {
    for (const pathname of [
      '/login',
      '/panier',
      '/en/cart',
      '/signup',
      '/forgot-password',
      '/admin/login',
    ]) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(200);
      expectCommonHeaders(response, pathname);
      const header = response.headers.get('content-security-policy')!;
      expect(parsePolicy(header).get('script-src'), pathname).toContain("'self'");
      const html = await response.text();
      expect(metaPolicies(html), pathname).toEqual([]);
      expect(problems(html, [header]), pathname).toEqual([]);
    }
  });

  it('the back office: every screen hashed, framed by nobody, never cached', async () => {
    for (const section of [
      'dashboard',
      'artworks',
      'orders',
      'customers',
      'analytics',
      'settings',
    ]) {
      const pathname = `/admin/${section}`;
      const response = await get(pathname, admin.secureCookie);
      expect(response.status, pathname).toBe(200);
      expectCommonHeaders(response, pathname);
      expect(response.headers.get('cache-control'), pathname).toBe('private, no-store');
      const html = await response.text();
      expect(html, pathname).toContain('<astro-island');
      // The islands' bootstrap and styles are inline: each must be allowed by its hash.
      expect(inlineCode(html).code.length, pathname).toBeGreaterThanOrEqual(3);
      // Zod is told not to probe for eval (refused, and reported as a violation) before any
      // module of the screen can load it (astro.config.mjs).
      const jitless = html.indexOf('jitless:true');
      expect(jitless, pathname).toBeGreaterThan(-1);
      expect(jitless, pathname).toBeLessThan(
        html.search(/<script[^>]*type="module"|<astro-island/),
      );
      expect(problems(html, [response.headers.get('content-security-policy')!]), pathname).toEqual(
        [],
      );
    }
    // A customer gets the hand-written 403 page: its one style, by hash.
    const forbidden = await get('/admin/dashboard', customer.secureCookie);
    expect(forbidden.status).toBe(403);
    expectCommonHeaders(forbidden, '403');
    const html = await forbidden.text();
    expect(html).toContain('<style>');
    expect(problems(html, [forbidden.headers.get('content-security-policy')!])).toEqual([]);
  });

  it('endpoints, files and the payment emulator’s page carry the same headers', async () => {
    for (const pathname of ['/api/cart', '/api/health', '/favicon.svg', '/robots.txt']) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(200);
      expectCommonHeaders(response, pathname);
      expect(response.headers.get('strict-transport-security'), pathname).toMatch(/^max-age=\d+/);
    }
    const emulator = await get('/emulator/checkout/cs_test_unknown');
    expect(emulator.headers.get('content-type')).toMatch(/^text\/html/);
    expectCommonHeaders(emulator, 'emulator');
    const html = await emulator.text();
    expect(html).toContain('<style>');
    expect(problems(html, [emulator.headers.get('content-security-policy')!])).toEqual([]);
  });
});

describe('HSTS, only for a site whose address is https://', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-headers-'));
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  async function headersOf(siteUrl: string) {
    const app = createGalerieServer({
      staticFiles: await StaticFiles.load(dir),
      handler: (_req: http.IncomingMessage, res: http.ServerResponse) => {
        res.setHeader('Content-Type', 'application/json');
        res.end('{}');
      },
      siteUrl,
    });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const { port } = app.server.address() as net.AddressInfo;
    try {
      const file = await fetch(`http://127.0.0.1:${port}/`);
      const handled = await fetch(`http://127.0.0.1:${port}/api/anything`);
      expect(handled.status).toBe(200);
      for (const response of [file, handled]) expectCommonHeaders(response, siteUrl);
      return [file, handled].map((r) => r.headers.get('strict-transport-security'));
    } finally {
      await new Promise((resolve) => app.server.close(resolve));
    }
  }

  it('announces HSTS on built files and handled requests alike when the site is https://', async () => {
    for (const value of await headersOf('https://galerie.example'))
      expect(value).toMatch(/^max-age=\d+/);
  });

  it('never over plain http', async () => {
    expect(await headersOf('http://localhost:4321')).toEqual([null, null]);
  });
});
