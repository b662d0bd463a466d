// Deep zoom (issue 25, part 4): an upload keeps its master up to 4 000 px on its long side (a
// larger photo is downscaled to it, not refused); the zoom's `full` variant is that master at its
// own size, rendered on demand and cached like the others, and never warmed with them.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeUpload } from '#api/admin/uploads.ts';
import { diskStorage, type MediaStorage } from '#api/media/storage.ts';
import {
  getVariant,
  MASTER_MAX_SIDE,
  parseVariantPath,
  warmVariants,
  zoomVariantUrl,
} from '#api/media/variants.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
let dir: string;
let storage: MediaStorage;
let cacheDir: string;

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-zoom-'));
  storage = diskStorage(path.join(dir, 'media'));
  cacheDir = path.join(dir, 'media', 'variants');
});
afterAll(async () => {
  await t.dispose();
  await fs.rm(dir, { recursive: true, force: true });
});

/** A camera-like JPEG: a gradient with a fine pattern, so every pixel counts. */
async function photo(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#1f3a5f"/><stop offset="1" stop-color="#e9c46a"/></linearGradient>
    <pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="4" height="4" fill="#fff" fill-opacity="0.2"/></pattern></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><rect width="100%" height="100%" fill="url(#p)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

describe('the master of an upload', () => {
  it('is kept at 4 000 px, and the zoom gets it pixel for pixel, on demand', async () => {
    const media = await storeUpload(t.db, storage, await photo(3200, 4000), { fr: '', en: '' });
    expect([media.width, media.height]).toEqual([3200, 4000]);

    const zoom = zoomVariantUrl(media.sha256, media.width, media.height);
    expect(zoom).toMatchObject({ width: 3200, height: 4000 });
    const request = parseVariantPath(zoom.url);
    expect(request).toEqual({ sha256: media.sha256, width: 'full', format: 'webp' });

    // Warming (start-up, a publish) renders the srcset's widths only, never the full size.
    await warmVariants(t.db, storage, cacheDir, [media]);
    const cached = await fs.readdir(path.join(cacheDir, media.sha256.slice(0, 2), media.sha256));
    expect(cached.sort()).toEqual([
      '1200.avif',
      '1200.webp',
      '400.avif',
      '400.webp',
      '800.avif',
      '800.webp',
    ]);

    const full = await getVariant(t.db, storage, cacheDir, request!);
    expect(full?.contentType).toBe('image/webp');
    const meta = await sharp(full!.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([3200, 4000]);
    // Cached like the others: the second answer is the file written by the first.
    const file = path.join(cacheDir, media.sha256.slice(0, 2), media.sha256, 'full.webp');
    expect((await fs.readFile(file)).equals(full!.bytes)).toBe(true);
  });

  it('is downscaled to 4 000 px on its long side when the photo is larger, not refused', async () => {
    const media = await storeUpload(t.db, storage, await photo(6000, 4500), { fr: '', en: '' });
    expect([media.width, media.height]).toEqual([MASTER_MAX_SIDE, 3000]);
    const row = await t.db
      .selectFrom('media')
      .select(['storage_key', 'width', 'height'])
      .where('sha256', '=', media.sha256)
      .executeTakeFirstOrThrow();
    const stored = await sharp(await storage.get(row.storage_key)).metadata();
    expect([stored.width, stored.height, row.width, row.height]).toEqual([4000, 3000, 4000, 3000]);
    const full = await getVariant(t.db, storage, cacheDir, {
      sha256: media.sha256,
      width: 'full',
      format: 'webp',
    });
    const meta = await sharp(full!.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([4000, 3000]);
  });

  it('caps the full size of a master stored larger before uploads were capped', async () => {
    const { storeMaster } = await import('#api/media/index.ts');
    const legacy = await storeMaster(t.db, storage, await photo(5000, 2000), { fr: '', en: '' });
    expect(legacy.width).toBe(5000);
    expect(zoomVariantUrl(legacy.sha256, legacy.width, legacy.height)).toMatchObject({
      width: 4000,
      height: 1600,
    });
    const full = await getVariant(t.db, storage, cacheDir, {
      sha256: legacy.sha256,
      width: 'full',
      format: 'webp',
    });
    const meta = await sharp(full!.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([4000, 1600]);
  });
});
