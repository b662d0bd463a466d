// GET /api/admin/orders/:id/invoice[?kind=credit_note][&id=<invoice id>] → the order's invoice (or
// latest credit note, or the one named by id: issue 27's partial refunds give several) as a
// PDF attachment, `facture-F-000001.pdf`; 404 when the order has none. Administrators only (the
// middleware guards /api/admin/**).
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { adminInvoiceFile, invoiceKindParam, pdfResponse } from '#api/invoices/download.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ params, url }) =>
    pdfResponse(
      await adminInvoiceFile(
        await getDb(),
        params['id'] ?? '',
        invoiceKindParam(url),
        url.searchParams.get('id'),
      ),
    ),
});
