// Responsive variants of the stored masters (AVIF and WebP at a few widths): rendered with sharp on
// first request, cached on disk next to the masters, and never rendered twice at the same time.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type { Database } from '../db/index.ts';
import type { MediaStorage } from './storage.ts';

export const VARIANT_WIDTHS = [400, 800, 1200] as const;
/**
 * The zoom's image (issue 25, docs/decisions/041-artwork-views.md): the master at its own size, at
 * most MASTER_MAX_SIDE on its long side — rendered only when a visitor opens the zoom, cached like
 * the others, never in a srcset nor warmed at start-up.
 */
export const FULL = 'full';
/** The long side a stored master keeps at most (uploads are downscaled to it, api/admin/uploads). */
export const MASTER_MAX_SIDE = 4000;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number] | typeof FULL;
export const VARIANT_FORMATS = ['avif', 'webp'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

export interface VariantRequest {
  sha256: string;
  width: VariantWidth;
  format: VariantFormat;
}

export interface Variant {
  bytes: Buffer;
  contentType: string;
}

/**
 * Encoder settings, measured on the 13 seeded compositions (budget checked in
 * tests/integration/media-variants.test.ts): AVIF q60 keeps the thin brush marks that q50 smears
 * and weighs ~6 KB at 400 px (budget 15 KB). The efforts are the first start's (issue 28 §2:
 * every variant made ≤ 20 s after ready), measured with one libvips thread, 400/800/1200 px:
 * AVIF effort 1 takes ~90 ms a variant where effort 2 took ~215 ms, for 13 % more bytes and
 * 0.7 dB less PSNR (43.5 dB at 400 px); WebP effort 2 takes ~40 ms where the default 4 took
 * ~85 ms, for 7 % more bytes and the same PSNR (docs/decisions/058).
 */
const ENCODE: Record<VariantFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 60, effort: 1 }),
  webp: (image) => image.webp({ quality: 75, effort: 2 }),
};

const CONTENT_TYPES: Record<VariantFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
};

const SHA256 = /^[0-9a-f]{64}$/;
const FILE = /^(\d+|full)\.([a-z]+)$/;

export function variantUrl(sha256: string, width: VariantWidth, format: VariantFormat): string {
  return `/media/${sha256}/${width}.${format}`;
}

const isWidth = (value: number | string): value is VariantWidth =>
  value === FULL || (VARIANT_WIDTHS as readonly (number | string)[]).includes(value);

/** The size of the full variant of a master: its own, or scaled down to MASTER_MAX_SIDE (a master
 * stored before uploads were capped). */
export function fullSize(width: number, height: number): { width: number; height: number } {
  const k = Math.min(1, MASTER_MAX_SIDE / Math.max(width, height));
  return { width: Math.round(width * k), height: Math.round(height * k) };
}

/** The zoom's image: the full variant (WebP: every browser), with the size it is rendered at. */
export function zoomVariantUrl(
  sha256: string,
  masterWidth: number,
  masterHeight: number = masterWidth,
): { url: string; width: number; height: number } {
  return { url: variantUrl(sha256, FULL, 'webp'), ...fullSize(masterWidth, masterHeight) };
}
const isFormat = (value: string): value is VariantFormat =>
  (VARIANT_FORMATS as readonly string[]).includes(value);

/** `/media/<sha256>/<width>.<format>` → its parts; anything else (a query, `..`, `%2F`…) null. */
export function parseVariantPath(pathname: string): VariantRequest | null {
  const parts = pathname.split('/');
  if (parts.length !== 4 || parts[0] !== '' || parts[1] !== 'media') return null;
  const [, , sha256 = '', file = ''] = parts;
  if (!SHA256.test(sha256)) return null;
  const match = FILE.exec(file);
  if (!match) return null;
  const [, digits = '', format = ''] = match;
  // No leading zeros: one URL per variant, so caches never hold the same image twice.
  const width = digits === FULL ? FULL : Number(digits);
  if (String(width) !== digits || !isWidth(width) || !isFormat(format)) return null;
  return { sha256, width, format };
}

/**
 * The `srcset` list of a master: every variant width below the master's width, plus the first one
 * at or above it, described by the width it is really rendered at (variants never enlarge). A
 * 1000-px master thus offers 400w, 800w and its full 1000 px (served at the 1200 URL).
 */
