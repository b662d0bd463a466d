// Where an order's documents are: its invoice and credit notes (a credit note by its own id, since
// an order refunded in parts has several — issue 27) and its printable packing slip.

export function invoiceHref(
  orderId: string,
  kind: 'invoice' | 'credit_note' = 'invoice',
  invoiceId?: string,
): string {
  const params = new URLSearchParams();
  if (kind === 'credit_note') params.set('kind', kind);
  if (invoiceId && kind === 'credit_note') params.set('id', invoiceId);
  const query = params.toString();
  return `/api/admin/orders/${orderId}/invoice${query ? `?${query}` : ''}`;
}

/** The 'bon de livraison' page (src/pages/admin/orders/[id]/bon-de-livraison.astro). */
export const slipHref = (orderId: string) => `/admin/orders/${orderId}/bon-de-livraison`;
