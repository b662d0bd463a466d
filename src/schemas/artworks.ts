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
  isAvailable: z.boolean(),
  isSold: z.boolean(),
  /** A print's original (the explicit link, docs/decisions/016). */
  originalId: id.nullable(),
  /** issue 25, part 7: where an original is signed, whether it is framed (null: not said), and its
   * own shipping note (empty: the default of its size). Optional: left out, they stay as they are. */
  signature: localized(200).optional(),
  framed: z.boolean().nullable().optional(),
  shippingNote: localized(600, true).optional(),
  /** The uploaded image (api/media), by its content hash. */
  imageSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
};

export const artworkCreateSchema = z
  .strictObject({ type: z.enum(ARTWORK_TYPES, { error: 'admin.artwork.error.type' }), ...fields })
  .refine((w) => w.imageSha256 !== null, {
    error: 'admin.artwork.error.image',
    path: ['imageSha256'],
  });
export type ArtworkCreate = z.infer<typeof artworkCreateSchema>;

/** A partial change of a work: only the fields given change; `version` guards lost updates. */
export const artworkPatchSchema = z
  .strictObject({ version: version.optional(), ...partial(fields) })
  .refine((patch) => Object.keys(patch).some((k) => k !== 'version'), {
    error: 'admin.artwork.error.empty',
  });
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
});
export type ArtworkListQuery = z.infer<typeof artworkListQuerySchema>;

export const moveSchema = z.strictObject({ direction: z.enum(['up', 'down']) });
export const reorderSchema = z.strictObject({ ids: z.array(id).min(1).max(10_000) });
export const visibilitySchema = z.strictObject({ visible: z.boolean() });
export const versionSchema = z.strictObject({ version });

/** A work as the back office lists it. */
export interface AdminArtwork {
  id: number;
  slug: string;
  type: (typeof ARTWORK_TYPES)[number];
  title: { fr: string; en: string };
  /** Null in the list (the form loads the work whole, descriptions included). */
  description: { fr: string; en: string } | null;
  technique: { fr: string; en: string };
  category: (typeof CATEGORIES)[number];
  collection: string;
  year: number | null;
  dimensions: string;
  priceCents: number;
  stock: number;
  editionSize: number | null;
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
  image: { sha256: string; width: number; height: number } | null;
  version: number;
}

/** back office §2, §9: 'Stock faible' for a print with 2 left or fewer. */
export const LOW_STOCK = 2;