export function srcset(sha256: string, format: VariantFormat, masterWidth: number): string {
  return srcsetEntries(masterWidth)
    .map((entry) => `${variantUrl(sha256, entry.width, format)} ${entry.rendered}w`)
    .join(', ');
}

/** The variant widths worth offering for a master, with the width each is rendered at. */
export function srcsetEntries(masterWidth: number): { width: VariantWidth; rendered: number }[] {
  const entries: { width: VariantWidth; rendered: number }[] = [];
  for (const width of VARIANT_WIDTHS) {
    entries.push({ width, rendered: Math.min(width, masterWidth) });
    if (width >= masterWidth) break;
  }
  return entries;
}

const inFlight = new Map<string, Promise<Variant>>();

/** The variant's bytes: from the disk cache, or rendered once from the master. Null for an unknown image. */
export async function getVariant(
  db: Database,
  storage: MediaStorage,
  cacheDir: string,
  request: VariantRequest,
): Promise<Variant | null> {
  const { sha256, width, format } = request;
  // Re-checked here too: the sha256 becomes part of a file path.
  if (!SHA256.test(sha256) || !isWidth(width) || !isFormat(format)) return null;
  const media = await db
    .selectFrom('media')
    .select('storage_key')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  if (!media) return null;

  const file = path.join(cacheDir, sha256.slice(0, 2), sha256, `${width}.${format}`);
  const contentType = CONTENT_TYPES[format];
  const cached = await readIfExists(file);
  if (cached) return { bytes: cached, contentType };

  let pending = inFlight.get(file);
  if (!pending) {
    pending = render(storage, media.storage_key, file, request).finally(() =>
      inFlight.delete(file),
    );
    inFlight.set(file, pending);
  }
  return pending;
}

async function render(
  storage: MediaStorage,
  storageKey: string,
  file: string,
  { width, format }: VariantRequest,
): Promise<Variant> {
  const master = await storage.get(storageKey);
  const image = sharp(master)
    .autoOrient()
    .resize(
      width === FULL
        ? {
            width: MASTER_MAX_SIDE,
            height: MASTER_MAX_SIDE,
            withoutEnlargement: true,
            fit: 'inside',
          }
        : { width, withoutEnlargement: true, fit: 'inside' },
    );
  const bytes = await ENCODE[format](image).toBuffer();
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Write then rename: another process serving the same cache never reads half a file.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(tmp, bytes);
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  return { bytes, contentType: CONTENT_TYPES[format] };
}

async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Whether `chrt --idle` can run the variant worker (Linux with util-linux); asked once. */
let idleClass: boolean | undefined;
const canRunIdle = () =>
  (idleClass ??=
    process.platform === 'linux' &&
    spawnSync('chrt', ['--idle', '0', 'true'], { stdio: 'ignore' }).status === 0);

/** A master whose variants are to be made: its hash, width and where storage keeps it. */
export interface WarmMaster {
  sha256: string;
  width: number;
  storageKey: string;
}

/** The variants of `masters` not cached yet (the card's widths, both formats). */
async function missingVariants(
  cacheDir: string,
  masters: readonly { sha256: string; width: number }[],
): Promise<{ sha256: string; width: VariantWidth; format: VariantFormat; file: string }[]> {
  const missing = [];
  for (const master of masters)
    for (const entry of srcsetEntries(master.width))
      for (const format of VARIANT_FORMATS) {
        const file = path.join(
          cacheDir,
          master.sha256.slice(0, 2),
          master.sha256,
          `${entry.width}.${format}`,
        );
        const cached = await fs.access(file).then(
          () => true,
          () => false,
        );
        if (!cached) missing.push({ sha256: master.sha256, width: entry.width, format, file });
      }
  return missing;
}

/**
 * Renders every variant of the given masters that is not cached yet, one at a time, so the first
 * visitors (and the first image a page shows) never wait for an AVIF encode. Returns how many
 * variants it had to render. Needs no database: the masters say where storage keeps them (the
 * server's niced worker, ./warm-worker.ts, runs it).
 */
