// GET /api/account/orders/:number/invoice[?kind=credit_note[&number=A-000012]] → the signed-in
// buyer's invoice (or credit note: the latest, or the one numbered) as a PDF attachment. Only for an order the account page lists (by its number, or
// its id); any other order, unknown or malformed, answers 404 — never 403 — so nothing tells
// whether it exists. 401 without a session.
import { requireUser } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { buyerInvoiceFile, invoiceKindParam, pdfResponse } from '#api/invoices/download.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ locals, params, url }) => {
    const user = requireUser(locals);
    const kind = invoiceKindParam(url);
    const number = url.searchParams.get('number');
    return pdfResponse(
      await buyerInvoiceFile(await getDb(), user, params['id'] ?? '', kind, number),
    );
  },
});
