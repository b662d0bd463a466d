// An order's invoice or credit note as the buyer's mails carry it (issue 26): its number, the
// signed link that opens it without an account, and the PDF to attach. A PDF that cannot be
// rendered leaves the mail with the link alone — the mail must still go — and is logged.
import type { Executor } from '../db/index.ts';
import { log } from '../log.ts';
import type { MailedDocument } from '../mail/orders.ts';
import { findInvoice, invoiceFileName, type InvoiceKind } from './index.ts';
import { invoiceLinkUrl } from './link.ts';
import { renderInvoicePdf } from './pdf.ts';

export async function mailedInvoice(
  db: Executor,
  orderId: string,
  kind: InvoiceKind,
  siteUrl?: string,
): Promise<MailedDocument | null> {
  const invoice = await findInvoice(db, orderId, kind);
  if (!invoice) return null;
  const url = await invoiceLinkUrl(db, invoice.id, siteUrl);
  let pdf: MailedDocument['pdf'] = null;
  try {
    pdf = {
      filename: invoiceFileName(kind, invoice.number, invoice.snapshot.locale),
      content: await renderInvoicePdf(invoice.snapshot, kind),
      contentType: 'application/pdf',
    };
  } catch (error) {
    log.error({ err: error }, `Invoice ${invoice.number}: the PDF for the mail could not be made`);
  }
  return { number: invoice.number, url, pdf };
}
