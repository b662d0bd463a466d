// Invoice downloads (issue 13 §4): the back office gets any order's invoice or credit note; a
// buyer only those of the orders their account page lists — the same rule, by calling the same
// function (api/accounts/orders.ts) — and anything else, whatever the reason, is "not found".
import { listAccountOrders } from '../accounts/orders.ts';
import type { Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { findInvoice, findInvoiceById, invoiceFileName, type InvoiceKind } from './index.ts';
import { renderInvoicePdf } from './pdf.ts';

export interface InvoiceFile {
  fileName: string;
  bytes: Uint8Array;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Order numbers are short letters, digits and dashes (GS-2026-00001).
const ORDER_NUMBER = /^[A-Z0-9][A-Z0-9-]{2,39}$/i;

const notFound = () => new AppError('not_found', { message: 'No such invoice.' });

/** `?kind=` of a download: the invoice unless it says `credit_note`; anything else is not found. */
export function invoiceKindParam(url: URL): InvoiceKind {
  const kind = url.searchParams.get('kind');
  if (kind === null || kind === '' || kind === 'invoice') return 'invoice';
  if (kind === 'credit_note') return 'credit_note';
  throw notFound();
}

async function render(db: Executor, orderId: string, kind: InvoiceKind): Promise<InvoiceFile> {
  const invoice = await findInvoice(db, orderId, kind);
  if (!invoice) throw notFound();
  return {
    fileName: invoiceFileName(kind, invoice.number, invoice.snapshot.locale),
    bytes: await renderInvoicePdf(invoice.snapshot, kind),
  };
}

/**
 * The back office's download: any order by its id — its invoice, its latest credit note, or
 * (`invoiceId`, issue 27: an order refunded in parts has several) one of its documents by id;
 * throws not_found when there is none.
 */
export async function adminInvoiceFile(
  db: Executor,
  orderId: string,
  kind: InvoiceKind,
  invoiceId?: string | null,
): Promise<InvoiceFile> {
  if (!UUID.test(orderId)) throw notFound();
  if (!invoiceId) return render(db, orderId, kind);
  if (!UUID.test(invoiceId)) throw notFound();
  const invoice = await findInvoiceById(db, invoiceId);
  if (!invoice || invoice.orderId !== orderId.toLowerCase()) throw notFound();
  return {
    fileName: invoiceFileName(invoice.kind, invoice.number, invoice.snapshot.locale),
    bytes: await renderInvoicePdf(invoice.snapshot, invoice.kind),
  };
}

/** A document's number as the account page names it (`A-000012`). */
const DOCUMENT_NUMBER = /^[A-Z]-\d{6,12}$/;

/**
 * The buyer's download, by order number (what the account page shows) or id: only an order their
 * account lists. Another buyer's order, an unknown or malformed key: not_found, never forbidden,
 * so nothing tells whether the order exists. `number` picks one of the order's documents of that
 * kind (an order refunded in parts has a credit note per refund); without it, the latest.
 */
export async function buyerInvoiceFile(
  db: Executor,
  user: { id: string },
  orderKey: string,
  kind: InvoiceKind,
  number?: string | null,
): Promise<InvoiceFile> {
  if (number && !DOCUMENT_NUMBER.test(number)) throw notFound();
  let query = db.selectFrom('orders').select(['id', 'order_number']);
  if (UUID.test(orderKey)) query = query.where('id', '=', orderKey);
  else if (ORDER_NUMBER.test(orderKey)) query = query.where('order_number', '=', orderKey);
  else throw notFound();
  const order = await query.executeTakeFirst();
  if (!order) throw notFound();
  const mine = await listAccountOrders(db, user);
  if (!mine.some((o) => o.number === order.order_number)) throw notFound();
  if (!number) return render(db, order.id, kind);
  const id = await db
    .selectFrom('invoices')
    .select('id')
    .where('order_id', '=', order.id)
    .where('kind', '=', kind)
    .where('number', '=', number)
    .executeTakeFirst();
  if (!id) throw notFound();
  return adminInvoiceFile(db, order.id, kind, id.id);
}

/** The PDF as an attachment, never cached by anything between us and the person asking. */
export function pdfResponse(file: InvoiceFile): Response {
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Content-Length': String(file.bytes.byteLength),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
