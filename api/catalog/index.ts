// The public catalogue: what visitors may see, as plain domain objects (no rows leak out).
import { z } from 'zod';
import type { Database } from '../db/index.ts';
import { readImages as imagesOf } from '../admin/artwork-images.ts';
import { imageAlt } from '../../src/schemas/artworks.ts';

const localized = z.object({ fr: z.string(), en: z.string() });

/** One photo of a work (issue 25): `alt` is its caption, or the title when the owner left it empty
 * (src/schemas/artworks.ts imageAlt); `caption` is what the owner wrote, shown under it. */
export const publicImageSchema = z.object({
  sha256: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  alt: localized,
  caption: localized,
});
export type PublicImage = z.infer<typeof publicImageSchema>;

/** The public shape of a work; also the schema of the build-time `artworks` collection. */
export const publicArtworkSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  type: z.enum(['original', 'print']),
  /** A print's original (artworks.original_id): the gallery shows them as one work. */
  originalId: z.number().int().nullable(),
  title: localized,
  description: localized,
  technique: localized,
  dimensions: z.string(),
  year: z.number().int().nullable(),
  priceCents: z.number().int().positive(),
  stock: z.number().int().min(0),
  category: z.enum(['peinture', 'sculpture', 'mixte']),
  collection: z.string(),
  isSold: z.boolean(),
  editionSize: z.number().int().nullable(),
  /** issue 25, part 7 (originals): where it is signed, framed or not (null: not said), and its own
   * shipping note — empty: the page shows the default of its size (setting `shipping_notes`). */
  signature: localized,
  framed: z.boolean().nullable(),
  shippingNote: localized,
  displayOrder: z.number().int(),
  /** issue 27: chosen by the owner for the home page ('Mettre en avant'): its hero or a featured
   * work; absent or null for the rest. */
  highlight: z.enum(['hero', 'featured']).nullable().optional(),
  /** Content hash of the image master: stable across databases, so it is safe in static pages.
   * The card image: the first of `images`. */
  image: publicImageSchema.nullable(),
  /** Every photo of the work, in the owner's order (at most 8). */
  images: z.array(publicImageSchema),
});

export type PublicArtwork = z.infer<typeof publicArtworkSchema>;
export type ArtworkType = PublicArtwork['type'];
export type Category = PublicArtwork['category'];
export type Localized = z.infer<typeof localized>;

/** spec storefront §7 "Read artworks": is_available, display_order ascending, newest first. */
export async function listPublicArtworks(db: Database): Promise<PublicArtwork[]> {
  const rows = await db
    .selectFrom('artworks as a')
    .select([
      'a.id',
      'a.slug',
      'a.artwork_type',
      'a.original_id',
      'a.title_fr',
      'a.title_en',
      'a.description_fr',
      'a.description_en',
      'a.technique_fr',
      'a.technique_en',
      'a.dimensions',
      'a.year',
      'a.price_cents',
      'a.stock',
      'a.category',
      'a.collection',
      'a.is_sold',
      'a.edition_size',
      'a.signature_fr',
      'a.signature_en',
      'a.framed',
      'a.shipping_note_fr',
      'a.shipping_note_en',
      'a.display_order',
      'a.highlight',
    ])
    .where('a.is_available', '=', true)
    .orderBy('a.display_order', 'asc')
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'asc')
    .execute();
  const photos = await imagesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const title = { fr: r.title_fr, en: r.title_en };
    const list = photos.get(r.id) ?? [];
    const images = list.map((p, index) => ({
      sha256: p.sha256,
      width: p.width,
      height: p.height,
      caption: p.caption,
      alt: {
        fr: imageAlt(p.caption.fr, title.fr, index, list.length),
        en: imageAlt(p.caption.en, title.en, index, list.length),
      },
    }));
    return {
      id: r.id,
      slug: r.slug,
      type: r.artwork_type === 'original' ? 'original' : 'print',
      originalId: r.original_id,
      title: { fr: r.title_fr, en: r.title_en },
      description: { fr: r.description_fr, en: r.description_en },
      technique: { fr: r.technique_fr, en: r.technique_en },
      dimensions: r.dimensions,
      year: r.year,
      priceCents: r.price_cents,
      stock: r.stock,
      category: r.category as Category,
      collection: r.collection,
      isSold: r.is_sold,
      editionSize: r.edition_size,
      signature: { fr: r.signature_fr, en: r.signature_en },
      framed: r.framed,
      shippingNote: { fr: r.shipping_note_fr, en: r.shipping_note_en },
      displayOrder: r.display_order,
      highlight: r.highlight === 'hero' || r.highlight === 'featured' ? r.highlight : null,
      image: images[0] ?? null,
      images,
    };
  });
}

export interface Availability {
  id: number;
  /** Visible on the site (the owner may hide a work after the last build). */
  available: boolean;
  isSold: boolean;
  stock: number;
}

/**
 * Live sold state and stock of every work, so prerendered pages can show a work sold since the
 * last build. Hidden works are listed as unavailable rather than left out.
 */
export async function listAvailability(db: Database): Promise<Availability[]> {
  const rows = await db
    .selectFrom('artworks')
    .select(['id', 'is_available', 'is_sold', 'stock'])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    available: r.is_available,
    isSold: r.is_sold,
    stock: r.stock,
  }));
}
