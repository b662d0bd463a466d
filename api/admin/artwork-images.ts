// A work's photos (issue 25, docs/decisions/041-artwork-views.md): the repository of
// `artwork_images`. The list is written whole (a reorder, a removal and a new caption are one
// save of the form), inside the work's own transaction, so the version guard covers it.
import type { Transaction } from 'kysely';
import {
  MAX_IMAGES,
  type AdminArtworkImage,
  type ArtworkImageInput,
} from '../../src/schemas/artworks.ts';
import type { Database } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

type Trx = Transaction<DB>;

/** The photos of each work asked for, in order. */
export async function readImages(
  db: Database | Trx,
  artworkIds: readonly number[],
): Promise<Map<number, AdminArtworkImage[]>> {
  const byWork = new Map<number, AdminArtworkImage[]>();
  if (artworkIds.length === 0) return byWork;
  const rows = await db
    .selectFrom('artwork_images as i')
    .innerJoin('media as m', 'm.id', 'i.media_id')
    .select(['i.artwork_id', 'i.caption_fr', 'i.caption_en', 'm.sha256', 'm.width', 'm.height'])
    .where('i.artwork_id', 'in', artworkIds)
    .orderBy('i.artwork_id')
    .orderBy('i.position')
    .execute();
  for (const r of rows) {
    const list = byWork.get(r.artwork_id) ?? [];
    list.push({
      sha256: r.sha256,
      width: r.width,
      height: r.height,
      caption: { fr: r.caption_fr, en: r.caption_en },
    });
    byWork.set(r.artwork_id, list);
  }
  return byWork;
}

/**
 * Replaces a work's photos with `images` (already checked by the schema: at most 8, no hash twice).
 * An image that was never uploaded is refused by name, on its field (`images.<n>.sha256`).
 */
export async function writeImages(
  trx: Trx,
  artworkId: number,
  images: readonly ArtworkImageInput[],
): Promise<void> {
  // The schema's bound, checked again: a service caller may not have parsed.
  if (images.length > MAX_IMAGES)
    throw new AppError('invalid_input', {
      message: `A work has at most ${MAX_IMAGES} photos.`,
      fields: { images: 'admin.artwork.error.tooManyImages' },
    });
  const hashes = images.map((i) => i.sha256);
  const found =
    hashes.length === 0
      ? []
      : await trx
          .selectFrom('media')
          .select(['id', 'sha256'])
          .where('sha256', 'in', hashes)
          .execute();
  const idOf = new Map(found.map((m) => [m.sha256, m.id]));
  const missing = images.findIndex((i) => !idOf.has(i.sha256));
  if (missing >= 0)
    throw new AppError('invalid_input', {
      message: `Unknown image ${images[missing]!.sha256}: upload it first (POST /api/admin/uploads).`,
      fields: { [`images.${missing}.sha256`]: 'admin.artwork.error.unknownImage' },
    });
  await trx.deleteFrom('artwork_images').where('artwork_id', '=', artworkId).execute();
  if (images.length > 0)
    await trx
      .insertInto('artwork_images')
      .values(
        images.map((image, position) => ({
          artwork_id: artworkId,
          position,
          media_id: idOf.get(image.sha256)!,
          caption_fr: image.caption.fr,
          caption_en: image.caption.en,
        })),
      )
      .execute();
}

/** The media a work's photos use (to remove the files nothing else uses once it is deleted). */
export async function mediaOfWork(trx: Trx, artworkId: number): Promise<string[]> {
  const rows = await trx
    .selectFrom('artwork_images')
    .select('media_id')
    .where('artwork_id', '=', artworkId)
    .execute();
  return rows.map((r) => r.media_id);
}
