// The back office's changes to works. Each commits, then asks for a publish: the prerendered
// gallery, index and JSON-LD catch up by themselves (api/build/publisher.ts), while sold state and
// stock are live already (/api/availability).
import type { ArtworkPatch } from '../../src/schemas/artworks.ts';
import { requestPublish } from '../build/publish.ts';
import type { Database } from '../db/index.ts';
import { AppError } from '../http/errors.ts';

export async function updateArtwork(db: Database, id: number, patch: ArtworkPatch): Promise<void> {
  const result = await db
    .updateTable('artworks')
    .set({
      ...(patch.title ? { title_fr: patch.title.fr, title_en: patch.title.en } : {}),
      ...(patch.description
        ? { description_fr: patch.description.fr, description_en: patch.description.en }
        : {}),
      ...(patch.technique
        ? { technique_fr: patch.technique.fr, technique_en: patch.technique.en }
        : {}),
      ...(patch.dimensions !== undefined ? { dimensions: patch.dimensions } : {}),
      ...(patch.year !== undefined ? { year: patch.year } : {}),
      ...(patch.priceCents !== undefined ? { price_cents: patch.priceCents } : {}),
      ...(patch.stock !== undefined ? { stock: patch.stock } : {}),
      ...(patch.isAvailable !== undefined ? { is_available: patch.isAvailable } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0)
    throw new AppError('not_found', { message: 'No such artwork.' });
  requestPublish(`artwork ${id} changed`);
}
