// The image variants a first start or a publish makes (issue 28 §2): by a child process at the
// lowest CPU priority (`nice -n 19`, api/media/warm-worker.ts), which opens no database and writes
// the same files the server would render on demand; the second time, nothing is left to make.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeUpload } from '#api/admin/uploads.ts';
import { diskStorage, type MediaStorage } from '#api/media/storage.ts';
import { getVariant, warmVariantsAside } from '#api/media/variants.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { until } from '../helpers/wait.ts';

let t: TestDatabase;
let dir: string;
let mediaDir: string;
let storage: MediaStorage;
let cacheDir: string;

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-warm-'));
  mediaDir = path.join(dir, 'media');
  storage = diskStorage(mediaDir);
  cacheDir = path.join(mediaDir, 'variants');
});
afterAll(async () => {
  await t.dispose();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('warming the variants aside', () => {
  it('makes every srcset variant in a niced child, the same bytes the server would render', async () => {
    // `nice` is what the server runs the worker with; without it the server warms in-process.
    expect(spawnSync('nice', ['-n', '19', 'true']).status).toBe(0);
    const jpeg = await sharp({
      create: { width: 1600, height: 2000, channels: 3, background: '#8a5a44' },
    })
      .jpeg()
      .toBuffer();
    const media = await storeUpload(t.db, storage, jpeg, { fr: '', en: '' });
    const unknown = { sha256: 'f'.repeat(64), width: 800 };

    expect(await warmVariantsAside(t.db, mediaDir, cacheDir, [media, unknown], storage)).toBe(6);
    const folder = path.join(cacheDir, media.sha256.slice(0, 2), media.sha256);
    expect((await fs.readdir(folder)).sort()).toEqual([
      '1200.avif',
      '1200.webp',
      '400.avif',
      '400.webp',
      '800.avif',
      '800.webp',
    ]);
    // What a visitor then gets is the file the worker wrote, decodable at its width.
    const served = await getVariant(t.db, storage, cacheDir, {
      sha256: media.sha256,
      width: 800,
      format: 'avif',
    });
    expect(served!.bytes.equals(await fs.readFile(path.join(folder, '800.avif')))).toBe(true);
    expect((await sharp(served!.bytes).metadata()).width).toBe(800);

    // Nothing left to make: no child, nothing rendered.
    expect(await warmVariantsAside(t.db, mediaDir, cacheDir, [media], storage)).toBe(0);
  });

  it('skips a master removed since it was listed (its work deleted meanwhile) and makes the others', async () => {
    const photo = (background: string) =>
      sharp({ create: { width: 900, height: 700, channels: 3, background } })
        .jpeg()
        .toBuffer();
    const kept = await storeUpload(t.db, storage, await photo('#5a7a3b'), { fr: '', en: '' });
    const removed = await storeUpload(t.db, storage, await photo('#7a3b5a'), { fr: '', en: '' });
    // Listed (its media row still there), but its file already gone, as after a deletion.
    const { storage_key } = await t.db
      .selectFrom('media')
      .select('storage_key')
      .where('sha256', '=', removed.sha256)
      .executeTakeFirstOrThrow();
    await storage.remove(storage_key);

    // Every width in both formats for the kept one; the worker does not fail for the other.
    expect(await warmVariantsAside(t.db, mediaDir, cacheDir, [removed, kept], storage)).toBe(6);
    const folder = (sha256: string) => path.join(cacheDir, sha256.slice(0, 2), sha256);
    expect((await fs.readdir(folder(kept.sha256))).sort()).toEqual([
      '1200.avif',
      '1200.webp',
      '400.avif',
      '400.webp',
      '800.avif',
      '800.webp',
    ]);
    await expect(fs.readdir(folder(removed.sha256))).rejects.toThrow(/ENOENT/);
  });

  it('stops its worker when the server shuts down, whatever it was making', async () => {
    const jpeg = await sharp({
      create: { width: 3000, height: 4000, channels: 3, background: '#3b5b7a' },
    })
      .jpeg()
      .toBuffer();
    const media = await storeUpload(t.db, storage, jpeg, { fr: '', en: '' });
    const workers = () =>
      (
        spawnSync('pgrep', ['-P', String(process.pid), '-f', 'warm-worker.ts'])
          .stdout.toString()
          .match(/\d+/g) ?? []
      ).length;
    const stop = new AbortController();
    const warming = warmVariantsAside(t.db, mediaDir, cacheDir, [media], storage, stop.signal);
    // Once the worker runs (a deadline only bounds a failure), the server stops.
    await until('the variant worker', () => workers() > 0);
    stop.abort();
    expect(await warming).toBe(0);
    await until('the worker gone', () => workers() === 0);
  });
});
