// Media masters: content-addressed (sha256) files in MediaStorage, one `media` row each.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Database } from '../db/index.ts';
import type { MediaStorage } from './storage.ts';

export interface StoredMedia {
  id: string;
  sha256: string;
  width: number;
  height: number;
}

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' };

/** Stores an image master once per content: storing the same bytes again returns the same row. */
export async function storeMaster(
  db: Database,
  storage: MediaStorage,
  bytes: Buffer,
  alt: { fr: string; en: string },
): Promise<StoredMedia> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const meta = await sharp(bytes).metadata();
  const ext = meta.format ? EXTENSIONS[meta.format] : undefined;
  if (!ext || !meta.width || !meta.height) throw new Error('Unsupported image format');
  const storageKey = `masters/${sha256.slice(0, 2)}/${sha256}.${ext}`;
  if (!(await storage.exists(storageKey))) await storage.put(storageKey, bytes);
  await db
    .insertInto('media')
    .values({
      storage_key: storageKey,
      sha256,
      mime_type: `image/${meta.format}`,
      width: meta.width,
      height: meta.height,
      byte_size: bytes.length,
      alt_fr: alt.fr,
      alt_en: alt.en,
    })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
  const row = await db
    .selectFrom('media')
    .select(['id', 'sha256', 'width', 'height'])
    .where('sha256', '=', sha256)
    .executeTakeFirstOrThrow();
  return row;
}
