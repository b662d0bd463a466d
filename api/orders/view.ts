// What a buyer sees of an order (success page, account page, mails): its number, date, the works
// bought with their image, and the amounts — never the payment provider's internal ids.
import type { Executor } from '../db/index.ts';
import { editionLabelsOfItems } from '../editions/index.ts';
export type { BuyerOrder, BuyerOrderLine } from '../../src/schemas/views.ts';
import type { BuyerOrder, BuyerOrderLine } from '../../src/schemas/views.ts';

/** The lines of several orders in one query, by order id, in the order they were bought. */
export async function orderLines(
  db: Executor,
  orderIds: readonly string[],
): Promise<Map<string, BuyerOrderLine[]>> {
  const byOrder = new Map<string, BuyerOrderLine[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .selectFrom('order_items as i')
    .leftJoin('artworks as a', 'a.id', 'i.artwork_id')
    .leftJoin('media as m', 'm.id', 'a.media_id')
    .select([
      'i.id',
      'i.order_id',
      'i.title',
      'i.artwork_type',
      'i.quantity',
      'i.unit_price_cents',
      'i.refunded_at',
      'm.sha256',
      'm.width',
      'm.height',
    ])
    .where('i.order_id', 'in', orderIds)
    .orderBy('i.id')
    .execute();
  const editions = await editionLabelsOfItems(db, orderIds);
  for (const row of rows) {
    byOrder.get(row.order_id)?.push({
      title: row.title,
      type: row.artwork_type === 'original' ? 'original' : 'print',
      quantity: row.quantity,
      unitPriceCents: row.unit_price_cents,
      lineTotalCents: row.unit_price_cents * row.quantity,
      editions: editions.get(row.id) ?? [],
      image:
        row.sha256 !== null && row.width !== null && row.height !== null
          ? { sha256: row.sha256, width: row.width, height: row.height }
          : null,
      refunded: row.refunded_at !== null,
    });
  }
  return byOrder;
}

interface OrderRow {
  id: string;
  order_number: string;
  created_at: Date | string;
  locale: string;
  payment_status: string;
  currency: string;
  subtotal_cents: number;
  promo_code: string | null;
  discount_cents: number;
  shipping_cents: number;
  total_cents: number;
  refunded_cents: number;
}

/** The columns `buyerOrders` needs, for the queries that select orders. */
export const BUYER_ORDER_COLUMNS = [
  'id',
  'order_number',
  'created_at',
  'locale',
  'payment_status',
  'currency',
  'subtotal_cents',
  'promo_code',
  'discount_cents',
  'shipping_cents',
  'total_cents',
  'refunded_cents',
] as const;

/** Order rows as buyers see them, with their lines. */
export async function buyerOrders(db: Executor, rows: readonly OrderRow[]): Promise<BuyerOrder[]> {
  const ids = rows.map((row) => row.id);
  const lines = await orderLines(db, ids);
  const invoices = ids.length
    ? await db
        .selectFrom('invoices')
        .select(['order_id', 'kind', 'number', 'issued_at', 'total_cents'])
        .where('order_id', 'in', ids)
        .orderBy('sequence')
        .execute()
    : [];
  const invoiceOf = new Map<string, string>();
  const creditNotesOf = new Map<string, BuyerOrder['creditNotes']>();
  for (const i of invoices) {
    if (i.kind === 'invoice') invoiceOf.set(i.order_id, i.number);
    else if (i.kind === 'credit_note') {
      const notes = creditNotesOf.get(i.order_id) ?? [];
      notes.push({
        number: i.number,
        date: new Date(i.issued_at).toISOString(),
        totalCents: i.total_cents,
      });
      creditNotesOf.set(i.order_id, notes);
    }
  }
  return rows.map((o) => ({
    number: o.order_number,
    date: new Date(o.created_at).toISOString(),
    locale: o.locale === 'en' ? 'en' : 'fr',
    paymentStatus: o.payment_status,
    currency: o.currency,
    subtotalCents: o.subtotal_cents,
    promoCode: o.promo_code,
    discountCents: o.discount_cents,
    shippingCents: o.shipping_cents,
    totalCents: o.total_cents,
    lines: lines.get(o.id) ?? [],
    invoiceNumber: invoiceOf.get(o.id) ?? null,
    refundedCents: o.refunded_cents,
    creditNotes: creditNotesOf.get(o.id) ?? [],
  }));
}
