// The invoice link that works without an account (issue 26, docs/decisions/047): the mails carry
// `/api/invoices/<invoice id>?sig=<HMAC-SHA256 of the id>`, keyed with a random secret the
// database keeps ('link_secrets', made on first use). Whoever holds the mail can open the
// document it came with, for as long as the invoice must be kept — the link does not expire —,
// and nobody can derive another invoice's link from it. A missing, malformed or wrong signature
// answers the same 404 as an unknown invoice.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { loadConfig } from '../config.ts';
import type { Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import type { InvoiceFile } from './download.ts';
import { findInvoiceById, invoiceFileName, type InvoiceKind } from './index.ts';
import { renderInvoicePdf } from './pdf.ts';

const PURPOSE = 'invoice';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** 256 bits in base64url, no padding. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** The signing secret, made once by whichever node asks first (the insert is race-free). */
async function linkSecret(db: Executor): Promise<Buffer> {
  const existing = await db
    .selectFrom('link_secrets')
    .select('secret')
    .where('purpose', '=', PURPOSE)
    .executeTakeFirst();
  if (existing) return Buffer.from(existing.secret);
  await db
    .insertInto('link_secrets')
    .values({ purpose: PURPOSE, secret: randomBytes(32) })
    .onConflict((oc) => oc.column('purpose').doNothing())
    .execute();
  const row = await db
    .selectFrom('link_secrets')
    .select('secret')
    .where('purpose', '=', PURPOSE)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.secret);
}

function sign(secret: Buffer, invoiceId: string): string {
  return createHmac('sha256', secret)
    .update(`invoice:${invoiceId.toLowerCase()}`, 'utf8')
    .digest('base64url');
}

/** The absolute link to an invoice or credit note's PDF, for a mail. */
export async function invoiceLinkUrl(
  db: Executor,
  invoiceId: string,
  siteUrl: string = loadConfig().siteUrl,
): Promise<string> {
  const signature = sign(await linkSecret(db), invoiceId);
  return `${siteUrl}/api/invoices/${invoiceId.toLowerCase()}?sig=${signature}`;
}

const notFound = () => new AppError('not_found', { message: 'No such invoice.' });

/** The document a signed link names; not_found for anything else. */
export async function signedInvoiceFile(
  db: Executor,
  invoiceId: string,
  signature: string | null,
): Promise<InvoiceFile & { kind: InvoiceKind }> {
  if (!UUID.test(invoiceId) || !signature || !SIGNATURE.test(signature)) throw notFound();
  const expected = Buffer.from(sign(await linkSecret(db), invoiceId));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound();
  const invoice = await findInvoiceById(db, invoiceId);
  if (!invoice) throw notFound();
  return {
    kind: invoice.kind,
    fileName: invoiceFileName(invoice.kind, invoice.number, invoice.snapshot.locale),
    bytes: await renderInvoicePdf(invoice.snapshot, invoice.kind),
  };
}
