// The demo's images rendered at install (docs/decisions/062): the cache gives back the very bytes
// the renderers make, is made once per catalogue, renderer and sharp, and a damaged or missing
// file sends the seed back to rendering.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderPortrait } from '../media/portrait.ts';
import { readSeedCatalogue, type SeedCatalogue } from './seed.ts';
import {
  ensureSeedRenders,
  readSeedRenders,
  rendererSources,
  renderWork,
  seedRendersDir,
} from './seed-renders.ts';

let cache: string;
let catalogue: SeedCatalogue;

beforeEach(async () => {
  cache = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-seed-renders-'));
  // Two works of the demo: one with a detail and an in-situ view, one with none.
  const demo = await readSeedCatalogue();
  catalogue = {
    works: demo.works.filter((w) => ['lumiere-du-tage', 'sel-et-cendre'].includes(w.slug)),
  };
  expect(catalogue.works.map((w) => w.views?.length ?? 0)).toEqual([2, 0]);
});
afterEach(() => fs.rmSync(cache, { recursive: true, force: true }));

describe('the demo images rendered at install', () => {
  it('are the bytes the renderers make, and are made once', async () => {
    expect(await readSeedRenders(catalogue, cache)).toBeNull();
    expect((await ensureSeedRenders(catalogue, cache)).made).toBe(true);
    expect(await ensureSeedRenders(catalogue, cache)).toEqual({
      dir: seedRendersDir(catalogue, cache),
      made: false,
    });
    const read = (await readSeedRenders(catalogue, cache))!;
    expect([...read.works.keys()]).toEqual(['lumiere-du-tage', 'sel-et-cendre']);
    for (const work of catalogue.works) {
      const fresh = await renderWork(work);
      const cached = read.works.get(work.slug)!;
      expect(cached.composition.equals(fresh.composition)).toBe(true);
      expect(cached.views).toHaveLength(fresh.views.length);
      fresh.views.forEach((view, n) => expect(cached.views[n]!.equals(view)).toBe(true));
    }
    expect(read.portrait.equals(await renderPortrait())).toBe(true);
    // Nothing half-written is left beside it.
    expect(fs.readdirSync(cache)).toEqual([path.basename(seedRendersDir(catalogue, cache))]);
  });

  it('another catalogue has another folder, and replaces the older one', async () => {
    catalogue = { works: catalogue.works.slice(1) };
    await ensureSeedRenders(catalogue, cache);
    const older = seedRendersDir(catalogue, cache);
    const [first] = catalogue.works;
    const changed: SeedCatalogue = {
      works: [{ ...first!, image: { ...first!.image, seed: 'autre-graine' } }],
    };
    expect(seedRendersDir(changed, cache)).not.toBe(older);
    // The older folder does not answer for the changed catalogue.
    expect(await readSeedRenders(changed, cache)).toBeNull();
    await ensureSeedRenders(changed, cache);
    expect(fs.existsSync(older)).toBe(false);
    const read = (await readSeedRenders(changed, cache))!;
    expect(
      read.works
        .get(first!.slug)!
        .composition.equals((await renderWork(changed.works[0]!)).composition),
    ).toBe(true);
  });

  it('a damaged or missing file is not used', async () => {
    catalogue = { works: catalogue.works.slice(1) };
    const { dir } = await ensureSeedRenders(catalogue, cache);
    expect(await readSeedRenders(catalogue, cache)).not.toBeNull();
    const file = path.join(dir, 'sel-et-cendre.0.jpg');
    const bytes = fs.readFileSync(file);
    const middle = bytes.length >> 1;
    bytes[middle] = bytes[middle]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    expect(await readSeedRenders(catalogue, cache)).toBeNull();
    fs.rmSync(file);
    expect(await readSeedRenders(catalogue, cache)).toBeNull();
    fs.rmSync(path.join(dir, 'manifest.json'));
    expect(await readSeedRenders(catalogue, cache)).toBeNull();
  });

  it('the key covers every renderer the images are drawn with, not the seed that stores them', () => {
    const root = path.join(import.meta.dirname, '..', '..');
    expect(rendererSources().map((file) => path.relative(root, file))).toEqual([
      'api/catalog/seed-renders.ts',
      'api/media/compose.ts',
      'api/media/in-situ.ts',
      'api/media/portrait.ts',
      'src/domain/dimensions.ts',
    ]);
  });
});
