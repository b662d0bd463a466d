// Image upload for the back office (issue 11), instead of the old site's data URLs and remote
// URLs (a server that fetches any URL is an SSRF hole). The bytes decide the type (JPEG, PNG or
// WebP magic numbers), not the name or the browser's claim; sharp decodes them with a pixel limit
// (decompression bombs), orients them from EXIF, converts to sRGB and re-encodes: the stored master
// carries no metadata block at all (a phone photo's GPS position never reaches the public). A photo
// larger than MASTER_MAX_SIDE on its long side is downscaled to it, not refused (issue 25: the zoom
// shows the master at its own size, and 4 000 px is what a screen can use of a painting).
import sharp from 'sharp';
import type { Database } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { storeMaster, type StoredMedia } from '../media/index.ts';
import { MASTER_MAX_SIDE } from '../media/variants.ts';
import type { MediaStorage } from '../media/storage.ts';

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** 50 megapixels: a large camera's photo, far below what a bomb expands to. */
export const MAX_PIXELS = 50_000_000;
const MIN_SIDE = 400;

type Kind = 'jpeg' | 'png' | 'webp';

export function sniffImage(bytes: Buffer): Kind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

const refuse = (key: string) => new AppError('invalid_input', { fields: { image: key } });

/** Checks, cleans and stores an uploaded image; refuses anything else with nothing stored. */
export async function storeUpload(
  db: Database,
  storage: MediaStorage,
  bytes: Buffer,
  alt: { fr: string; en: string },
  /** The browser's claim (the file's type from its name): it must agree with the bytes. */
  claimed?: string | null,
): Promise<StoredMedia> {
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError('payload_too_large');
  const kind = sniffImage(bytes);
  if (!kind) throw refuse('admin.upload.error.type');
  const claim = claimed?.split(';')[0]?.trim().toLowerCase();
  if (claim?.startsWith('image/') && claim.replace('image/jpg', 'image/jpeg') !== `image/${kind}`)
    throw refuse('admin.upload.error.mismatch');
  let clean: Buffer;
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' });
    const meta = await image.metadata();
    const width = meta.autoOrient?.width ?? meta.width ?? 0;
    const height = meta.autoOrient?.height ?? meta.height ?? 0;
    // The short side as it will be stored (after a downscale to MASTER_MAX_SIDE).
    const k = Math.min(1, MASTER_MAX_SIDE / Math.max(width, height));
    if (Math.round(Math.min(width, height) * k) < MIN_SIDE) throw refuse('admin.upload.error.size');
    // rotate(): EXIF orientation applied; no keepMetadata/withMetadata: every block is dropped.
    const pipeline = image
      .rotate()
      .resize({
        width: MASTER_MAX_SIDE,
        height: MASTER_MAX_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb');
    clean =
      kind === 'png'
        ? await pipeline.png({ compressionLevel: 9 }).toBuffer()
        : kind === 'webp'
          ? await pipeline.webp({ quality: 92 }).toBuffer()
          : // libjpeg-turbo with optimised Huffman tables, not mozjpeg: a 12-megapixel photo is
            // stored in 0.3 s instead of 3 s (issue 27: upload → visible ≤ 20 s), for a master
            // about 8 % larger, which only the zoom ever loads whole.
            await pipeline.jpeg({ quality: 92, optimiseCoding: true }).toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse('admin.upload.error.unreadable');
  }
  return storeMaster(db, storage, clean, alt);
}
