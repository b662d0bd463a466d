// Invoices and credit notes (issue 13 §4, docs/decisions/019): numbered in one continuous sequence
// per kind without gaps — the number is taken from a row-locked counter inside the payment's (or
// the refund's) own transaction, so a rolled-back payment gives its number back — and frozen once
// issued: the row keeps a snapshot of everything the PDF prints, and a trigger refuses any change.
// Issue 26 (docs/decisions/047): the snapshot (version 2) also keeps the buyer's language, each
// work as the décret n° 81-255 describes it (nature with its edition numbers, technique,
// dimensions, year) and the seller's VAT regime with the amounts it implies; a version 1 snapshot
// still prints as it was issued.
import type { Executor } from '../db/index.ts';
import { editionLabelsOfItems } from '../editions/index.ts';
import { addressLines } from '../orders/address.ts';
import { getSettings } from '../settings/index.ts';
import { splitVat, type VatAmounts, type VatRegime } from '../../src/domain/legal.ts';
import type { InvoiceRef } from '../../src/schemas/admin-orders.ts';

export type InvoiceKind = InvoiceRef['kind'];
export const INVOICE_KINDS: readonly InvoiceKind[] = ['invoice', 'credit_note'];

/** back office §3 detail: the one payment method of the shop. */
export const PAYMENT_METHOD = 'Carte bancaire (Stripe)';

/**
 * Why the refund was made, printed on the credit note: 'cancellation', 'withdrawal' and 'partial'
 * (some lines, issue 27) print as sentences in the note's language, any other text as written.
 */
export type RefundReason = 'cancellation' | 'withdrawal' | 'partial' | (string & {});

export interface InvoiceLine {
  title: string;
  type: 'original' | 'print';
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  /** Version 2: the copies' edition labels ('7/50', 'EA 1/5'), empty for an original. */
  editions?: string[];
  /** Version 2, from the work at payment, in the invoice's language ('' when the work has none). */
  technique?: string;
  dimensions?: string;
  year?: number | null;
}

export type InvoiceLocale = 'fr' | 'en';

/**
 * Everything an invoice or credit note prints, as it was when issued. Amounts of a credit note are
 * negative (the invoice's amounts with the sign turned), so `subtotal − discount + shipping = total`
 * holds for both.
 */
export interface InvoiceSnapshot {
  version: 1 | 2;
  /** Version 2: the buyer's language (orders.locale); a version 1 snapshot is French. */
  locale?: InvoiceLocale;
  kind: InvoiceKind;
  number: string;
  /** ISO 8601. */
  issuedAt: string;
  /** The invoice a credit note corrects (null on an invoice, or for an order paid before invoices). */
  refersTo: { number: string; issuedAt: string } | null;
  orderNumber: string;
  seller: {
    name: string;
    address: string;
    siret: string;
    /** The owner's further mention (version 1: the whole VAT mention). */
    vatMention: string;
    email: string;
    /** Version 2: the VAT regime at issue. */
    vat?: { regime: VatRegime; rateBp: number };
  };
  buyer: { name: string; email: string; addressLines: string[] };
  lines: InvoiceLine[];
  subtotalCents: number;
  promoCode: string | null;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  currency: string;
  /** Invoice: when and how it was paid. Credit note: when and how it was refunded. */
  payment: { date: string | null; method: string };
  /** Credit notes only. */
  reason?: RefundReason;
  /** Version 2, under a VAT rate: the total split before tax / tax / after tax. */
  vatAmounts?: VatAmounts | null;
}

export interface IssuedInvoice extends InvoiceRef {
  orderId: string;
  snapshot: InvoiceSnapshot;
}

const PREFIX: Record<InvoiceKind, string> = { invoice: 'F', credit_note: 'A' };

/** `F-000001` for invoices, `A-000001` for credit notes ('avoir'). */
export function invoiceNumber(kind: InvoiceKind, sequence: number): string {
  return `${PREFIX[kind]}-${String(sequence).padStart(6, '0')}`;
}

/** `facture-F-000001.pdf` / `avoir-A-000001.pdf`; in English `invoice-…` / `credit-note-…`. */
export function invoiceFileName(
  kind: InvoiceKind,
  number: string,
  locale: InvoiceLocale = 'fr',
): string {
  const word =
    locale === 'en'
      ? kind === 'invoice'
        ? 'invoice'
        : 'credit-note'
      : kind === 'invoice'
        ? 'facture'
        : 'avoir';
  return `${word}-${number}.pdf`;
}

/**
 * Takes the next number of `kind`. The UPDATE locks the counter row until the caller's transaction
 * ends: concurrent payments queue here one after the other, and a rollback returns the number.
 * Call it last in the transaction, after everything that may still fail, to hold the lock briefly.
 */
async function nextSequence(trx: Executor, kind: InvoiceKind): Promise<number> {
  const row = await trx
    .updateTable('invoice_counters')
    .set((eb) => ({ last: eb('last', '+', 1) }))
    .where('kind', '=', kind)
    .returning('last')
    .executeTakeFirstOrThrow();
  return row.last;
}

