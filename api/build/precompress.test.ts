import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { brotliQuality, precompressDir, pruneCache } from './precompress.ts';

describe('precompressing a build', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-precompress-'));
  });
  afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

  const page = `<!doctype html><title>x</title>${'<p>Une œuvre, une page.</p>'.repeat(40)}`;

  async function site(name: string): Promise<string> {
    const dir = path.join(tmp, name);
    await fs.mkdir(path.join(dir, 'gallery'), { recursive: true });
    await fs.writeFile(path.join(dir, 'gallery', 'index.html'), page);
    await fs.writeFile(path.join(dir, 'tiny.txt'), 'too small to be worth it');
    await fs.writeFile(path.join(dir, 'photo.webp'), Buffer.alloc(4096));
    return dir;
  }

  it('writes brotli and gzip copies of what is worth compressing, and nothing else', async () => {
    const dir = await site('a');
    expect(await precompressDir(dir)).toBe(1);
    const html = path.join(dir, 'gallery', 'index.html');
    expect(zlib.brotliDecompressSync(await fs.readFile(`${html}.br`)).toString()).toBe(page);
    expect(zlib.gunzipSync(await fs.readFile(`${html}.gz`)).toString()).toBe(page);
    const names = await fs.readdir(dir);
    expect(names.filter((n) => n.endsWith('.br') || n.endsWith('.gz'))).toEqual([]);
  });

  it('gives the content-named assets brotli 11 and the pages a build writes anew brotli 7', () => {
    for (const asset of ['_astro/client.D_bjVMFx.js', '_astro/page.css', 'favicon.svg', 'a.ico'])
      expect(brotliQuality(asset), asset).toBe(11);
    for (const page of ['gallery/index.html', 'sitemap-0.xml', 'robots.txt', 'site.webmanifest'])
      expect(brotliQuality(page), page).toBe(7);
  });

  it('compresses many files, each once, whatever order the workers take them in', async () => {
    const dir = path.join(tmp, 'many');
    await fs.mkdir(dir, { recursive: true });
    for (let i = 0; i < 23; i++) await fs.writeFile(path.join(dir, `p${i}.html`), `${page}${i}`);
    expect(await precompressDir(dir)).toBe(23);
    for (let i = 0; i < 23; i++)
      expect(
        zlib.brotliDecompressSync(await fs.readFile(path.join(dir, `p${i}.html.br`))).toString(),
      ).toBe(`${page}${i}`);
  });

  it('takes the copies of bytes an earlier build compressed from the cache', async () => {
    const cache = path.join(tmp, 'cache');
    await precompressDir(await site('first'), cache);
    const key = createHash('sha256').update(page).digest('hex');
    const entry = path.join(cache, key.slice(0, 2), key);
    // What the cache holds is what the next build serves (here, marked to be told apart).
    const marked = zlib.brotliCompressSync(Buffer.from(`${page}<!-- from the cache -->`));
    await fs.writeFile(`${entry}.br`, marked);
    const second = await site('second');
    await precompressDir(second, cache);
    expect(await fs.readFile(path.join(second, 'gallery', 'index.html.br'))).toEqual(marked);
  });

  it('removes entries unused for a week, walking the cache at most every six hours', async () => {
    const cache = path.join(tmp, 'cache');
    const old = path.join(cache, 'ab', 'old.br');
    await fs.mkdir(path.dirname(old), { recursive: true });
    await fs.writeFile(old, 'x');
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    await fs.utimes(old, weekAgo, weekAgo);
    // Walked a moment ago (the stamp is fresh): a publish does not walk it again.
    await fs.writeFile(path.join(cache, '.pruned'), '');
    expect(await pruneCache(cache)).toBe(false);
    expect(await fs.stat(old).then(() => true)).toBe(true);
    // Seven hours later it is walked, and the old entry goes.
    expect(await pruneCache(cache, Date.now() + 7 * 3600_000)).toBe(true);
    await expect(fs.stat(old)).rejects.toThrow();
  });
});
