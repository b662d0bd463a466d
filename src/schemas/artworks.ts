// The back office's artwork inputs and views (back office §2 "Gestion des œuvres", §5), shared by
// the endpoints, the services and the admin screens. Money in cents, ids bounded to their column.
import { z } from 'zod';
import { INT4_MAX } from './fields.ts';
import { multiLine, singleLine } from './text.ts';

export const CATEGORIES = ['peinture', 'sculpture', 'mixte'] as const;
export const ARTWORK_TYPES = ['original', 'print'] as const;

const CHARACTERS = 'admin.artwork.error.characters';
const text = (max: number, textarea = false) =>
  z
    .string()
    .trim()
    .max(max, { error: 'admin.artwork.error.tooLong' })
    .check(textarea ? multiLine(CHARACTERS) : singleLine(CHARACTERS));
const required = (max: number, error: string) => text(max).min(1, { error });
const localized = (max: number, textarea = false) =>
  z.object({ fr: text(max, textarea), en: text(max, textarea) });
const id = z.number().int().positive().max(INT4_MAX);
/** artworks.version is an `integer` too. */
const version = z.number().int().positive().max(INT4_MAX);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, { error: 'admin.artwork.error.image' });

/** issue 25: a work shows at most 8 photos — the card image first, then detail, edge, back… */
export const MAX_IMAGES = 8;
export const MAX_CAPTION = 300;

/** One photo of a work: an uploaded image (api/media) by its hash, with its alt text per language;
 * an empty caption falls back to the work's title (see `imageAlt`). */
export const artworkImageSchema = z.strictObject({
  sha256,
  caption: z.strictObject({ fr: text(MAX_CAPTION), en: text(MAX_CAPTION) }),
});
export type ArtworkImageInput = z.infer<typeof artworkImageSchema>;

const images = z
  .array(artworkImageSchema)
  .max(MAX_IMAGES, { error: 'admin.artwork.error.tooManyImages' })
  .refine((list) => new Set(list.map((i) => i.sha256)).size === list.length, {
    error: 'admin.artwork.error.duplicateImage',
  });

/** A work as the form edits it; `version` is the one the form was opened on. */
const fields = {
  title: z.object({
    fr: required(200, 'admin.artwork.error.titleRequired'),
    en: required(200, 'admin.artwork.error.titleRequired'),
  }),
  /** Textareas: line breaks are the owner's. */
  description: localized(5000, true),
  technique: localized(200),
  category: z.enum(CATEGORIES, { error: 'admin.artwork.error.category' }),
  collection: text(100),
  year: z.number().int().min(1900).max(2200).nullable(),
  dimensions: required(100, 'admin.artwork.error.dimensions'),
  priceCents: z
    .number({ error: 'admin.artwork.error.price' })
    .int()
    .positive({ error: 'admin.artwork.error.price' })
    .max(INT4_MAX),
  stock: z.number({ error: 'admin.artwork.error.stock' }).int().min(0).max(INT4_MAX),
  editionSize: z.number().int().positive().max(INT4_MAX).nullable(),
  /** issue 26: a print's artist's proofs (EA) and hors-commerce copies (HC), counted apart from
   * its numbered edition (docs/decisions/045). Optional: left out, they stay as they are. */
  editionEa: z.number({ error: 'admin.artwork.error.proofs' }).int().min(0).max(1000).optional(),
  editionHc: z.number({ error: 'admin.artwork.error.proofs' }).int().min(0).max(1000).optional(),
  isAvailable: z.boolean(),
  isSold: z.boolean(),
  /** A print's original (the explicit link, docs/decisions/016). */
  originalId: id.nullable(),
  /** issue 25, part 7: where an original is signed, whether it is framed (null: not said), and its
   * own shipping note (empty: the default of its size). Optional: left out, they stay as they are. */
  signature: localized(200).optional(),
  framed: z.boolean().nullable().optional(),
  shippingNote: localized(600, true).optional(),
  /** The card image alone (api/media), by its content hash: replaces the first photo, caption
   * emptied. Kept for the callers that know one image; `images` is the whole list. */
  imageSha256: sha256.nullable(),
  /** Every photo, in order (the first is the card image); replaces the stored list. */
  images,
};

export const artworkCreateSchema = z
  .strictObject({
    type: z.enum(ARTWORK_TYPES, { error: 'admin.artwork.error.type' }),
    ...fields,
    imageSha256: fields.imageSha256.optional(),
    images: images.optional(),
  })
  .refine((w) => (w.imageSha256 ?? null) !== null || (w.images?.length ?? 0) > 0, {
    error: 'admin.artwork.error.image',
    path: ['images'],
  })
  .refine((w) => !w.images || !w.imageSha256 || w.imageSha256 === w.images[0]?.sha256, {
    error: 'admin.artwork.error.imageTwice',
    path: ['imageSha256'],
  });
export type ArtworkCreate = z.infer<typeof artworkCreateSchema>;

