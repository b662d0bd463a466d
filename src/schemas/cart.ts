// The cart endpoints' inputs (docs/commerce-api.md), shared by the endpoints and the islands.
import { z } from 'zod';
import { INT4_MAX } from './fields.ts';
import { singleLine } from './text.ts';

export { INT4_MAX };
/** Ids are PostgreSQL `integer`s: anything above is no row of ours. */
export const rowId = z.number().int().positive().max(INT4_MAX);

export const addToCartSchema = z.strictObject({
  artworkId: rowId,
  quantity: z.number().int().min(1).max(99).default(1),
});

/** 0 or less removes the line. */
export const lineQuantitySchema = z.strictObject({
  quantity: z.number().int().min(-1000).max(99),
});

export const promoCodeSchema = z.strictObject({ code: z.string().max(64).check(singleLine()) });

export type AddToCartInput = z.infer<typeof addToCartSchema>;
