// The one sellability rule (docs/decisions/016): can this work be sold now, and how many? Cart,
// checkout and the coming back office ask here instead of re-reading is_available / is_sold /
// stock each in their own way.
import { AppError } from '../http/errors.ts';

/** The columns the rule reads, as stored. */
export interface SaleFacts {
  artwork_type: string;
  is_available: boolean;
  is_sold: boolean;
  stock: number;
}

export type Sellability =
  { sellable: true; max: number } | { sellable: false; reason: 'withdrawn' | 'sold' | 'sold_out' };

/**
 * A hidden work is not for sale; an original is one piece, sold or not; a print sells up to the
 * prints left (stock already excludes those held by unpaid checkouts).
 */
export function sellability(work: SaleFacts): Sellability {
  if (!work.is_available) return { sellable: false, reason: 'withdrawn' };
  if (work.artwork_type === 'original')
    return work.is_sold ? { sellable: false, reason: 'sold' } : { sellable: true, max: 1 };
  return work.stock > 0
    ? { sellable: true, max: work.stock }
    : { sellable: false, reason: 'sold_out' };
}

/**
 * Throws the buyer's error when `quantity` of the work cannot be sold now: `unavailable` for a
 * withdrawn or sold work, `out_of_stock` (with the prints left) when too few prints remain,
 * `original_quantity` for more than one original.
 */
export function assertSellable(
  work: SaleFacts,
  quantity: number,
  title: { title_fr: string; title_en: string },
): void {
  const rule = sellability(work);
  if (!rule.sellable) {
    if (rule.reason === 'sold_out')
      throw new AppError('out_of_stock', { params: { ...title, stock: 0 } });
    throw new AppError('unavailable', { params: title });
  }
  if (quantity <= rule.max) return;
  if (work.artwork_type === 'original') throw new AppError('original_quantity');
  throw new AppError('out_of_stock', { params: { ...title, stock: rule.max } });
}