/** A partial change of a work: only the fields given change; `version` guards lost updates. */
export const artworkPatchSchema = z
  .strictObject({ version: version.optional(), ...partial(fields) })
  .refine((patch) => Object.keys(patch).some((k) => k !== 'version'), {
    error: 'admin.artwork.error.empty',
  })
  .refine((patch) => patch.images === undefined || patch.images.length > 0, {
    error: 'admin.artwork.error.image',
    path: ['images'],
  })
  .refine(
    (patch) =>
      patch.images === undefined ||
      !patch.imageSha256 ||
      patch.imageSha256 === patch.images[0]?.sha256,
    { error: 'admin.artwork.error.imageTwice', path: ['imageSha256'] },
  );
export type ArtworkPatch = z.infer<typeof artworkPatchSchema>;

function partial<T extends Record<string, z.ZodType>>(shape: T) {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
}

export const artworkListQuerySchema = z.object({
  q: z.string().trim().max(200).check(singleLine()).catch(''),
  category: z.enum(CATEGORIES).optional().catch(undefined),
  type: z.enum(ARTWORK_TYPES).optional().catch(undefined),
  /** issue 27: 'Archivées' — the works archived (deleted while orders name them), to restore. */
  archived: z
    .union([z.boolean(), z.enum(['1', 'true']).transform(() => true)])
    .optional()
    .catch(undefined),
});
export type ArtworkListQuery = z.infer<typeof artworkListQuerySchema>;

export const moveSchema = z.strictObject({ direction: z.enum(['up', 'down']) });
export const reorderSchema = z.strictObject({ ids: z.array(id).min(1).max(10_000) });
export const visibilitySchema = z.strictObject({ visible: z.boolean() });
export const versionSchema = z.strictObject({ version });

/** issue 27: the home page's hero (one work) or one of its featured works. */
export const HIGHLIGHTS = ['hero', 'featured'] as const;
export type Highlight = (typeof HIGHLIGHTS)[number];
/** The home page shows three featured works under its hero. */
export const MAX_FEATURED = 3;
export const highlightSchema = z.strictObject({ highlight: z.enum(HIGHLIGHTS).nullable() });

/** issue 27: one action on several selected works; `to` says where 'move' puts them. */
export const BULK_ACTIONS = ['hide', 'publish', 'move', 'delete'] as const;
export const artworkBulkSchema = z
  .strictObject({
    action: z.enum(BULK_ACTIONS),
    ids: z.array(id).min(1).max(1000),
    to: z.enum(['top', 'bottom']).optional(),
  })
  .refine((b) => (b.action === 'move') === (b.to !== undefined), { path: ['to'] });
export type ArtworkBulk = z.infer<typeof artworkBulkSchema>;

/** A work as the back office lists it. */
export interface AdminArtwork {
  id: number;
  slug: string;
  type: (typeof ARTWORK_TYPES)[number];
  title: { fr: string; en: string };
  description: { fr: string; en: string };
  technique: { fr: string; en: string };
  category: (typeof CATEGORIES)[number];
  collection: string;
  year: number | null;
  dimensions: string;
  priceCents: number;
  stock: number;
  editionSize: number | null;
  /** Artist's proofs (EA) and hors-commerce copies (HC) of a print (0 for an original). */
  editionEa: number;
  editionHc: number;
  isAvailable: boolean;
  isSold: boolean;
  originalId: number | null;
  /** issue 25, part 7 (originals): see the input fields above. */
  signature: { fr: string; en: string };
  framed: boolean | null;
  shippingNote: { fr: string; en: string };
  displayOrder: number;
  /** 1-based place in the gallery's order (back office §2: display_order + 1 of the old site). */
  position: number;
  /** issue 27: chosen for the home page ('Mettre en avant'), or null. */
  highlight: Highlight | null;
  /** ISO date it was archived, for the 'Archivées' filter; null in the gallery. */
  archivedAt: string | null;
  /** The card image: the first of `images`. */
  image: { sha256: string; width: number; height: number } | null;
  /** Every photo in order. */
  images: AdminArtworkImage[];
  version: number;
}

/**
 * A work as the back office's list carries it (GET /api/admin/artworks): what a row, its menu,
 * the filters and the print form's choice of original show — not the texts for the collector nor
 * the photos, which the form reads with the work whole. With 1 000 works the answer is a third
 * lighter (issue 27: the list's p95).
 */
export type AdminArtworkRow = Pick<
  AdminArtwork,
  | 'id'
  | 'type'
  | 'title'
  | 'technique'
  | 'category'
  | 'year'
  | 'dimensions'
  | 'priceCents'
  | 'stock'
  | 'editionSize'
  | 'isAvailable'
  | 'isSold'
  | 'originalId'
  | 'position'
  | 'highlight'
  | 'archivedAt'
  | 'image'
  | 'version'
>;

export interface AdminArtworkImage {
  sha256: string;
  width: number;
  height: number;
  caption: { fr: string; en: string };
}

/** What a photo says to a screen reader: its caption, else the work's title (the first photo),
 * else the title and which photo it is ("Seuil (2/3)"), so no photo is ever silent or repeated. */
export function imageAlt(caption: string, title: string, index: number, count: number): string {
  if (caption.trim()) return caption.trim();
  return index === 0 ? title : `${title} (${index + 1}/${count})`;
}

export { LOW_STOCK } from '../domain/stock-warning.ts';
