// A sale asks for a publish (the gallery's "Vendu", a print's "Plus que 3", the JSON-LD offers),
// but most sales change nothing a page shows: the 10-minute soak (bench/soak.ts) published after
// each of its 311 sales and every new version's server bundle stayed in memory (+583 MB heap).
// The catalogue snapshot keeps a print's stock only as far as a page shows it, and a publish
// whose snapshot matches the served version's serves that version on, building nothing.
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  catalogSnapshot,
  computeSourceHash,
  ensureBuild,
  hashSnapshot,
  type BuildInfo,
} from '#api/build/index.ts';
import { versionDir, writeCurrent } from '#api/build/versions.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeWorkWithPrint } from '../helpers/factories.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const siteUrl = 'http://localhost:4321';

let t: TestDatabase;
let original: number;
let print: number;

beforeAll(async () => {
  t = await createTestDatabase();
  ({ original, print } = await makeWorkWithPrint(t.db, { print: { stock: 10 } }));
});
afterAll(() => t.dispose());

const setStock = (id: number, stock: number) =>
  t.db.updateTable('artworks').set({ stock }).where('id', '=', id).execute();
const catalogHash = async () => hashSnapshot(await catalogSnapshot(t.db));

describe('what a sale changes in the pages', () => {
  beforeEach(() => setStock(print, 10));

  it('a print sold above the low-stock threshold changes nothing built', async () => {
    const before = await catalogHash();
    for (const stock of [9, 5, 4]) {
      await setStock(print, stock);
      expect(await catalogHash(), `stock ${stock}`).toBe(before);
    }
  });

  it('every print left from three down, the last print and an original sold change the pages', async () => {
    const seen = new Set([await catalogHash()]);
    for (const stock of [3, 2, 1, 0]) {
      await setStock(print, stock);
      seen.add(await catalogHash());
    }
    await t.db
      .updateTable('artworks')
      .set({ is_sold: true, stock: 0 })
      .where('id', '=', original)
      .execute();
    seen.add(await catalogHash());
    expect(seen.size).toBe(6);
    await t.db
      .updateTable('artworks')
      .set({ is_sold: false, stock: 1 })
      .where('id', '=', original)
      .execute();
  });

  it('a publish whose snapshot matches the served version serves it on without building', async () => {
    const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-publish-'));
    try {
      // The served version, as a build leaves it (its pages are not needed to decide).
      const id = '20261124T000000000Z-1';
      const info: BuildInfo = {
        sourceHash: await computeSourceHash(root),
        siteUrl,
        catalogHash: await catalogHash(),
        builtAt: new Date().toISOString(),
      };
      await fs.mkdir(path.join(versionDir(dist, id), 'server'), { recursive: true });
      await fs.writeFile(path.join(versionDir(dist, id), 'server', 'entry.mjs'), '');
      await fs.writeFile(path.join(versionDir(dist, id), 'build-info.json'), JSON.stringify(info));
      writeCurrent(dist, id);

      await setStock(print, 7);
      const kept = await ensureBuild(t.db, { root, dist, siteUrl });
      expect(kept).toMatchObject({ id, built: false, reason: null });
      // A publish asked for by hand names the served version stale: it would build.
      await setStock(print, 3);
      expect(await catalogHash()).not.toBe(info.catalogHash);
    } finally {
      await fs.rm(dist, { recursive: true, force: true });
    }
  });
});

/** Every file under `dir` (relative to the checkout). */
function filesUnder(dir: string): string[] {
  return fsSync
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

describe('what the on-demand pages are built from', () => {
  // A version whose server bundle was built from the same sources, site URL and settings keeps
  // the bundle already loaded (api/http/site.ts, BuildInfo.serverHash): that holds only while no
  // on-demand page reads the works from the build's snapshot.
  it('only prerendered pages read the works of the snapshot', () => {
    const source = filesUnder('src').filter(
      (f) => /\.(astro|ts|tsx)$/.test(f) && !f.endsWith('.test.ts'),
    );
    const readers = source.filter((f) =>
      /getArtworks\(|getCollection\(\s*'artworks'/.test(
        fsSync.readFileSync(path.join(root, f), 'utf8'),
      ),
    );
    expect(readers.sort()).toEqual([
      'src/components/pages/GalleryPage.astro',
      'src/components/pages/HomePage.astro',
      'src/lib/catalog.ts',
      'src/lib/work-pages.ts',
      'src/pages/sitemap.xml.ts',
    ]);
    // The sitemap and the works' own pages (issue 25) read them too, prerendered all.
    for (const page of [
      'src/pages/sitemap.xml.ts',
      'src/pages/oeuvres/[key].astro',
      'src/pages/en/works/[key].astro',
    ])
      expect(fsSync.readFileSync(path.join(root, page), 'utf8'), page).not.toMatch(
        /prerender\s*=\s*false/,
      );
    const pages = source.filter((f) => f.startsWith('src/pages/'));
    const rendering = pages.filter((f) =>
      /\b(GalleryPage|HomePage|WorkPage|work-pages)\b/.test(
        fsSync.readFileSync(path.join(root, f), 'utf8'),
      ),
    );
    expect(rendering.length).toBeGreaterThanOrEqual(4);
    for (const page of rendering)
      expect(fsSync.readFileSync(path.join(root, page), 'utf8'), page).not.toMatch(
        /prerender\s*=\s*false/,
      );
    // The two components are rendered by pages only, not by a layout an on-demand page uses.
    for (const file of source.filter((f) => !f.startsWith('src/pages/')))
      expect(fsSync.readFileSync(path.join(root, file), 'utf8'), file).not.toMatch(
        /import\s+(GalleryPage|HomePage|WorkPage)\b/,
      );
    // The works' pages' reader is imported by those pages and their component only.
    expect(
      source.filter(
        (f) =>
          !f.startsWith('src/pages/') &&
          /work-pages\.ts'/.test(fsSync.readFileSync(path.join(root, f), 'utf8')),
      ),
    ).toEqual(['src/components/pages/WorkPage.astro']);
  });
});
