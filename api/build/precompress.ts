// Brotli and gzip copies of every compressible built file, made once at build time so the server
// never compresses a static file per request.
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

/** Writes `file.br` and `file.gz` beside each compressible file worth compressing. */
export async function precompressDir(dir: string): Promise<number> {
  let count = 0;
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const bytes = await fs.readFile(file);
    if (bytes.length < MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
      gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    // A compressed copy that saves nothing is left out; the server then sends the original.
    if (br.length < bytes.length) await fs.writeFile(`${file}.br`, br);
    if (gz.length < bytes.length) await fs.writeFile(`${file}.gz`, gz);
    count++;
  }
  return count;
}

/** Astro integration: precompress dist/client after every `astro build`. */
export function precompressIntegration() {
  return {
    name: 'galerie:precompress',
    hooks: {
      'astro:build:done': async ({ dir }: { dir: URL }) => {
        await precompressDir(fileURLToPath(dir));
      },
    },
  };
}
