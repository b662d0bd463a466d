// The demo catalogue's images, rendered once per install (issue 28 §2, docs/decisions/062).
// Rendering them with sharp is most of a first start's own work (≈ 5 CPU-s for the 37 images and
// the portrait): `npm install` renders them once (scripts/postinstall.mjs → api/cli/seed-renders.ts)
// into node_modules/.cache/galerie/seed-renders-<key>/, the key covering the catalogue, the
// renderers' sources and the installed sharp and libvips, so a changed drawing, catalogue or sharp
// never finds older images. A seed takes them from there, each file checked against the digest
// written beside it; without them (installed without scripts, a renderer changed since, a file
// damaged) it renders as before. The images are the same bytes either way: the renders are
// deterministic (api/media/compose.test.ts), and tests/integration/seed-renders.test.ts compares.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { renderComposition, renderDetail } from '../media/compose.ts';
import { renderInSitu } from '../media/in-situ.ts';
import { renderPortrait } from '../media/portrait.ts';
import type { SeedCatalogue } from './seed.ts';

/** Beside the installed packages: the images belong to the sharp they hold. */
const CACHE_DIR = path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'galerie');
const PREFIX = 'seed-renders-';
const MANIFEST = 'manifest.json';

export interface RenderedWork {
  composition: Buffer;
  /** The work's other views, in the catalogue's order. */
  views: Buffer[];
}

/** Every image of one work of the catalogue, rendered. */
export async function renderWork(work: SeedCatalogue['works'][number]): Promise<RenderedWork> {
  const composition = await renderComposition(work.image);
  const views: Buffer[] = [];
  for (const view of work.views ?? [])
    views.push(
      view.kind === 'detail'
        ? await renderDetail(work.image, view.crop)
        : await renderInSitu(composition, work.original.dimensions),
    );
  return { composition, views };
}

/** This module and the renderers it imports, with theirs, as far as they are our own files. */
export function rendererSources(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    // Imports of types only (the catalogue's shape) draw nothing.
    for (const [, specifier] of text.matchAll(
      /^import\s+(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms,
    ))
      visit(path.resolve(path.dirname(file), specifier!));
  };
  visit(import.meta.filename);
  return [...seen].sort();
}

/** What the images are made from: the catalogue, the renderers' sources, sharp and libvips. */
export function seedRendersKey(catalogue: SeedCatalogue): string {
  // sharp.versions: sharp itself and every library it draws with (librsvg, mozjpeg, libvips…).
  const hash = createHash('sha256').update(JSON.stringify(sharp.versions)).update('\0');
  hash.update(JSON.stringify(catalogue)).update('\0');
  const root = path.join(import.meta.dirname, '..', '..');
  for (const file of rendererSources())
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** The folder that holds (or would hold) the images of `catalogue`. */
export function seedRendersDir(catalogue: SeedCatalogue, cacheDir = CACHE_DIR): string {
  return path.join(cacheDir, `${PREFIX}${seedRendersKey(catalogue)}`);
}

interface Manifest {
  /** file name → sha256 of its bytes */
  files: Record<string, string>;
}

const workFile = (slug: string, index: number) => `${slug}.${index}.jpg`;
const PORTRAIT_FILE = 'portrait.jpg';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Renders every image of `catalogue` into its folder, unless it is there already; older folders
 * of the cache (another catalogue, renderer or sharp) are removed. Written into a temporary
 * folder renamed at the end: a folder with a manifest is complete.
 */
export async function ensureSeedRenders(
  catalogue: SeedCatalogue,
  cacheDir = CACHE_DIR,
): Promise<{ dir: string; made: boolean }> {
  const dir = seedRendersDir(catalogue, cacheDir);
  if (fs.existsSync(path.join(dir, MANIFEST))) return { dir, made: false };
  await fsp.mkdir(cacheDir, { recursive: true });
  const partial = await fsp.mkdtemp(path.join(cacheDir, `.${PREFIX}`));
  try {
    const files: Record<string, string> = {};
    const write = async (name: string, bytes: Buffer) => {
      files[name] = sha256(bytes);
      await fsp.writeFile(path.join(partial, name), bytes);
    };
    const works = await Promise.all(catalogue.works.map(renderWork));
    for (const [index, work] of catalogue.works.entries()) {
      const { composition, views } = works[index]!;
      await write(workFile(work.slug, 0), composition);
      for (const [n, view] of views.entries()) await write(workFile(work.slug, n + 1), view);
    }
    await write(PORTRAIT_FILE, await renderPortrait());
    await fsp.writeFile(path.join(partial, MANIFEST), JSON.stringify({ files } satisfies Manifest));
    for (const name of await fsp.readdir(cacheDir))
      if (name.startsWith(PREFIX)) await fsp.rm(path.join(cacheDir, name), { recursive: true });
    await fsp.rename(partial, dir);
  } finally {
    await fsp.rm(partial, { recursive: true, force: true });
  }
  return { dir, made: true };
}

/**
 * The images of `catalogue` from the cache, each checked against its digest: null when the
 * folder is missing, incomplete or damaged (the caller renders them instead).
 */
export async function readSeedRenders(
  catalogue: SeedCatalogue,
  cacheDir = CACHE_DIR,
): Promise<{ works: Map<string, RenderedWork>; portrait: Buffer } | null> {
  const dir = seedRendersDir(catalogue, cacheDir);
  try {
    const { files } = JSON.parse(await fsp.readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    const read = async (name: string) => {
      const bytes = await fsp.readFile(path.join(dir, name));
      if (files[name] === undefined || sha256(bytes) !== files[name])
        throw new Error(`${name} does not match its digest`);
      return bytes;
    };
    const works = new Map<string, RenderedWork>();
    for (const work of catalogue.works) {
      const composition = await read(workFile(work.slug, 0));
      const views: Buffer[] = [];
      for (let n = 1; n <= (work.views ?? []).length; n += 1)
        views.push(await read(workFile(work.slug, n)));
      works.set(work.slug, { composition, views });
    }
    return { works, portrait: await read(PORTRAIT_FILE) };
  } catch {
    return null;
  }
}