export async function renderMissingVariants(
  storage: MediaStorage,
  cacheDir: string,
  masters: readonly WarmMaster[],
): Promise<number> {
  const keys = new Map(masters.map((m) => [m.sha256, m.storageKey]));
  // A master removed since it was listed (its work deleted while a publish's variants were being
  // made): nothing shows it any more, so its variants are not made, and the others still are.
  const gone = new Set<string>();
  let rendered = 0;
  for (const variant of await missingVariants(cacheDir, masters)) {
    if (!SHA256.test(variant.sha256) || gone.has(variant.sha256)) continue;
    let pending = inFlight.get(variant.file);
    if (!pending) {
      pending = render(storage, keys.get(variant.sha256)!, variant.file, variant).finally(() =>
        inFlight.delete(variant.file),
      );
      inFlight.set(variant.file, pending);
    }
    try {
      await pending;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      gone.add(variant.sha256);
      continue;
    }
    rendered++;
  }
  return rendered;
}

/** Where storage keeps each of these masters (those the media table knows). */
export async function warmMasters(
  db: Database,
  masters: readonly { sha256: string; width: number }[],
): Promise<WarmMaster[]> {
  if (masters.length === 0) return [];
  const rows = await db
    .selectFrom('media')
    .select(['sha256', 'storage_key'])
    .where(
      'sha256',
      'in',
      masters.map((m) => m.sha256),
    )
    .execute();
  const keys = new Map(rows.map((r) => [r.sha256, r.storage_key]));
  return masters.flatMap((m) => {
    const storageKey = keys.get(m.sha256);
    return storageKey ? [{ ...m, storageKey }] : [];
  });
}

/** `renderMissingVariants` for masters named by hash, in this process (tests, the golden shop). */
export async function warmVariants(
  db: Database,
  storage: MediaStorage,
  cacheDir: string,
  masters: readonly { sha256: string; width: number }[],
): Promise<number> {
  return renderMissingVariants(storage, cacheDir, await warmMasters(db, masters));
}

/**
 * The server's way (issue 28 §2): the variants made by a child process at the lowest CPU priority
 * (`chrt --idle 0 nice -n 19 node api/media/warm-worker.ts`; nice alone without chrt), so that
 * visitors are served first while a first
 * start or a publish makes them. The child writes each file whole then renames it, as the server
 * does; a visitor asking for one meanwhile gets it rendered on demand. Where `nice` cannot run,
 * in this process.
 */
export async function warmVariantsAside(
  db: Database,
  mediaDir: string,
  cacheDir: string,
  masters: readonly { sha256: string; width: number }[],
  storage: MediaStorage,
  /** Stops the worker (the server shutting down): what it finished stays, the rest is not made. */
  signal?: AbortSignal,
): Promise<number> {
  const work = await warmMasters(db, masters);
  if (signal?.aborted) return 0;
  if ((await missingVariants(cacheDir, work)).length === 0) return 0;
  if (process.platform === 'win32') return renderMissingVariants(storage, cacheDir, work);
  const worker = path.join(import.meta.dirname, 'warm-worker.ts');
  const niced = ['nice', '-n', '19', process.execPath, worker];
  // Linux's idle class where util-linux's chrt is there: a request arriving takes the CPU from
  // the worker at once, where a niced task may still finish its time slice first.
  const [command, ...args] = canRunIdle() ? ['chrt', '--idle', '0', ...niced] : niced;
  return new Promise<number>((resolve, reject) => {
    const child = spawn(command!, args, {
      stdio: ['pipe', 'pipe', 'inherit'],
      ...(signal && { signal, killSignal: 'SIGKILL' as const }),
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', (error) => {
      if (signal?.aborted) return resolve(0);
      // No `nice` here: the variants are made in this process instead.
      void error;
      renderMissingVariants(storage, cacheDir, work).then(resolve, reject);
    });
    child.on('close', (code) => {
      if (signal?.aborted) return resolve(0);
      if (code !== 0) return reject(new Error(`the variant worker exited with code ${code}`));
      const answer = JSON.parse(out || '{}') as { rendered?: number };
      resolve(answer.rendered ?? 0);
    });
    child.stdin.end(JSON.stringify({ mediaDir, cacheDir, masters: work }));
  });
}
