// Two builds of one checkout at once — a publish while `npm run build` runs, or two servers of one
// checkout — each build exactly its own catalogue. Astro's content layer keeps its entries in a
// cache folder it merges into the next build that finds it; shared, it once put a work one
// server's owner had just added into the other server's gallery (api/build/index.ts now gives
// every build a cache folder of its own).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildInputs,
  buildSnapshot,
  catalogSnapshot,
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

  beforeAll(async () => {
    shop = await freshShop('build-isolation');
    const handle = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pgdata') });
    snapshot = await catalogSnapshot(handle.db);
    await handle.close();
  });
  afterAll(() => shop?.remove());

  it('each build only its own catalogue', async () => {
    const sourceHash = await computeSourceHash(root);
    const variant = (title: string): CatalogSnapshot => ({
      ...snapshot,
      artworks: snapshot.artworks.map((work, i) =>
        i === 0 ? { ...work, title: { fr: title, en: title } } : work,
      ),
    });
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
    expect(a).toContain('Version-A-only');
    expect(a).not.toContain('Version-B-only');
    expect(b).toContain('Version-B-only');
    expect(b).not.toContain('Version-A-only');
  });
});
