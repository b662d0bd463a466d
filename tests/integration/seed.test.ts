// The demo catalogue matches storefront §3 (25 works; prints 350 € for the first five titles and
// 420 € after; originals 4 100–34 000 €; some sold; low and empty print stock) and seeding twice
// changes nothing.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPublicArtworks } from '#api/catalog/index.ts';
import { readSeedCatalogue, seedDemo, seedIfEmpty, startSeedRenders } from '#api/catalog/seed.ts';
import { diskStorage } from '#api/media/storage.ts';
import { DEFAULT_SETTINGS, getSettings } from '#api/settings/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
let mediaDir: string;

beforeAll(async () => {
  t = await createTestDatabase();
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-media-'));
});
afterAll(async () => {
  await t.dispose();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

const counts = async () => ({
  artworks: (await t.db.selectFrom('artworks').select('id').execute()).length,
  media: (await t.db.selectFrom('media').select('id').execute()).length,
  settings: (await t.db.selectFrom('site_settings').select('key').execute()).length,
});

describe('demo seed', () => {
  it('seeds an empty database once, then leaves it alone', async () => {
    const first = await seedIfEmpty(t.db, diskStorage(mediaDir));
    expect(first?.artworksInserted).toBe(25);
    const after = await counts();
    // 13 paintings, 5 more photos of three of them (issue 25: details, in situ) and the artist's
    // portrait (its setting points at it).
    expect(after).toEqual({
      artworks: 25,
      media: 19,
      settings: Object.keys(DEFAULT_SETTINGS).length,
    });

    expect(await seedIfEmpty(t.db, diskStorage(mediaDir))).toBeNull();
    expect(await seedDemo(t.db, diskStorage(mediaDir))).toEqual({
      artworksInserted: 0,
      settingsInserted: 0,
    });
    expect(await counts()).toEqual(after);
    // The photos of a work: its card image first, then the others in the catalogue's order.
    const photos = await t.db
      .selectFrom('artwork_images as i')
      .innerJoin('artworks as a', 'a.id', 'i.artwork_id')
      .innerJoin('media as m', 'm.id', 'i.media_id')
      .select([
        'i.position',
        'i.caption_en',
        'm.width',
        'm.height',
        'a.media_id',
        'i.media_id as photo',
      ])
      .where('a.slug', '=', 'vent-d-alentejo-original')
      .orderBy('i.position')
      .execute();
    expect(photos.map((p) => [p.position, p.caption_en, p.width, p.height])).toEqual([
      [0, '', 1200, 1500],
      [1, 'In situ: 200 × 150 cm, hung at 150 cm from the floor', 1500, 1000],
      [2, 'Detail: the lower left of the canvas', 1200, 1500],
    ]);
    expect(photos[0]!.photo).toBe(photos[0]!.media_id);
    const portrait = (await getSettings(t.db)).artist_portrait;
    expect(portrait).toMatchObject({ width: 1200, height: 1500 });
    expect(
      await t.db
        .selectFrom('media')
        .select('sha256')
        .where('sha256', '=', portrait!.sha256)
        .execute(),
    ).toHaveLength(1);
  });

  it('links every print to its original', async () => {
    const prints = await t.db
      .selectFrom('artworks as p')
      .leftJoin('artworks as o', 'o.id', 'p.original_id')
      .select(['p.slug', 'o.slug as original'])
      .where('p.artwork_type', '=', 'print')
      .execute();
    expect(prints.length).toBe(12);
    for (const print of prints)
      expect(print.original).toBe(print.slug.replace(/-print$/, '-original'));
  });

  it('keeps what the owner changed when seeding again', async () => {
    await t.db
      .updateTable('artworks')
      .set({ price_cents: 39900 })
      .where('slug', '=', 'lumiere-du-tage-print')
      .execute();
    await t.db.deleteFrom('artworks').where('slug', '=', 'seuil-print').execute();
    const result = await seedDemo(t.db, diskStorage(mediaDir));
    expect(result.artworksInserted).toBe(1);
    const print = await t.db
      .selectFrom('artworks')
      .select('price_cents')
      .where('slug', '=', 'lumiere-du-tage-print')
      .executeTakeFirstOrThrow();
    expect(print.price_cents).toBe(39900);
    await t.db
      .updateTable('artworks')
      .set({ price_cents: 35000 })
      .where('slug', '=', 'lumiere-du-tage-print')
      .execute();
  });

  it('follows the payment catalogue of the spec', async () => {
    const works = await listPublicArtworks(t.db);
    expect(works).toHaveLength(25);
    const originals = works.filter((w) => w.type === 'original');
    const prints = works.filter((w) => w.type === 'print');
    expect(originals).toHaveLength(13);
    expect(prints).toHaveLength(12);

    const titles = [...new Set(works.map((w) => w.title.fr))];
    expect(titles).toHaveLength(13);
    for (const print of prints) {
      const expected = titles.indexOf(print.title.fr) < 5 ? 35000 : 42000;
      expect(print.priceCents, print.slug).toBe(expected);
      expect(print.editionSize).toBeGreaterThanOrEqual(print.stock);
    }
    const originalPrices = originals.map((o) => o.priceCents);
    expect(Math.min(...originalPrices)).toBe(410000);
    expect(Math.max(...originalPrices)).toBe(3400000);
    expect(originals.filter((o) => o.isSold).length).toBeGreaterThan(0);
    expect(originals.filter((o) => o.isSold).every((o) => o.stock === 0)).toBe(true);
    expect(prints.filter((p) => p.stock === 0)).toHaveLength(1);
    expect(prints.some((p) => p.stock >= 1 && p.stock <= 3)).toBe(true);

    for (const work of works) {
      expect(work.title.en.length).toBeGreaterThan(0);
      expect(work.description.fr.length).toBeGreaterThan(40);
      expect(work.description.en.length).toBeGreaterThan(40);
      expect(work.technique.fr && work.technique.en).toBeTruthy();
      expect(work.dimensions).toMatch(/^\d+ x \d+ cm$/);
      expect(['peinture', 'sculpture', 'mixte']).toContain(work.category);
      expect(work.image).not.toBeNull();
    }
  });

  it('stores a real image master for every work', async () => {
    const media = await t.db.selectFrom('media').selectAll().execute();
    for (const row of media) {
      const bytes = await fs.readFile(path.join(mediaDir, row.storage_key));
      expect(bytes.length).toBe(row.byte_size);
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('jpeg');
      expect([meta.width, meta.height]).toEqual([row.width, row.height]);
    }
  });

  it('stores the default settings of the spec', async () => {
    const settings = await getSettings(t.db);
    expect(settings.shipping_info).toEqual({
      default_cost_cents: 1500,
      free_threshold_cents: 50000,
    });
    expect(settings.currency).toBe('EUR');
    expect(settings.promo_codes).toEqual([
      { code: 'WELCOME10', discount: 10, active: true },
      { code: 'ART20', discount: 20, active: true },
      { code: 'SASHA25', discount: 15, active: true },
    ]);
    expect(settings.opening_hours.find((d) => d.day === 'mon')).toEqual({
      day: 'mon',
      open: null,
      close: null,
    });
    expect(settings.opening_hours.find((d) => d.day === 'sun')).toMatchObject({
      open: '14:00',
      close: '18:00',
    });
  });

  // A first start renders the demo's images while PGlite creates the database (api/server.ts).
  it('renders started before the database are the images a seed renders itself', async () => {
    const early = await startSeedRenders();
    const shas = async (render: Promise<Buffer>) =>
      createHash('sha256')
        .update(await render)
        .digest('hex');
    const made = [await shas(early.portrait)];
    for (const render of early.works.values()) {
      const { composition, views } = await render;
      made.push(await shas(Promise.resolve(composition)));
      for (const view of views) made.push(await shas(Promise.resolve(view)));
    }
    const stored = (await t.db.selectFrom('media').select('sha256').execute()).map((m) => m.sha256);
    expect(made.sort()).toEqual(stored.sort());
  });

  it('a seed takes the renders started early instead of rendering again', async () => {
    const other = await createTestDatabase();
    const otherMedia = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-media-'));
    try {
      // Stand-ins of each image's size, plain grey: cheap to make, and told apart by their bytes.
      const plain = (width: number, height: number, shade: number) =>
        sharp({
          create: { width, height, channels: 3, background: { r: shade, g: shade, b: shade } },
        })
          .jpeg()
          .toBuffer();
      const catalogue = await readSeedCatalogue();
      const works = new Map<string, Promise<{ composition: Buffer; views: Buffer[] }>>();
      catalogue.works.forEach((work, i) =>
        works.set(
          work.slug,
          (async () => ({
            composition: await plain(work.image.width, work.image.height, i),
            views: await Promise.all(
              (work.views ?? []).map((_, v) => plain(600, 600, 100 + i * 5 + v)),
            ),
          }))(),
        ),
      );
      const portrait = plain(1200, 1500, 250);
      const result = await seedIfEmpty(
        other.db,
        diskStorage(otherMedia),
        Promise.resolve({ catalogue, works, portrait }),
      );
      expect(result?.artworksInserted).toBe(25);
      const media = await other.db.selectFrom('media').select(['sha256', 'width']).execute();
      expect(media).toHaveLength(19);
      const given: Buffer[] = [await portrait];
      for (const render of works.values()) {
        const { composition, views } = await render;
        given.push(composition, ...views);
      }
      const givenShas = given.map((b) => createHash('sha256').update(b).digest('hex'));
      expect(media.map((m) => m.sha256).sort()).toEqual(givenShas.sort());
    } finally {
      await other.dispose();
      await fs.rm(otherMedia, { recursive: true, force: true });
    }
  });
});
