// What a refund of some of an order's lines gives back (issue 27 item 3), computed on the server
// from the order's own lines — never from what the browser sends. Pure, unit-tested.
//   - Some lines: their amounts less their share of the order's discount (the promo code applied
//     to the whole subtotal, so each euro of a line carries the same part of it, rounded down so a
//     refund never exceeds what was paid). Shipping stays: the parcel went.
//   - The rest (the whole refund after some lines were refunded): what was paid and not yet given
//     back — the remaining lines, the rest of the discount, the shipping.
import type { CreditNotePart } from '../invoices/index.ts';

export interface RefundableLine {
  /** The order item's id; the lines are in the invoice's order (by id). */
  id: number;
  lineCents: number;
  /** Already refunded by an earlier refund of some lines. */
  refunded: boolean;
}

export interface RefundableOrder {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  /** Given back so far. */
  refundedCents: number;
  lines: readonly RefundableLine[];
}

export type LinesRefusal = 'none' | 'unknown' | 'already' | 'all';

/** Why these lines cannot be refunded alone, or null. 'all': every line left — refund the order. */
export function linesRefusal(
  order: RefundableOrder,
  itemIds: readonly number[],
): LinesRefusal | null {
  if (itemIds.length === 0) return 'none';
  const byId = new Map(order.lines.map((l) => [l.id, l]));
  if (itemIds.some((id) => !byId.has(id))) return 'unknown';
  if (itemIds.some((id) => byId.get(id)!.refunded)) return 'already';
  const left = order.lines.filter((l) => !l.refunded);
  if (left.every((l) => itemIds.includes(l.id))) return 'all';
  return null;
}

/** The discount carried by `cents` of the subtotal, rounded down. */
function discountShare(order: RefundableOrder, cents: number): number {
  if (order.subtotalCents <= 0 || order.discountCents <= 0) return 0;
  return Math.floor((cents * order.discountCents) / order.subtotalCents);
}

/** The credit note part (and so the amount) of refunding these lines. */
export function linesPart(order: RefundableOrder, itemIds: readonly number[]): CreditNotePart {
  const lineIndexes: number[] = [];
  let cents = 0;
  order.lines.forEach((line, index) => {
    if (!itemIds.includes(line.id)) return;
    lineIndexes.push(index);
    cents += line.lineCents;
  });
  const discountCents = discountShare(order, cents);
  const left = order.totalCents - order.refundedCents;
  return {
    lineIndexes,
    discountCents,
    shippingCents: 0,
    totalCents: Math.max(0, Math.min(cents - discountCents, left)),
  };
}

/** The credit note part of the refund of everything not yet given back. */
export function remainderPart(order: RefundableOrder): CreditNotePart {
  const lineIndexes: number[] = [];
  let refundedLineCents = 0;
  order.lines.forEach((line, index) => {
    if (line.refunded) refundedLineCents += line.lineCents;
    else lineIndexes.push(index);
  });
  // The discount the earlier refunds kept back is what they gave less than their lines' amounts.
  const discountGiven = Math.max(0, refundedLineCents - order.refundedCents);
  return {
    lineIndexes,
    discountCents: Math.max(0, order.discountCents - discountGiven),
    shippingCents: order.shippingCents,
    totalCents: order.totalCents - order.refundedCents,
  };
}