type StoredInvoice = {
  id: string;
  kind: string;
  number: string;
  order_id: string;
  issued_at: Date | string;
  total_cents: number;
  snapshot: unknown;
};

function toIssued(row: StoredInvoice): IssuedInvoice {
  return {
    id: row.id,
    kind: row.kind === 'credit_note' ? 'credit_note' : 'invoice',
    number: row.number,
    orderId: row.order_id,
    issuedAt: new Date(row.issued_at).toISOString(),
    totalCents: row.total_cents,
    snapshot: (typeof row.snapshot === 'string'
      ? JSON.parse(row.snapshot)
      : row.snapshot) as InvoiceSnapshot,
  };
}

const INVOICE_COLUMNS = [
  'id',
  'kind',
  'number',
  'order_id',
  'issued_at',
  'total_cents',
  'snapshot',
] as const;

/** The invoice of an order, or its latest credit note (one per refund since issue 27), if issued. */
export async function findInvoice(
  db: Executor,
  orderId: string,
  kind: InvoiceKind = 'invoice',
): Promise<IssuedInvoice | null> {
  const row = await db
    .selectFrom('invoices')
    .select(INVOICE_COLUMNS)
    .where('order_id', '=', orderId)
    .where('kind', '=', kind)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toIssued(row) : null;
}

/** An invoice or credit note by its own id (the signed link names it). */
export async function findInvoiceById(
  db: Executor,
  invoiceId: string,
): Promise<IssuedInvoice | null> {
  const row = await db
    .selectFrom('invoices')
    .select(INVOICE_COLUMNS)
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  return row ? toIssued(row) : null;
}

/** An order's invoice and credit note, as the back office's order detail lists them. */
export async function invoiceRefs(db: Executor, orderId: string): Promise<InvoiceRef[]> {
  const rows = await db
    .selectFrom('invoices')
    .select(['id', 'kind', 'number', 'issued_at', 'total_cents'])
    .where('order_id', '=', orderId)
    .orderBy('issued_at')
    .orderBy('kind', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind === 'credit_note' ? 'credit_note' : 'invoice',
    number: r.number,
    issuedAt: new Date(r.issued_at).toISOString(),
    totalCents: r.total_cents,
  }));
}

