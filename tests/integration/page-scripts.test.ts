// What a storefront page asks for before its largest image (docs/decisions/051, issue 25's LCP
// budget), read from the golden shop's build: each page's module scripts are one request deep
// (a script imports no other chunk), no browser chunk imports Vite's preload helper, and the web
// fonts are neither preloaded nor declared in the CSS: the head script declares them from
// <html data-fonts>, whose three files exist.
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCurrent, versionDir } from '#api/build/versions.ts';
import { ensureGoldenShop, GOLDEN_SITE_URL } from '../setup/golden.ts';

async function* htmlFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(full);
    else if (entry.name.endsWith('.html')) yield full;
  }
}

/** The chunks a built module imports statically (`import … from "./x.js"`, `import "./x.js"`). */
const staticImports = (code: string) =>
  [...code.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+)["'`]/g)].map((m) => m[1]!);

describe('the storefront pages’ scripts and fonts', () => {
  let client: string;
  const pages = new Map<string, string>();

  beforeAll(async () => {
    const golden = await ensureGoldenShop(GOLDEN_SITE_URL);
    client = path.join(versionDir(golden.dist, readCurrent(golden.dist)!), 'client');
    for await (const file of htmlFiles(client)) {
      const route = path.relative(client, file);
      if (route.startsWith('admin')) continue;
      pages.set(route, await fs.readFile(file, 'utf8'));
    }
  });

  it('every page’s module scripts are one request deep', async () => {
    const seen = new Set<string>();
    for (const [route, html] of pages) {
      const sources = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]!);
      for (const source of sources) {
        expect(source, route).toMatch(/^\/_astro\//);
        const code = await fs.readFile(path.join(client, source), 'utf8');
        expect(staticImports(code), `${route}: ${source}`).toEqual([]);
        seen.add(source);
      }
    }
    // Not vacuous: the catalogue's page script and the forms' loader were both looked at.
    expect([...seen].some((s) => s.includes('Base.astro'))).toBe(true);
    expect([...seen].some((s) => s.includes('ContactFormScript'))).toBe(true);
  });

  it('no browser chunk imports Vite’s preload helper; lazy imports are plain', async () => {
    const chunks = (await fs.readdir(path.join(client, '_astro'))).filter((f) => f.endsWith('.js'));
    let lazy = 0;
    for (const chunk of chunks) {
      const code = await fs.readFile(path.join(client, '_astro', chunk), 'utf8');
      expect(
        staticImports(code).filter((i) => i.includes('preload-helper')),
        chunk,
      ).toEqual([]);
      if (/\bimport\(/.test(code)) lazy++;
    }
    expect(lazy).toBeGreaterThan(2);
  });

  it('fonts: not preloaded, not in the CSS; <html data-fonts> names three files that exist', async () => {
    expect(pages.size).toBeGreaterThan(20);
    for (const [route, html] of pages) {
      // The maintenance page, like the back office, declares and preloads them at once.
      if (route === 'maintenance/index.html') continue;
      expect(html, route).not.toMatch(/rel="preload"[^>]*as="font"/);
      expect(html, route).not.toMatch(/@font-face\{font-family:(Newsreader|"?Instrument Sans"?);/);
      const files = /<html[^>]*\sdata-fonts="([^"]+)"/.exec(html)?.[1]?.split(' ') ?? [];
      expect(
        files.map((f) => path.basename(f).replace(/\.[\w-]+\.woff2$/, '')),
        route,
      ).toEqual(['newsreader-400', 'instrument-sans-latin', 'instrument-sans-latin-ext']);
      for (const file of files)
        await expect(fs.stat(path.join(client, file))).resolves.toBeTruthy();
    }
  });
});
