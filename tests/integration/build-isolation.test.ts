// Two builds of one checkout at once — a publish while `npm run build` runs, or two servers of one
// checkout — each build exactly its own catalogue. Astro's content layer keeps its entries in a
// cache folder it merges into the next build that finds it; shared, it once put a work one
// server's owner had just added into the other server's gallery (api/build/index.ts now gives
// every build a cache folder of its own).
// A build hands the next one the work pages it rendered (Astro's incremental build,
// docs/decisions/053): the next renders only those whose work or settings changed, and its pages
// are the ones a full build makes.
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BuildError,
  buildInputs,
  buildSnapshot,
  catalogSnapshot,
  startBuild,
  computeSourceHash,
  type CatalogSnapshot,
} from '#api/build/index.ts';
import { openDatabase } from '#api/db/index.ts';
import { testDbKind } from '../helpers/db.ts';
import { freshShop, root, type FreshShop } from '../helpers/server.ts';

// Builds, not the database kind, are under test: run once, on the embedded database.
describe.skipIf(testDbKind() !== 'pglite')('two builds at once', () => {
  let shop: FreshShop;
  let snapshot: CatalogSnapshot;
  let sourceHash: string;
  /** The dist folders of the two builds above, each holding one complete version. */
  let built: { a: string; b: string } | undefined;

  beforeAll(async () => {
    shop = await freshShop('build-isolation');
    const handle = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pgdata') });
    snapshot = await catalogSnapshot(handle.db);
    await handle.close();
  });
  afterAll(() => shop?.remove());

  // The first original renamed, its print moved above it: the gallery's card of the original
  // still names it (a card once took its group's first work's title).
  const variant = (title: string): CatalogSnapshot => {
    const original = snapshot.artworks[0]!;
    const print = snapshot.artworks.find((work) => work.originalId === original.id)!;
    return {
      ...snapshot,
      artworks: [
        print,
        { ...original, title: { fr: title, en: title } },
        ...snapshot.artworks.filter((work) => work !== original && work !== print),
      ],
    };
  };
  const cardTitle = (html: string) =>
    new RegExp(
      `<li data-card data-artwork-id="${snapshot.artworks[0]!.id}"[^]*?<h3[^>]*>([^<]*)</h3>`,
    ).exec(html)?.[1];

  it('each build only its own catalogue', async () => {
    sourceHash = await computeSourceHash(root);
    expect(snapshot.artworks[0]!.type).toBe('original');
    const build = async (title: string) => {
      const dist = path.join(shop.work, title);
      const catalogue = variant(title);
      const built = await buildSnapshot(
        catalogue,
        { ...buildInputs(catalogue, sourceHash, shop.siteUrl), builtAt: '' },
        { root, dist, siteUrl: shop.siteUrl, niceness: 0 },
      );
      return fs.readFileSync(path.join(built.dir, 'client', 'gallery', 'index.html'), 'utf8');
    };
    const [a, b] = await Promise.all([build('Version-A-only'), build('Version-B-only')]);
    built = {
      a: path.join(shop.work, 'Version-A-only'),
      b: path.join(shop.work, 'Version-B-only'),
    };
    expect(cardTitle(a)).toBe('Version-A-only');
    expect(cardTitle(b)).toBe('Version-B-only');
    expect(a).toContain('Version-A-only');
    expect(a).not.toContain('Version-B-only');
    expect(b).toContain('Version-B-only');
    expect(b).not.toContain('Version-A-only');
  });

  /** Builds `catalogue` in `dist`; the pages it rendered and the ones it copied. */
  async function buildIn(dist: string, catalogue: CatalogSnapshot) {
    const lines: string[] = [];
    const result = await buildSnapshot(
      catalogue,
      { ...buildInputs(catalogue, sourceHash, shop.siteUrl), builtAt: '' },
      { root, dist, siteUrl: shop.siteUrl, niceness: 0, log: (line) => lines.push(line) },
    );
    // Astro prints a page's file, then how it came: "(restored)" or its time — on the same line
    // or the next one, as the output's chunks fall.
    const pages = { rendered: [] as string[], restored: [] as string[] };
    const output = stripVTControlCharacters(lines.join('\n'));
    for (const [, file, how] of output.matchAll(/├─ (\S+\.html)\s+\((restored|\+)/g))
      (how === 'restored' ? pages.restored : pages.rendered).push(file!);
    return { dir: result.dir, pages, output };
  }

  const REUSED = 'galerie: the server bundle of ';
  const REUSED_CLIENT = 'galerie: the client build of ';
  const currentVersion = (dist: string) =>
    path.join(dist, 'versions', fs.readFileSync(path.join(dist, 'current'), 'utf8').trim());
  /** Every file under `dir`, with its content. */
  const tree = (dir: string) =>
    Object.fromEntries(
      fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => fs.statSync(path.join(dir, f)).isFile())
        .sort()
        .map((f) => [f, fs.readFileSync(path.join(dir, f)).toString('base64')]),
    );

  const workPage = (file: string) => /^\/(oeuvres|en\/works)\//.test(file);

  it('a publish renders only the changed work pages, and makes the pages a full build makes', async () => {
    if (!built) throw new Error('the two builds above did not run');
    // Dist A holds the build of "Version-A-only": build "Version-B-only" there too.
    const catalogue = variant('Version-B-only');
    const before = currentVersion(built.a);
    const next = await buildIn(built.a, catalogue);
    const restoredWorks = next.pages.restored.filter(workPage);
    const renderedWorks = next.pages.rendered.filter(workPage);
    expect(restoredWorks.length).toBeGreaterThan(20);
    // Its work's two pages, rendered again: the other works' pages are copied.
    expect(renderedWorks, JSON.stringify(renderedWorks)).toHaveLength(2);
    for (const file of renderedWorks)
      expect(fs.readFileSync(path.join(next.dir, 'client', file), 'utf8')).toContain(
        'Version-B-only',
      );
    expect(next.pages.restored.filter((f) => !workPage(f))).toEqual([]);

    // Every page and header the same as the full build of that catalogue in dist B.
    const full = path.join(
      built.b,
      'versions',
      fs.readFileSync(path.join(built.b, 'current'), 'utf8').trim(),
    );
    const files = (dir: string) =>
      fs
        .readdirSync(path.join(dir, 'client'), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(html|xml|txt)$/.test(f))
        .sort();
    expect(files(next.dir)).toEqual(files(full));
    for (const file of files(full))
      expect(fs.readFileSync(path.join(next.dir, 'client', file), 'utf8'), file).toBe(
        fs.readFileSync(path.join(full, 'client', file), 'utf8'),
      );

    // Only works changed: the server bundle is the previous version's, not built again
    // (docs/decisions/063), and the scripts and styles are those of a full build, file for file —
    // the ones only on-demand pages use included.
    expect(next.output).toContain(REUSED);
    expect(fs.existsSync(path.join(next.dir, 'server', 'entry.mjs'))).toBe(true);
    expect(tree(path.join(next.dir, 'server'))).toEqual(tree(path.join(before, 'server')));
    const assets = (dir: string) => tree(path.join(dir, 'client', '_astro'));
    expect(Object.keys(assets(next.dir))).toEqual(Object.keys(assets(full)));
    expect(assets(next.dir)).toEqual(assets(full));
    expect(fs.readFileSync(path.join(next.dir, '_headers.json'), 'utf8')).toBe(
      fs.readFileSync(path.join(full, '_headers.json'), 'utf8'),
    );
    // ... taken from the previous version, not built again (docs/decisions/065): every file of
    // the browser's a full build has, the public folder's included.
    expect(next.output).toContain(REUSED_CLIENT);
    const names = (dir: string) =>
      fs
        .readdirSync(path.join(dir, 'client'), { recursive: true, encoding: 'utf8' })
        .filter((f) => !/\.(br|gz)$/.test(f))
        .sort();
    expect(names(next.dir)).toEqual(names(full));

    // Once more, from that version (whose client build was itself restored), back to the first
    // catalogue: the same files as its full build.
    const back = await buildIn(built.a, variant('Version-A-only'));
    expect(back.output).toContain(REUSED_CLIENT);
    expect(names(back.dir)).toEqual(names(before));
    for (const file of files(before))
      expect(fs.readFileSync(path.join(back.dir, 'client', file), 'utf8'), file).toBe(
        fs.readFileSync(path.join(before, 'client', file), 'utf8'),
      );
    expect(assets(back.dir)).toEqual(assets(before));
    expect(fs.readFileSync(path.join(back.dir, '_headers.json'), 'utf8')).toBe(
      fs.readFileSync(path.join(before, '_headers.json'), 'utf8'),
    );

    // A setting every page shows: every work page is rendered again.
    const renamed = await buildIn(built.a, {
      ...catalogue,
      settings: { ...catalogue.settings, artist_name: 'Artiste-Renommée' },
    });
    expect(renamed.pages.restored).toEqual([]);
    // A setting is read by on-demand pages too: their bundle is built again.
    expect(renamed.output).not.toContain(REUSED);
    expect(renamed.output).not.toContain(REUSED_CLIENT);
    const page = renamed.pages.rendered.find(workPage)!;
    expect(fs.readFileSync(path.join(renamed.dir, 'client', page), 'utf8')).toContain(
      'Artiste-Renommée',
    );
  });

  it('a work page shows only its work group and the settings, which its cacheKey covers', () => {
    // The files a work page renders, followed through their relative imports.
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = fs.readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/import\s[^;]*?from\s+'(\.[^']+\.(?:astro|ts))'/g))
        visit(path.resolve(path.dirname(file), spec!));
    };
    visit(path.join(root, 'src/pages/oeuvres/[key].astro'));
    visit(path.join(root, 'src/pages/en/works/[key].astro'));
    expect(seen.size).toBeGreaterThan(8);
    const readers = [...seen]
      .filter((f) =>
        /getCollection\(|getEntry\(|getArtworks\(|fetch\(|Astro\.(url|request|cookies|locals)\b/.test(
          fs.readFileSync(f, 'utf8'),
        ),
      )
      .map((f) => path.relative(root, f));
    // catalog.ts (getSiteSettings; getArtworks), work-pages.ts (getStaticPaths: the groups, each
    // handed to its page as props), Base (a link to the back office for a signed-in owner, on
    // demand only: never in a prerendered page).
    expect(readers.sort()).toEqual([
      'src/layouts/Base.astro',
      'src/lib/catalog.ts',
      'src/lib/work-pages.ts',
    ]);
  });

  it('a build started early and not needed after all stops and leaves nothing', async () => {
    const dist = path.join(shop.work, 'abandoned');
    // The pages the last build rendered, for the next one (docs/decisions/053).
    const incremental = path.join(dist, 'incremental');
    fs.mkdirSync(path.join(incremental, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(incremental, 'incremental-build.json'), '{"pages":[]}');
    const started = await startBuild({ root, dist, siteUrl: shop.siteUrl, niceness: 0 });
    // Taken by the build, which waits for its catalogue (a first start, a build started ahead of
    // a publish: api/build/standby.ts) ...
    expect(fs.existsSync(incremental)).toBe(false);
    expect(started.running).toBe(true);
    await started.abandon();
    expect(started.running).toBe(false);
    // ... and handed on again, since it rendered nothing.
    expect(fs.readFileSync(path.join(incremental, 'incremental-build.json'), 'utf8')).toBe(
      '{"pages":[]}',
    );
    fs.rmSync(incremental, { recursive: true });
    expect(fs.readdirSync(path.join(dist, 'versions'))).toEqual([]);
    expect(fs.readdirSync(path.join(dist, 'logs'))).toEqual([]);
    expect(fs.existsSync(path.join(dist, 'current'))).toBe(false);

    // One handed its catalogue as the server stops (a build started ahead has no signal of its
    // own: the publish's is given to finish) is stopped, and makes no version.
    const stopped = await startBuild({ root, dist, siteUrl: shop.siteUrl, niceness: 0 });
    const stopping = new AbortController();
    stopping.abort();
    await expect(
      stopped.finish(
        snapshot,
        { ...buildInputs(snapshot, 'x', shop.siteUrl), builtAt: '' },
        stopping.signal,
      ),
    ).rejects.toBeInstanceOf(BuildError);
    expect(stopped.running).toBe(false);
    expect(fs.existsSync(path.join(dist, 'current'))).toBe(false);
    expect(fs.readdirSync(path.join(dist, 'versions'))).toEqual([]);
  });
});