async function insertInvoice(
  trx: Executor,
  values: {
    kind: InvoiceKind;
    orderId: string;
    refersTo: string | null;
    now: Date;
    build: (number: string) => InvoiceSnapshot;
  },
): Promise<IssuedInvoice> {
  const sequence = await nextSequence(trx, values.kind);
  const number = invoiceNumber(values.kind, sequence);
  const snapshot = values.build(number);
  const row = await trx
    .insertInto('invoices')
    .values({
      kind: values.kind,
      sequence,
      number,
      order_id: values.orderId,
      refers_to: values.refersTo,
      issued_at: values.now,
      total_cents: snapshot.totalCents,
      currency: snapshot.currency,
      snapshot: JSON.stringify(snapshot),
    })
    .returning(INVOICE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toIssued(row);
}

type Seller = InvoiceSnapshot['seller'];

/**
 * The seller as the settings name it now (the legal identity, else the site's title and contact
 * address). An empty SIRET stays empty: the PDF leaves the line out (docs/decisions/047).
 */
async function currentSeller(trx: Executor): Promise<Seller & { vat: NonNullable<Seller['vat']> }> {
  // Read through the transaction, not the live cache: the snapshot is what was true at issue.
  const settings = await getSettings(trx);
  const legal = settings.legal_identity;
  return {
    name: legal.name.trim() || settings.site_title,
    address: legal.address.trim() || settings.contact_address,
    siret: legal.siret.trim(),
    vatMention: legal.vat_mention.trim(),
    email: settings.contact_email,
    vat: {
      regime: legal.vat_regime,
      rateBp: legal.vat_regime === 'rate' ? legal.vat_rate_bp : 0,
    },
  };
}

/** The VAT split of a total under the seller's regime; null unless a rate applies. */
function vatAmountsOf(seller: Seller, totalCents: number): VatAmounts | null {
  return seller.vat?.regime === 'rate' && seller.vat.rateBp > 0
    ? splitVat(totalCents, seller.vat.rateBp)
    : null;
}

/**
 * Issues the invoice of a paid order inside the caller's transaction (the webhook's paid path), at
 * most once per order: an order that already has one gets it back unchanged. The order row is
 * locked first, so two callers for one order cannot both pass the check.
 */
export async function issueInvoice(
  trx: Executor,
  orderId: string,
  now: Date,
): Promise<IssuedInvoice> {
  await trx
    .selectFrom('orders')
    .select('id')
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const existing = await findInvoice(trx, orderId, 'invoice');
  if (existing) return existing;
  const base = await orderSnapshot(trx, orderId, now);
  return insertInvoice(trx, {
    kind: 'invoice',
    orderId,
    refersTo: null,
    now,
    build: (number) => ({ ...base, number }),
  });
}

const negate = (cents: number) => (cents === 0 ? 0 : -cents);

/**
 * The part of an order a refund covers (issue 27: some lines only, or what remains after such
 * refunds): the lines by their place in the invoice (the order's lines by id), and the positive
 * amounts refunded — the lines' share of the discount, the shipping, the total.
 */
export interface CreditNotePart {
  lineIndexes: readonly number[];
  discountCents: number;
  shippingCents: number;
  totalCents: number;
}

/**
 * Issues a credit note ('avoir') inside the refund's transaction, with its own sequence. It repeats
 * the invoice's buyer and lines with the amounts negated and refers to it; an order paid before
 * invoices existed gets one built from the order. Without `part` it is the whole refund's, at
 * most once per order; with `part`, one per refund of some lines (and one for the rest).
 */
export async function issueCreditNote(
  trx: Executor,
  orderId: string,
  now: Date,
  reason: RefundReason = 'cancellation',
  part?: CreditNotePart,
): Promise<IssuedInvoice> {
  if (!part) {
    const existing = await findInvoice(trx, orderId, 'credit_note');
    if (existing) return existing;
  }
  const invoice = await findInvoice(trx, orderId, 'invoice');
  // Without an invoice the order's own data stands in for it.
  const base = invoice?.snapshot ?? (await orderSnapshot(trx, orderId, now));
  // Today's identity, the invoice's VAT regime: the note cancels what the invoice charged.
  const current = await currentSeller(trx);
  const seller: Seller = { ...current, vat: base.seller.vat ?? current.vat };
  const lines = part ? base.lines.filter((_, i) => part.lineIndexes.includes(i)) : base.lines;
  const amounts = part
    ? {
        subtotal: lines.reduce((sum, l) => sum + l.lineTotalCents, 0),
        discount: part.discountCents,
        shipping: part.shippingCents,
        total: part.totalCents,
      }
    : {
        subtotal: base.subtotalCents,
        discount: base.discountCents,
        shipping: base.shippingCents,
        total: base.totalCents,
      };
  return insertInvoice(trx, {
    kind: 'credit_note',
    orderId,
    refersTo: invoice?.id ?? null,
    now,
    build: (number) => ({
      ...base,
      version: 2,
      locale: base.locale ?? 'fr',
      kind: 'credit_note',
      number,
      issuedAt: now.toISOString(),
      refersTo: invoice ? { number: invoice.number, issuedAt: invoice.issuedAt } : null,
      seller,
      lines: lines.map((l) => ({
        ...l,
        unitPriceCents: negate(l.unitPriceCents),
        lineTotalCents: negate(l.lineTotalCents),
      })),
      subtotalCents: negate(amounts.subtotal),
      discountCents: negate(amounts.discount),
      shippingCents: negate(amounts.shipping),
      totalCents: negate(amounts.total),
      payment: { date: now.toISOString(), method: PAYMENT_METHOD },
      reason,
      vatAmounts: vatAmountsOf(seller, negate(amounts.total)),
    }),
  });
}

/** What an invoice of the order prints, issued `now`, before it has a number. */
async function orderSnapshot(trx: Executor, orderId: string, now: Date): Promise<InvoiceSnapshot> {
  const order = await trx
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  // The work as it is at payment (technique, size, year): the snapshot freezes it.
  const items = await trx
    .selectFrom('order_items as i')
    .leftJoin('artworks as a', 'a.id', 'i.artwork_id')
    .select([
      'i.id',
      'i.title',
      'i.artwork_type',
      'i.quantity',
      'i.unit_price_cents',
      'a.technique_fr',
      'a.technique_en',
      'a.dimensions',
      'a.year',
    ])
    .where('i.order_id', '=', orderId)
    .orderBy('i.id')
    .execute();
  const editions = await editionLabelsOfItems(trx, [orderId]);
  const locale: InvoiceLocale = order.locale === 'en' ? 'en' : 'fr';
  const seller = await currentSeller(trx);
  return {
    version: 2,
    locale,
    kind: 'invoice',
    number: '',
    issuedAt: now.toISOString(),
    refersTo: null,
    orderNumber: order.order_number,
    seller,
    buyer: {
      name: order.customer_name,
      email: order.customer_email,
      addressLines: addressLines(order.billing_address ?? order.shipping_address),
    },
    lines: items.map((i) => ({
      title: i.title,
      type: i.artwork_type === 'original' ? 'original' : 'print',
      quantity: i.quantity,
      unitPriceCents: i.unit_price_cents,
      lineTotalCents: i.unit_price_cents * i.quantity,
      editions: editions.get(i.id) ?? [],
      technique: (
        (locale === 'en' ? i.technique_en || i.technique_fr : i.technique_fr) ?? ''
      ).trim(),
      dimensions: (i.dimensions ?? '').trim(),
      year: i.year ?? null,
    })),
    subtotalCents: order.subtotal_cents,
    promoCode: order.promo_code,
    discountCents: order.discount_cents,
    shippingCents: order.shipping_cents,
    totalCents: order.total_cents,
    currency: order.currency,
    payment: {
      date: new Date(order.paid_at ?? now).toISOString(),
      method: PAYMENT_METHOD,
    },
    vatAmounts: vatAmountsOf(seller, order.total_cents),
  };
}
