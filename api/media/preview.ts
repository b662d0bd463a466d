// A work's sharing image (issue 25): 1 200 × 630, the size link previews (Open Graph, WhatsApp,
// mail clients) draw without cropping, with the whole work contained on the gallery's paper
// colour (src/styles/theme.css), so a portrait is not cut to a landscape strip. JPEG, which every
// preview fetcher reads. Rendered on first request and cached on disk beside the other variants.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Database } from '../db/index.ts';
import type { MediaStorage } from './storage.ts';

export const PREVIEW = { width: 1200, height: 630, file: 'share.jpg' } as const;
/** The page colour around the work, and the margin it keeps on each side. */
const PAPER = '#faf8f4';
const MARGIN = 40;

const SHA256 = /^[0-9a-f]{64}$/;

export function previewUrl(sha256: string): string {
  return `/media/${sha256}/${PREVIEW.file}`;
}

const inFlight = new Map<string, Promise<Buffer>>();

/** The preview's JPEG bytes: from the disk cache, or rendered once from the master; null for an unknown image. */
export async function getPreview(
  db: Database,
  storage: MediaStorage,
  cacheDir: string,
  sha256: string,
): Promise<Buffer | null> {
  // The sha256 becomes part of a file path.
  if (!SHA256.test(sha256)) return null;
  const media = await db
    .selectFrom('media')
    .select('storage_key')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  if (!media) return null;
  const file = path.join(cacheDir, sha256.slice(0, 2), sha256, PREVIEW.file);
  const cached = await fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (cached) return cached;
  let pending = inFlight.get(file);
  if (!pending) {
    pending = render(await storage.get(media.storage_key), file).finally(() =>
      inFlight.delete(file),
    );
    inFlight.set(file, pending);
  }
  return pending;
}

/** The work contained in the frame minus its margins, centred on paper. */
export async function renderPreview(master: Buffer): Promise<Buffer> {
  const work = await sharp(master)
    .autoOrient()
    .resize({
      width: PREVIEW.width - 2 * MARGIN,
      height: PREVIEW.height - 2 * MARGIN,
      fit: 'inside',
      withoutEnlargement: false,
    })
    .toBuffer({ resolveWithObject: true });
  return sharp({
    create: { width: PREVIEW.width, height: PREVIEW.height, channels: 3, background: PAPER },
  })
    .composite([
      {
        input: work.data,
        left: Math.round((PREVIEW.width - work.info.width) / 2),
        top: Math.round((PREVIEW.height - work.info.height) / 2),
      },
    ])
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

async function render(master: Buffer, file: string): Promise<Buffer> {
  const bytes = await renderPreview(master);
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
  return bytes;
}
