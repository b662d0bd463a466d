// Responsive variants from the stored masters: right format and width, cached on disk, rendered
// once under concurrency, and a 400-px AVIF card within the image budget (median ≤ 15 KB).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEED_CATALOGUE } from '#api/catalog/seed.ts';
import { renderComposition, type CompositionSpec } from '#api/media/compose.ts';
import { storeMaster } from '#api/media/index.ts';
import { diskStorage, type MediaStorage } from '#api/media/storage.ts';
import {
  getVariant,
  VARIANT_FORMATS,
  VARIANT_WIDTHS,
  type VariantRequest,
} from '#api/media/variants.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const CARD_BUDGET_BYTES = 15 * 1024;

let t: TestDatabase;
let dir: string;
let storage: MediaStorage;
let cacheDir: string;
let catalogue: CompositionSpec[];

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-variants-'));
  storage = diskStorage(path.join(dir, 'media'));
  cacheDir = path.join(dir, 'media', 'variants');
  const seed = JSON.parse(await fs.readFile(SEED_CATALOGUE, 'utf8')) as {
    works: { image: CompositionSpec }[];
  };
  catalogue = seed.works.map((work) => work.image);
});
afterAll(async () => {
  await t.dispose();
  await fs.rm(dir, { recursive: true, force: true });
});

const alt = { fr: 'Composition', en: 'Composition' };
const cachedFile = (r: VariantRequest) =>
  path.join(cacheDir, r.sha256.slice(0, 2), r.sha256, `${r.width}.${r.format}`);

/** Counts master reads: every render starts with one, a cache hit never does. */
function countingStorage(inner: MediaStorage): MediaStorage & { reads: number } {
  const counted = {
    reads: 0,
    put: (key: string, bytes: Buffer) => inner.put(key, bytes),
    exists: (key: string) => inner.exists(key),
    remove: (key: string) => inner.remove(key),
    get(key: string) {
      counted.reads++;
      return inner.get(key);
    },
  };
  return counted;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe('getVariant', () => {
  it('renders each format and width from the master, keeping the aspect ratio', async () => {
    const spec = catalogue[0]!;
    const master = await storeMaster(t.db, storage, await renderComposition(spec), alt);
    for (const format of VARIANT_FORMATS) {
      for (const width of VARIANT_WIDTHS) {
        const request = { sha256: master.sha256, width, format };
        const variant = await getVariant(t.db, storage, cacheDir, request);
        expect(variant?.contentType).toBe(`image/${format}`);
        const meta = await sharp(variant!.bytes).metadata();
        expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
        if (format === 'avif') expect(meta.compression).toBe('av1');
        expect(meta.width).toBe(width);
        expect(meta.height).toBe(Math.round((width * spec.height) / spec.width));
        expect((await fs.readFile(cachedFile(request))).equals(variant!.bytes)).toBe(true);
      }
    }
    // Atomic writes leave no temporary file behind.
    const files = await fs.readdir(
      path.dirname(cachedFile({ ...master, width: 400, format: 'avif' })),
    );
    expect(files.sort()).toEqual([
      '1200.avif',
      '1200.webp',
      '400.avif',
      '400.webp',
      '800.avif',
      '800.webp',
    ]);
  });

  it('never enlarges a master smaller than the variant', async () => {
    const bytes = await renderComposition({ ...catalogue[1]!, width: 600, height: 450 });
    const master = await storeMaster(t.db, storage, bytes, alt);
    const variant = await getVariant(t.db, storage, cacheDir, {
      sha256: master.sha256,
      width: 1200,
      format: 'webp',
    });
    const meta = await sharp(variant!.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([600, 450]);
  });

  it('serves the cached file the second time without rendering again', async () => {
    const bytes = await renderComposition(catalogue[2]!);
    const master = await storeMaster(t.db, storage, bytes, alt);
    const counted = countingStorage(storage);
    const request = { sha256: master.sha256, width: 800, format: 'avif' } as const;

    const first = await getVariant(t.db, counted, cacheDir, request);
    expect(counted.reads).toBe(1);
    const { mtimeMs } = await fs.stat(cachedFile(request));

    const second = await getVariant(t.db, counted, cacheDir, request);
    expect(counted.reads).toBe(1);
    expect(second!.bytes.equals(first!.bytes)).toBe(true);
    expect((await fs.stat(cachedFile(request))).mtimeMs).toBe(mtimeMs);

    // The cache is the file: a variant written by another process is served as it is.
    await fs.writeFile(cachedFile(request), Buffer.from('cached by another process'));
    const third = await getVariant(t.db, counted, cacheDir, request);
    expect(third!.bytes.toString()).toBe('cached by another process');
    expect(counted.reads).toBe(1);
  });

  it('renders a variant once when many requests ask for it at the same time', async () => {
    const bytes = await renderComposition(catalogue[3]!);
    const master = await storeMaster(t.db, storage, bytes, alt);
    const counted = countingStorage(storage);
    const encode = vi.spyOn(sharp.prototype, 'toBuffer');
    try {
      const request = { sha256: master.sha256, width: 1200, format: 'avif' } as const;
      const results = await Promise.all(
        Array.from({ length: 8 }, () => getVariant(t.db, counted, cacheDir, request)),
      );
      expect(counted.reads).toBe(1);
      expect(encode).toHaveBeenCalledTimes(1);
      for (const result of results) expect(result!.bytes.equals(results[0]!.bytes)).toBe(true);
    } finally {
      encode.mockRestore();
    }
  });

  it('returns null for an image that is not stored, without writing anything', async () => {
    const sha256 = 'f'.repeat(64);
    expect(
      await getVariant(t.db, storage, cacheDir, { sha256, width: 400, format: 'webp' }),
    ).toBeNull();
    await expect(fs.access(path.join(cacheDir, 'ff'))).rejects.toThrow();
  });

  it('refuses a hash that would escape the cache directory, even if a row carries it', async () => {
    const bytes = await renderComposition(catalogue[9]!);
    const sha256 = '../escaped'; // would land in the test's temp dir, beside media/
    await storage.put('masters/es/escaped.jpg', bytes);
    await t.db
      .insertInto('media')
      .values({
        sha256,
        storage_key: 'masters/es/escaped.jpg',
        mime_type: 'image/jpeg',
        width: 1200,
        height: 1500,
        byte_size: bytes.length,
      })
      .execute();
    try {
      const request = { sha256, width: 400, format: 'webp' } as unknown as VariantRequest;
      expect(await getVariant(t.db, storage, cacheDir, request)).toBeNull();
      await expect(fs.access(path.join(cacheDir, '..', sha256))).rejects.toThrow();
    } finally {
      await t.db.deleteFrom('media').where('sha256', '=', sha256).execute();
    }
  });
});

describe('image budget', () => {
  it('keeps a 400-px AVIF card at or under 15 KB (median of five seeded works)', async () => {
    const sizes: number[] = [];
    for (const spec of catalogue.slice(4, 9)) {
      const master = await storeMaster(t.db, storage, await renderComposition(spec), alt);
      const variant = await getVariant(t.db, storage, cacheDir, {
        sha256: master.sha256,
        width: 400,
        format: 'avif',
      });
      sizes.push(variant!.bytes.length);
    }
    expect(sizes).toHaveLength(5);
    expect(median(sizes)).toBeLessThanOrEqual(CARD_BUDGET_BYTES);
  });
});
