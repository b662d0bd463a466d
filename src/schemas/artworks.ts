// The back office's artwork inputs, shared by the endpoints and the admin forms. Money in cents,
// ids bounded to their column type.
import { z } from 'zod';
import { INT4_MAX } from './cart.ts';

const text = (max: number) => z.string().trim().max(max);
const title = z.object({
  fr: text(200).min(1, { error: 'admin.artwork.error.titleRequired' }),
  en: text(200).min(1, { error: 'admin.artwork.error.titleRequired' }),
});
const localized = (max: number) => z.object({ fr: text(max), en: text(max) });

/** A partial change of a work: only the fields given change. */
export const artworkPatchSchema = z
  .strictObject({
    title: title.optional(),
    description: localized(5000).optional(),
    technique: localized(200).optional(),
    dimensions: text(100).min(1).optional(),
    year: z.number().int().min(1900).max(2200).nullable().optional(),
    priceCents: z.number().int().positive().max(INT4_MAX).optional(),
    stock: z.number().int().min(0).max(INT4_MAX).optional(),
    isAvailable: z.boolean().optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { error: 'admin.artwork.error.empty' });

export type ArtworkPatch = z.infer<typeof artworkPatchSchema>;
