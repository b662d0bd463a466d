// Brotli and gzip copies of every compressible built file, made once at build time so the server
// never compresses a static file per request. Copies are kept by content in a cache shared by the
// builds of one dist folder (GALERIE_COMPRESS_CACHE, set by api/build/index.ts), so each publish
// compresses only what it changed. Brotli's best quality (11) costs about 3 s per megabyte on this
// kind of machine: the scripts and styles, named by their content and the same build after build,
// get it once; the pages, which every publish and every first start writes anew, get quality 7 —
// 40 times faster for copies about 8 % larger (docs/decisions/052). Files are compressed a few at
// a time (zlib runs on libuv's thread pool).
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|xml|txt|ico|webmanifest|map)$/i;
const MIN_BYTES = 256;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Entries of the cache unused for this long are removed (a build touches those it uses). */
const CACHE_TTL_MS = 7 * 24 * 3600_000;

/** Brotli quality by kind: the content-named assets at the best, what a build writes anew fast. */
export const ASSET = /\.(css|js|mjs|svg|ico|map)$/i;
export function brotliQuality(file: string): number {
  return ASSET.test(file) ? zlib.constants.BROTLI_MAX_QUALITY : 7;
}

/** How many files are compressed at once (zlib's work runs on libuv's four threads). */
const AT_ONCE = 4;

async function compress(bytes: Buffer, quality: number): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gz };
}

/** `bytes` compressed, from the cache when a build compressed the same bytes before (at this
 * quality or better: an entry made at quality 11 serves a page too). */
async function compressCached(bytes: Buffer, quality: number, cache: string | undefined) {
  if (!cache) return compress(bytes, quality);
  const key = createHash('sha256').update(bytes).digest('hex');
  const entry = path.join(cache, key.slice(0, 2), key);
  try {
    const [br, gz] = await Promise.all([fs.readFile(`${entry}.br`), fs.readFile(`${entry}.gz`)]);
    const now = new Date();
    await Promise.all([fs.utimes(`${entry}.br`, now, now), fs.utimes(`${entry}.gz`, now, now)]);
    return { br, gz };
  } catch {
    const made = await compress(bytes, quality);
    await fs.mkdir(path.dirname(entry), { recursive: true });
    // Written whole then renamed: a build running at the same time never reads half an entry.
    for (const [ext, data] of [
      ['gz', made.gz],
      ['br', made.br],
    ] as const) {
      const tmp = `${entry}.${ext}.${process.pid}.tmp`;
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, `${entry}.${ext}`);
    }
    return made;
  }
}

/** The cache is walked for old entries at most this often (a publish should not pay for it). */
const PRUNE_EVERY_MS = 6 * 3600_000;

/** Removes entries unused for a week, unless a build did within PRUNE_EVERY_MS; true if it ran. */
export async function pruneCache(cache: string, now = Date.now()): Promise<boolean> {
  const stamp = path.join(cache, '.pruned');
  const last = await fs.stat(stamp).catch(() => null);
  if (last && now - last.mtimeMs < PRUNE_EVERY_MS) return false;
  await fs.mkdir(cache, { recursive: true });
  await fs.writeFile(stamp, '');
  const oldest = now - CACHE_TTL_MS;
  for await (const file of walk(cache)) {
    const stat = await fs.stat(file).catch(() => null);
    if (stat && stat.mtimeMs < oldest) await fs.rm(file, { force: true });
  }
  return true;
}

/**
 * Writes `file.br` and `file.gz` beside each compressible file worth compressing, a few at a time;
 * with `cache`, reuses the copies of bytes compressed before.
 */
export async function precompressDir(dir: string, cache?: string): Promise<number> {
  const files: string[] = [];
  for await (const file of walk(dir)) if (COMPRESSIBLE.test(file)) files.push(file);
  let count = 0;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const bytes = await fs.readFile(file);
      if (bytes.length < MIN_BYTES) continue;
      const { br, gz } = await compressCached(bytes, brotliQuality(file), cache);
      // A compressed copy that saves nothing is left out; the server then sends the original.
      if (br.length < bytes.length) await fs.writeFile(`${file}.br`, br);
      if (gz.length < bytes.length) await fs.writeFile(`${file}.gz`, gz);
      count++;
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  if (cache) await pruneCache(cache);
  return count;
}

/** Astro integration: precompress dist/client after every `astro build`. */
export function precompressIntegration() {
  return {
    name: 'galerie:precompress',
    hooks: {
      'astro:build:done': async ({ dir }: { dir: URL }) => {
        await precompressDir(
          fileURLToPath(dir),
          process.env['GALERIE_COMPRESS_CACHE'] || undefined,
        );
      },
    },
  };
}
