// The work form's values as typed (issue 27: react-hook-form on the kernel's schemas): amounts in
// French ('9 400,00'), numbers and choices as text. `workFormSchema` turns them into the body the
// endpoints take and checks it with the kernel's own schema (artworkCreateSchema or
// artworkPatchSchema): one set of rules, one set of messages, on the same field names the server
// names when it refuses one.
import { z } from 'zod';
import {
  artworkCreateSchema,
  artworkPatchSchema,
  type AdminArtwork,
  type AdminArtworkImage,
} from '../../schemas/artworks.ts';
import { centsToField, fieldToCents } from '../ui/format.ts';

const pair = z.object({ fr: z.string(), en: z.string() });

const valuesSchema = z.object({
  version: z.number().optional(),
  type: z.enum(['original', 'print']),
  title: pair,
  technique: pair,
  description: pair,
  category: z.string(),
  collection: z.string(),
  year: z.string(),
  dimensions: z.string(),
  priceCents: z.string(),
  stock: z.string(),
  editionSize: z.string(),
  editionEa: z.string(),
  editionHc: z.string(),
  isAvailable: z.boolean(),
  isSold: z.boolean(),
  originalId: z.string(),
  signature: pair,
  framed: z.enum(['', 'yes', 'no']),
  shippingNote: pair,
  images: z.array(z.custom<AdminArtworkImage>()),
});
export type WorkFormValues = z.infer<typeof valuesSchema>;

/** back office §5: what a new print starts with (its technique in French, issue 25). */
const NEW_PRINT = {
  technique: 'Tirage giclée sur toile',
  dimensions: '100 x 80 cm',
  priceCents: 42_000,
  stock: 10,
};

const count = (text: string) => (text.trim() === '' ? NaN : Number(text.trim()));
const trimmed = (p: { fr: string; en: string }) => ({ fr: p.fr.trim(), en: p.en.trim() });

/** The values a form opens with: the work's, or a new print's (back office §5). */
export function formValuesOf(
  work: AdminArtwork | null,
  type: 'original' | 'print',
): WorkFormValues {
  const empty = { fr: '', en: '' };
  const fresh = work === null && type === 'print';
  return {
    ...(work ? { version: work.version } : {}),
    type: work?.type ?? type,
    title: work?.title ?? empty,
    technique: work?.technique ?? (fresh ? { fr: NEW_PRINT.technique, en: '' } : empty),
    description: work?.description ?? empty,
    category: work?.category ?? 'peinture',
    collection: work?.collection ?? 'moderna',
    year: work ? String(work.year ?? '') : String(new Date().getFullYear()),
    dimensions: work?.dimensions ?? (fresh ? NEW_PRINT.dimensions : ''),
    priceCents: work
      ? centsToField(work.priceCents)
      : fresh
        ? centsToField(NEW_PRINT.priceCents)
        : '',
    stock: String(work?.stock ?? (fresh ? NEW_PRINT.stock : 0)),
    editionSize: String(work?.editionSize ?? ''),
    editionEa: String(work?.editionEa ?? 0),
    editionHc: String(work?.editionHc ?? 0),
    isAvailable: work?.isAvailable ?? true,
    isSold: work?.isSold ?? false,
    originalId: String(work?.originalId ?? ''),
    signature: work?.signature ?? empty,
    framed: work?.framed === true ? 'yes' : work?.framed === false ? 'no' : '',
    shippingNote: work?.shippingNote ?? empty,
    images: work?.images ?? [],
  };
}

/** The body the endpoints take, from the values as typed. */
function toBody(v: WorkFormValues, added: boolean) {
  const print = v.type === 'print';
  return {
    ...(added ? { type: v.type } : { version: v.version }),
    title: trimmed(v.title),
    technique: trimmed(v.technique),
    description: trimmed(v.description),
    category: v.category,
    collection: v.collection.trim(),
    year: v.year.trim() === '' ? null : count(v.year),
    dimensions: v.dimensions.trim(),
    priceCents: fieldToCents(v.priceCents),
    stock: print ? count(v.stock) : 1,
    editionSize: print && v.editionSize.trim() !== '' ? count(v.editionSize) : null,
    // issue 26: artist's proofs and hors-commerce copies, counted apart (empty: none).
    ...(print
      ? {
          editionEa: v.editionEa.trim() === '' ? 0 : count(v.editionEa),
          editionHc: v.editionHc.trim() === '' ? 0 : count(v.editionHc),
        }
      : {}),
    isAvailable: v.isAvailable,
    isSold: !print && v.isSold,
    originalId: print && v.originalId !== '' ? Number(v.originalId) : null,
    ...(print
      ? {}
      : {
          signature: trimmed(v.signature),
          framed: v.framed === 'yes' ? true : v.framed === 'no' ? false : null,
          shippingNote: trimmed(v.shippingNote),
        }),
    images: v.images.map(({ sha256, caption }) => ({ sha256, caption })),
  };
}

// The body is only what the kernel's schema then checks: typed as its input, proved by the pipe.
export const createFormSchema = valuesSchema
  .transform((v) => toBody(v, true) as z.input<typeof artworkCreateSchema>)
  .pipe(artworkCreateSchema);
export const patchFormSchema = valuesSchema
  .transform((v) => toBody(v, false) as z.input<typeof artworkPatchSchema>)
  .pipe(artworkPatchSchema);
