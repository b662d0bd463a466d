// GET /api/invoices/:id?sig=… → an invoice or credit note as a PDF, without an account: the link
// the order and cancellation mails carry (api/invoices/link.ts). A missing or wrong signature, or
// an unknown invoice, answers 404 JSON — the same answer, so nothing tells which.
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { pdfResponse } from '#api/invoices/download.ts';
import { signedInvoiceFile } from '#api/invoices/link.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ params, url }) =>
    pdfResponse(
      await signedInvoiceFile(await getDb(), params['id'] ?? '', url.searchParams.get('sig')),
    ),
});
