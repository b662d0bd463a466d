// The back office's orders (back office §2 "Gestion des commandes", §4, §5, §8; issue 13): the list
// searched, filtered, sorted and paged in SQL, one order's detail with its history from the audit
// log, the fulfilment change — 'Expédiée' with its carrier, tracking number and the buyer's mail,
// 'Annulée' with the owner's explicit refund and restock choices — and the accountant's CSV.
// Only orders that were paid are listed (payment paid or refunded): open, expired and failed
// checkouts never are.
import { sql, type QueryCreator, type RawBuilder, type Transaction } from 'kysely';
import type {
  InvoiceRef,
  OrderDetail,
  OrderHistoryEntry,
  OrderLinesRefund,
  OrderLinesRefundResult,
  OrderList,
  OrderListQuery,
  OrderRow,
  OrderSort,
  OrderStatusChange,
  OrderStatusResult,
  PackingSlip,
} from '../../src/schemas/admin-orders.ts';
import { ORDERS_PAGE_SIZE } from '../../src/schemas/admin-orders.ts';
import {
  FULFILMENT_LABELS,
  FULFILMENT_STATUSES,
  Fulfilment,
  Payment,
  canChangeFulfilment,
  isPaymentStatus,
  paymentLabel,
  type FulfilmentStatus,
  type PaymentStatus,
} from '../../src/domain/order-status.ts';
import { formatMoney } from '../../src/domain/money.ts';
import { requestPublish } from '../build/publish.ts';
import { timeOf, type Clock } from '../clock.ts';
import type { Database, Executor } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import { shippingMail } from '../mail/shipping.ts';
import { cancellationMail, partialRefundMail } from '../mail/cancellation.ts';
import { mailedInvoice } from '../invoices/mailed.ts';
import { addressLines, parseAddress } from '../orders/address.ts';
import { readOrder } from '../orders/index.ts';
import { refundLines, LinesRefusedError } from '../orders/refund-lines.ts';
import { orderReturned } from '../orders/returns.ts';
import { editionLabelsOfItems } from '../editions/index.ts';
import { SHOP_TIME_ZONE } from '../orders/sales.ts';
import type { Payments } from '../payments/index.ts';
import { liveSettings } from '../settings/index.ts';
import { fold } from './artworks.ts';
import { audit, readAudit, type Actor } from './audit.ts';

type Trx = Transaction<DB>;

/** The payments that make a checkout an order the back office lists. */
const LISTED: PaymentStatus[] = [Payment.paid, Payment.refunded];
/** §2 "a type label naming the card provider"; §2 detail "'Carte bancaire' with the provider". */
export const ORDER_TYPE = 'Carte bancaire (Stripe)';
const PAYMENT_METHODS: Record<string, string> = {
  card: ORDER_TYPE,
  bank_transfer: 'Virement bancaire',
  manual: 'Paiement manuel',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function notFound(): AppError {
  return new AppError('not_found', { message: 'No such order.' });
}

/** An order's path id: a UUID, anything else is not found (never a database error). */
export function orderId(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw notFound();
  return value.toLowerCase();
}

const SORTS: Record<OrderSort, RawBuilder<unknown>> = {
  date: sql`coalesce(o.paid_at, o.created_at)`,
  total: sql`o.total_cents`,
  number: sql`o.order_number`,
  customer: sql`lower(o.customer_name)`,
  // The statuses in their life order, not alphabetically.
  status: sql`array_position(${sql.val([...FULFILMENT_STATUSES])}::text[], o.status)`,
};

/** The listed orders matching the search (number, name, email, session id) and the filter. */
function matching(db: QueryCreator<DB>, query: Pick<OrderListQuery, 'q' | 'status'>) {
  let rows = db.selectFrom('orders as o').where('o.payment_status', 'in', LISTED);
  if (query.status === 'paid') rows = rows.where('o.payment_status', '=', Payment.paid);
  else if (query.status !== 'all') rows = rows.where('o.status', '=', query.status);
  // Folded as orders.search_folded is (migration 20261123_0500): case and accents do not matter.
  const q = fold(query.q.trim());
  if (q) rows = rows.where('o.search_folded', 'like', `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return rows;
}

const ROW_COLUMNS = [
  'o.id',
  'o.order_number',
  'o.customer_name',
  'o.customer_email',
  'o.total_cents',
  'o.currency',
  'o.status',
  'o.payment_status',
  'o.withdrawal_requested_at',
  'o.locale',
  'o.paid_at',
  'o.created_at',
] as const;

interface RowColumns {
  id: string;
  order_number: string;
  customer_name: string;
  customer_email: string;
  total_cents: number;
  currency: string;
  status: string;
  payment_status: string;
  withdrawal_requested_at: Date | string | null;
  withdrawal_pending_at: Date | string | null;
  withdrawal_confirmed_via: string | null;
  locale: string;
  paid_at: Date | string | null;
  created_at: Date | string;
  has_invoice: boolean;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function fulfilmentOf(value: string): FulfilmentStatus {
  return (FULFILMENT_STATUSES as readonly string[]).includes(value)
    ? (value as FulfilmentStatus)
    : Fulfilment.pending;
}

function toRow(r: RowColumns): OrderRow {
  return {
    id: r.id,
    number: r.order_number,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    type: ORDER_TYPE,
    totalCents: r.total_cents,
    currency: r.currency,
    fulfilment: fulfilmentOf(r.status),
    payment: r.payment_status,
    withdrawalRequestedAt: r.withdrawal_requested_at ? iso(r.withdrawal_requested_at) : null,
    withdrawalPendingAt: r.withdrawal_pending_at ? iso(r.withdrawal_pending_at) : null,
    withdrawalConfirmedVia: confirmedVia(r.withdrawal_confirmed_via),
    locale: r.locale === 'en' ? 'en' : 'fr',
    date: iso(r.paid_at ?? r.created_at),
    hasInvoice: Boolean(r.has_invoice),
  };
}

const hasInvoice = sql<boolean>`EXISTS (SELECT 1 FROM invoices i WHERE i.order_id = o.id AND i.kind = 'invoice')`;

/** A statement sent from the form that the buyer has not confirmed yet (docs/decisions/039). */
const withdrawalPendingAt = sql<
  Date | string | null
>`(SELECT w.requested_at FROM withdrawals w WHERE w.order_id = o.id AND w.state = 'pending')`;
/** How the buyer confirmed their withdrawal: from the mailed link, their account, or the old page. */
const withdrawalConfirmedVia = sql<
  string | null
>`(SELECT w.confirmed_via FROM withdrawals w WHERE w.order_id = o.id AND w.state = 'confirmed')`;

function confirmedVia(value: string | null): OrderRow['withdrawalConfirmedVia'] {
  return value === 'mail' || value === 'account' || value === 'page' ? value : null;
}

/**
 * One page of the list (§2), with how many orders there are and how many match. A search counts
 * its matches in the same pass as the page (a window count: it reads the matching orders once,
 * through the trigram index of migration 20261123_0760). Without a search, the page walks the
 * sort's index and stops after the page, and the orders are counted beside it.
 */
export async function listAdminOrders(db: Database, query: OrderListQuery): Promise<OrderList> {
  const searching = query.q.trim() !== '';
  const unfiltered = !searching && query.status === 'all';
  // A search reads its matches first (a materialized CTE, through the trigram index), then sorts
  // and counts them: left to itself, the planner would walk a sort index for the LIMIT and filter
  // all 100 000 orders on the way, though the window count needs every match anyway.
  const source = () =>
    searching
      ? db
          .with(
            (cte) => cte('o').materialized(),
            (qb) => matching(qb, query).selectAll('o'),
          )
          .selectFrom('o')
      : matching(db, query);
  const page = (n: number) =>
    source()
      .select([
        ...ROW_COLUMNS,
        hasInvoice.as('has_invoice'),
        withdrawalPendingAt.as('withdrawal_pending_at'),
        withdrawalConfirmedVia.as('withdrawal_confirmed_via'),
        (searching ? sql<string | null>`count(*) OVER ()` : sql<string | null>`NULL`).as(
          'matching',
        ),
      ])
      .orderBy(SORTS[query.sort], query.dir)
      .orderBy('o.id', query.dir)
      .limit(ORDERS_PAGE_SIZE)
      .offset((n - 1) * ORDERS_PAGE_SIZE)
      .execute();
  const countMatching = () =>
    matching(db, query)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
  const [all, counted, first] = await Promise.all([
    unfiltered
      ? null
      : db
          .selectFrom('orders')
          .where('payment_status', 'in', LISTED)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow(),
    searching ? null : countMatching(),
    page(query.page),
  ]);
  let rows = first;
  let count = counted ? Number(counted.n) : Number(rows[0]?.matching ?? 0);
  let current = query.page;
  if (rows.length === 0 && query.page > 1) {
    // Past the last page (the list shrank since): count, then show the last page.
    if (searching) count = Number((await countMatching()).n);
    current = Math.max(1, Math.ceil(count / ORDERS_PAGE_SIZE));
    if (count > 0) rows = await page(current);
  }
  const pages = Math.max(1, Math.ceil(count / ORDERS_PAGE_SIZE));
  const total = all ? Number(all.n) : count;
  return {
    total,
    matching: count,
    page: Math.min(current, pages),
    pages,
    orders: rows.map(toRow),
  };
}

function addressOf(value: unknown): OrderDetail['shippingAddress'] {
  const a = parseAddress(value);
  return {
    street: a.street,
    postal_code: a.postalCode,
    city: a.city,
    country: a.country,
    ...(a.additionalInfo ? { additional_info: a.additionalInfo } : {}),
  };
}

const label = (status: unknown): string =>
  typeof status !== 'string'
    ? '—'
    : status in FULFILMENT_LABELS
      ? FULFILMENT_LABELS[status as FulfilmentStatus]
      : status;

/** The other order actions (refunds, withdrawals, erasure), named for the history; an unknown one
 * is shown raw. */
const ACTIONS: Record<string, string> = {
  'order.refund_requested': 'Remboursement demandé à Stripe',
  'order.lines_refund_requested': 'Remboursement partiel demandé à Stripe',
  'order.refund': 'Remboursement via Stripe',
  'order.restock': 'Œuvres remises en vente',
  'order.withdrawal': 'Rétractation demandée',
  'order.withdrawal_statement': 'Déclaration de rétractation reçue, à confirmer par l’acheteur',
  'order.withdrawal_disowned': 'Déclaration de rétractation écartée par l’acheteur',
  'order.erase': 'Données personnelles effacées',
};

function summaryOf(action: string, before: unknown, after: unknown, currency: string): string {
  if (action === 'order.refund') {
    const a = (after ?? {}) as {
      refunded_cents?: number;
      credit_note?: string;
      partial?: boolean;
      works?: string[];
    };
    const details = [
      typeof a.refunded_cents === 'number' ? formatMoney(a.refunded_cents, currency) : null,
      a.credit_note ? `avoir ${a.credit_note}` : null,
    ].filter(Boolean);
    const what = a.partial ? 'Remboursement partiel via Stripe' : ACTIONS[action];
    const works = a.partial && a.works?.length ? ` : ${a.works.join(', ')}` : '';
    return `${what}${details.length ? ` (${details.join(', ')})` : ''}${works}`;
  }
  if (action !== 'order.status') return ACTIONS[action] ?? action;
  const b = (before ?? {}) as { status?: string };
  const a = (after ?? {}) as {
    status?: string;
    carrier?: string | null;
    trackingNumber?: string | null;
    refund?: boolean;
    restock?: boolean;
  };
  const details = [
    a.carrier,
    a.trackingNumber ? `n° ${a.trackingNumber}` : null,
    a.refund ? 'client remboursé' : null,
    a.restock ? 'œuvres remises en vente' : null,
  ].filter(Boolean);
  return `${label(b.status)} → ${label(a.status)}${details.length ? ` (${details.join(', ')})` : ''}`;
}

async function historyOf(
  db: Executor,
  id: string,
  paidAt: Date | string | null,
  currency: string,
): Promise<OrderHistoryEntry[]> {
  const entries = await readAudit(db, { entity: 'order', entityId: id, limit: 200 });
  const history: OrderHistoryEntry[] = entries.reverse().map((e) => ({
    at: e.at,
    actor: e.actor,
    action: e.action,
    summary: summaryOf(e.action, e.before, e.after, currency),
  }));
  // The payment opens the story (written by the webhook, not by a person).
  if (paidAt)
    history.unshift({ at: iso(paidAt), actor: null, action: 'order.paid', summary: 'Payée' });
  return history;
}

async function invoicesOf(db: Executor, id: string): Promise<InvoiceRef[]> {
  const rows = await db
    .selectFrom('invoices')
    .select(['id', 'kind', 'number', 'issued_at', 'total_cents'])
    .where('order_id', '=', id)
    .orderBy('issued_at')
    .orderBy('kind', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind === 'credit_note' ? 'credit_note' : 'invoice',
    number: r.number,
    issuedAt: iso(r.issued_at),
    totalCents: r.total_cents,
  }));
}

/** Stripe's dashboard shows a live payment; a test or emulated one has nothing to show there. */
function dashboardUrl(payments: Payments | undefined, paymentIntent: string | null): string | null {
  if (!payments || payments.mode !== 'live' || payments.emulated || !paymentIntent) return null;
  return `https://dashboard.stripe.com/payments/${encodeURIComponent(paymentIntent)}`;
}

/** One listed order whole (§2 detail modal, issue 13 point 3); not found otherwise. */
export async function getAdminOrder(
  db: Executor,
  id: string,
  payments?: Payments,
): Promise<OrderDetail> {
  const o = await db
    .selectFrom('orders as o')
    .selectAll('o')
    .select([
      hasInvoice.as('has_invoice'),
      withdrawalPendingAt.as('withdrawal_pending_at'),
      withdrawalConfirmedVia.as('withdrawal_confirmed_via'),
    ])
    .where('o.id', '=', orderId(id))
    .where('o.payment_status', 'in', LISTED)
    .executeTakeFirst();
  if (!o) throw notFound();
  const [items, invoices, history] = await Promise.all([
    db
      .selectFrom('order_items as i')
      .leftJoin('artworks as a', 'a.id', 'i.artwork_id')
      .select([
        'i.id',
        'i.title',
        'i.artwork_type',
        'i.quantity',
        'i.unit_price_cents',
        'i.refunded_at',
        'a.dimensions',
      ])
      .where('i.order_id', '=', o.id)
      .orderBy('i.id')
      .execute(),
    invoicesOf(db, o.id),
    historyOf(db, o.id, o.paid_at, o.currency),
  ]);
  const editions = await editionLabelsOfItems(db, [o.id]);
  return {
    ...toRow(o),
    customerPhone: o.customer_phone,
    shippingAddress: addressOf(o.shipping_address),
    shippingLines: addressLines(o.shipping_address, 'fr'),
    lines: items.map((i) => ({
      id: i.id,
      title: i.title,
      type: i.artwork_type === 'original' ? 'original' : 'print',
      quantity: i.quantity,
      unitPriceCents: i.unit_price_cents,
      lineCents: i.unit_price_cents * i.quantity,
      editions: editions.get(i.id) ?? [],
      dimensions: (i.dimensions ?? '').trim(),
      refunded: i.refunded_at !== null,
    })),
    subtotalCents: o.subtotal_cents,
    promoCode: o.promo_code,
    discountCents: o.discount_cents,
    shippingCents: o.shipping_cents,
    stripeSessionId: o.stripe_session_id,
    paymentMethod: PAYMENT_METHODS[o.payment_method] ?? o.payment_method,
    paidAt: o.paid_at ? iso(o.paid_at) : null,
    carrier: o.carrier,
    trackingNumber: o.tracking_number,
    shippedAt: o.shipped_at ? iso(o.shipped_at) : null,
    refundedCents: o.refunded_cents,
    refundedAt: o.refunded_at ? iso(o.refunded_at) : null,
    refundPending: o.refund_pending_at !== null,
    invoices,
    history,
    stripeDashboardUrl: dashboardUrl(payments, o.stripe_payment_intent_id),
  };
}

// ── Status changes ──────────────────────────────────────────────────────────────────────────────

/** api/orders/refund.ts: one Stripe refund, its credit note, the restock if asked, audited. */
export type RefundOrder = (
  db: Database,
  orderId: string,
  options: { actor: Actor; restock: boolean; reason: string },
) => Promise<unknown>;

export interface StatusDeps {
  db: Database;
  payments?: Payments | undefined;
  mailer?: Mailer | undefined;
  refundOrder?: RefundOrder | undefined;
  now?: Clock | undefined;
}

interface Locked {
  id: string;
  order_number: string;
  status: string;
  payment_status: string;
  carrier: string | null;
  tracking_number: string | null;
}

/** Why a change is refused, in the owner's words (§8 shows it after 'Erreur lors de la mise à
 * jour du statut: '). */
function refusal(order: Locked, to: FulfilmentStatus): AppError | null {
  const state = {
    fulfilment: fulfilmentOf(order.status),
    payment: isPaymentStatus(order.payment_status) ? order.payment_status : Payment.failed,
  };
  if (canChangeFulfilment(state, to)) return null;
  const message =
    state.fulfilment === to
      ? `la commande est déjà « ${FULFILMENT_LABELS[to]} »`
      : state.fulfilment === Fulfilment.cancelled
        ? 'une commande annulée ne change plus de statut'
        : state.payment === Payment.refunded
          ? 'une commande remboursée ne peut plus être qu’annulée'
          : `le paiement de cette commande n’a pas abouti (${paymentLabel(order.payment_status).text})`;
  return new AppError('rejected', { message });
}

/** The order's state; in a transaction, `lock` holds it until the commit. */
async function stateOf(db: Executor, id: string, lock = false): Promise<Locked> {
  const query = db
    .selectFrom('orders')
    .select(['id', 'order_number', 'status', 'payment_status', 'carrier', 'tracking_number'])
    .where('id', '=', id)
    .where('payment_status', 'in', LISTED);
  const order = await (lock ? query.forUpdate() : query).executeTakeFirst();
  if (!order) throw notFound();
  return order;
}

/**
 * Puts a cancelled order's works back on sale (issue 13 point 2): an original is unsold and
 * available again, a print gets its copies back. Archived works stay off the site. Returns how
 * many works changed. (A refund restocks in its own transaction: api/orders/refund.ts.)
 */
export async function restockOrder(trx: Trx, id: string, now: Date): Promise<number> {
  const items = await trx
    .selectFrom('order_items')
    .select(['artwork_id', 'artwork_type', 'quantity'])
    .where('order_id', '=', id)
    .where('artwork_id', 'is not', null)
    .execute();
  let changed = 0;
  for (const item of items) {
    const update = trx
      .updateTable('artworks')
      .where('id', '=', item.artwork_id!)
      .where('archived_at', 'is', null);
    const result =
      item.artwork_type === 'original'
        ? await update
            .set({ is_sold: false, stock: 1, is_available: true, updated_at: now })
            .where('is_sold', '=', true)
            .executeTakeFirst()
        : await update
            .set((eb) => ({ stock: eb('stock', '+', item.quantity), updated_at: now }))
            .executeTakeFirst();
    changed += Number(result.numUpdatedRows);
  }
  return changed;
}

/** refundOrder's own refusals (not refundable, Stripe failed) carry the owner's French sentence. */
function refundRefusal(error: unknown): AppError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof Error) || (code !== 'not_refundable' && code !== 'refund_failed'))
    return null;
  return new AppError('rejected', { message: error.message, cause: error });
}

/** The change of one order's fulfilment status, with everything it implies (see the header). */
export async function changeOrderStatus(
  deps: StatusDeps,
  id: string,
  change: OrderStatusChange,
  actor: Actor,
): Promise<OrderStatusResult> {
  const { db } = deps;
  const to = change.status;
  const now = timeOf(deps);
  const current = await stateOf(db, orderId(id));
  const refused = refusal(current, to);
  if (refused) throw refused;

  // 'Annulée' on a paid order: the two questions must have been answered, never assumed.
  const cancelling = to === Fulfilment.cancelled;
  const paid = current.payment_status === Payment.paid;
  if (cancelling) {
    const fields: Record<string, string> = {};
    if (paid && change.refund === undefined) fields['refund'] = 'admin.orders.error.choose';
    if (change.restock === undefined) fields['restock'] = 'admin.orders.error.choose';
    if (Object.keys(fields).length > 0) throw new AppError('invalid_input', { fields });
    if (change.refund && !paid)
      throw new AppError('rejected', { message: 'cette commande a déjà été remboursée' });
  }
  const refunding = cancelling && paid && change.refund === true;
  let refundedCents: number | null = null;
  // A cancellation that follows the buyer's withdrawal says so: on the credit note, in the mail.
  const withdrawn = cancelling && (await withdrawalRequested(db, current.id));
  if (refunding) {
    if (!deps.refundOrder)
      throw new AppError('rejected', { message: 'le remboursement n’est pas disponible ici' });
    // The refund first (Stripe, once, idempotent): if it fails, the order is left as it was.
    try {
      await deps.refundOrder(db, current.id, {
        actor,
        restock: change.restock === true,
        reason: withdrawn ? 'withdrawal' : 'cancellation',
      });
    } catch (error) {
      throw refundRefusal(error) ?? error;
    }
  }

  const carrier = change.carrier || null;
  const trackingNumber = change.trackingNumber || null;
  let restocked = false;
  await db.transaction().execute(async (trx) => {
    const order = await stateOf(trx, current.id, true);
    // After a refund the refund may already have cancelled the order: nothing left to change.
    if (refunding && order.status === Fulfilment.cancelled) return;
    const again = refusal(order, to);
    if (again) throw again;
    const shipping = to === Fulfilment.shipped;
    await trx
      .updateTable('orders')
      .set({
        status: to,
        updated_at: now,
        ...(shipping ? { carrier, tracking_number: trackingNumber, shipped_at: now } : {}),
      })
      .where('id', '=', order.id)
      .execute();
    // Restocking without a refund is ours; with one, refundOrder did it.
    if (cancelling && !refunding && change.restock)
      restocked = (await restockOrder(trx, order.id, now)) > 0;
    if (cancelling && !refunding)
      await orderReturned(trx, order.id, now, 'cancellation', actor, {
        restock: change.restock === true,
      });
    await audit(
      trx,
      actor,
      'order.status',
      'order',
      order.id,
      {
        status: order.status,
        ...(shipping ? { carrier: order.carrier, trackingNumber: order.tracking_number } : {}),
      },
      {
        status: to,
        ...(shipping ? { carrier, trackingNumber } : {}),
        ...(cancelling ? { refund: refunding, restock: change.restock === true } : {}),
      },
    );
  });
  if (refunding) {
    restocked = change.restock === true;
    const after = await db
      .selectFrom('orders')
      .select('refunded_cents')
      .where('id', '=', current.id)
      .executeTakeFirstOrThrow();
    refundedCents = after.refunded_cents;
  }
  // Works back on sale change the public pages.
  if (restocked) requestPublish(`order ${current.order_number} cancelled, works back on sale`);

  let mail: OrderStatusResult['mail'] = null;
  if (to === Fulfilment.shipped && deps.mailer) {
    const summary = (await readOrder(db, { id: current.id }))!;
    const settings = await liveSettings(db);
    try {
      await deps.mailer.send(shippingMail(summary, { carrier, trackingNumber }, settings));
      mail = 'sent';
    } catch (error) {
      // The order is shipped whatever happens to the mail; the owner is told and it is logged.
      log.error(
        { err: error },
        `Order ${current.order_number}: the shipping mail could not be sent`,
      );
      mail = 'failed';
    }
  } else if (cancelling && deps.mailer && (paid || current.payment_status === Payment.refunded)) {
    // Issue 26: the buyer of a paid order hears of its cancellation, in their language, with
    // the credit note when it was refunded.
    mail = await sendCancellationMail(
      db,
      deps.mailer,
      current.id,
      refunding ? refundedCents : null,
      withdrawn,
    );
  }
  return {
    order: await getAdminOrder(db, current.id, deps.payments),
    mail,
    refundedCents,
    restocked,
  };
}

/** Whether the buyer withdrew from the order (decision 020). */
async function withdrawalRequested(db: Executor, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('withdrawal_requested_at')
    .where('id', '=', id)
    .executeTakeFirst();
  return Boolean(row?.withdrawal_requested_at);
}

/** The cancellation mail (api/mail/cancellation.ts); 'failed' is logged, the order stays cancelled. */
async function sendCancellationMail(
  db: Database,
  mailer: Mailer,
  id: string,
  refundedCents: number | null,
  withdrawal: boolean,
): Promise<'sent' | 'failed'> {
  const summary = (await readOrder(db, { id }))!;
  try {
    const settings = await liveSettings(db);
    const creditNote = refundedCents ? await mailedInvoice(db, id, 'credit_note') : null;
    await mailer.send(
      cancellationMail(summary, settings, { refundedCents, creditNote, withdrawal }),
    );
    return 'sent';
  } catch (error) {
    log.error({ err: error }, `Order ${summary.number}: the cancellation mail could not be sent`);
    return 'failed';
  }
}

// ── Refund of some lines, packing slip (issue 27) ───────────────────────────────────────────────

/** The refund of some lines (api/orders/refund-lines.ts), its refusals in the owner's words. */
export async function refundAdminOrderLines(
  deps: { db: Database; payments?: Payments | undefined; mailer?: Mailer | undefined },
  id: string,
  input: OrderLinesRefund,
  actor: Actor,
): Promise<OrderLinesRefundResult> {
  const order = await stateOf(deps.db, orderId(id));
  let result: Awaited<ReturnType<typeof refundLines>>;
  try {
    result = await refundLines(deps.db, order.id, input.items, { actor, restock: input.restock });
  } catch (error) {
    if (error instanceof LinesRefusedError)
      throw new AppError('rejected', { message: error.message, cause: error });
    throw refundRefusal(error) ?? error;
  }
  // The buyer hears of it, in the order's language, with the credit note (issue 27 §3).
  const mail = deps.mailer
    ? await sendPartialRefundMail(deps.db, deps.mailer, order.id, input.items, result.refundedCents)
    : null;
  return {
    order: await getAdminOrder(deps.db, order.id, deps.payments),
    refundedCents: result.refundedCents,
    creditNote: result.creditNote,
    restocked: result.restocked.length > 0,
    mail,
  };
}

/** The partial refund's mail; 'failed' is logged, the refund stands whatever happens to it. */
async function sendPartialRefundMail(
  db: Database,
  mailer: Mailer,
  id: string,
  itemIds: readonly number[],
  refundedCents: number,
): Promise<'sent' | 'failed'> {
  const summary = (await readOrder(db, { id }))!;
  try {
    const [settings, creditNote, items] = await Promise.all([
      liveSettings(db),
      mailedInvoice(db, id, 'credit_note'),
      db
        .selectFrom('order_items')
        .select(['id', 'title', 'artwork_type', 'quantity', 'unit_price_cents'])
        .where('order_id', '=', id)
        .where('id', 'in', [...itemIds])
        .orderBy('id')
        .execute(),
    ]);
    const lines = items.map((i) => ({
      title: i.title,
      type: i.artwork_type === 'original' ? ('original' as const) : ('print' as const),
      quantity: i.quantity,
      unitPriceCents: i.unit_price_cents,
      editions: [],
    }));
    await mailer.send(partialRefundMail(summary, settings, { refundedCents, lines, creditNote }));
    return 'sent';
  } catch (error) {
    log.error({ err: error }, `Order ${summary.number}: the partial refund mail could not be sent`);
    return 'failed';
  }
}

/** The packing slip of a listed order: where it goes and what is in it, without prices. */
export async function packingSlip(db: Executor, id: string): Promise<PackingSlip> {
  const o = await db
    .selectFrom('orders')
    .select([
      'id',
      'order_number',
      'customer_name',
      'customer_phone',
      'shipping_address',
      'paid_at',
      'created_at',
      'locale',
    ])
    .where('id', '=', orderId(id))
    .where('payment_status', 'in', LISTED)
    .executeTakeFirst();
  if (!o) throw notFound();
  const [items, editions, settings] = await Promise.all([
    db
      .selectFrom('order_items as i')
      .leftJoin('artworks as a', 'a.id', 'i.artwork_id')
      .select([
        'i.id',
        'i.title',
        'i.artwork_type',
        'i.quantity',
        'i.refunded_at',
        'a.dimensions',
        'a.technique_fr',
        'a.year',
      ])
      .where('i.order_id', '=', o.id)
      .orderBy('i.id')
      .execute(),
    editionLabelsOfItems(db, [o.id]),
    liveSettings(db),
  ]);
  const legal = settings.legal_identity;
  return {
    number: o.order_number,
    date: iso(o.paid_at ?? o.created_at),
    customerName: o.customer_name,
    phone: o.customer_phone,
    shippingLines: addressLines(o.shipping_address, 'fr'),
    // The legal address keeps its line breaks (issue 27 item 6).
    seller: {
      name: legal.name.trim() || settings.site_title,
      lines: (legal.address.trim() || settings.contact_address)
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    },
    // A refunded work is not in the parcel.
    lines: items
      .filter((i) => i.refunded_at === null)
      .map((i) => ({
        title: i.title,
        type: i.artwork_type === 'original' ? ('original' as const) : ('print' as const),
        quantity: i.quantity,
        dimensions: (i.dimensions ?? '').trim(),
        technique: (i.technique_fr ?? '').trim(),
        year: i.year ?? null,
        editions: editions.get(i.id) ?? [],
      })),
  };
}

// ── CSV export ──────────────────────────────────────────────────────────────────────────────────

export const CSV_HEADER = [
  'Commande',
  'Date',
  'Client',
  'Email',
  'Statut',
  'Paiement',
  'Sous-total',
  'Remise',
  'Livraison',
  'Total',
  'Devise',
  'Code promo',
] as const;

/**
 * One CSV cell for a French spreadsheet: a text that a spreadsheet would run as a formula
 * (= + - @, tab, carriage return first) gets a leading apostrophe (OWASP "CSV injection"); quoted
 * when it holds the separator, a quote or a line break.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** UTF-8 with a BOM, ';' between cells, CRLF between lines: what Excel in French opens as is. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(';')).join('\r\n')}\r\n`;
}

/** 185000 → '1850,00': the French decimal comma, no thousands separator (a number, not text). */
export function csvAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

const csvDate = new Intl.DateTimeFormat('fr-FR', {
  timeZone: SHOP_TIME_ZONE,
  dateStyle: 'short',
  timeStyle: 'short',
});

/** Every order matching the list's search and filter (all pages), in the list's order. */
export async function exportOrdersCsv(
  db: Database,
  query: Pick<OrderListQuery, 'q' | 'status' | 'sort' | 'dir'>,
): Promise<string> {
  const rows = await matching(db, query)
    .select([
      'o.order_number',
      'o.paid_at',
      'o.created_at',
      'o.customer_name',
      'o.customer_email',
      'o.status',
      'o.payment_status',
      'o.subtotal_cents',
      'o.discount_cents',
      'o.shipping_cents',
      'o.total_cents',
      'o.currency',
      'o.promo_code',
    ])
    .orderBy(SORTS[query.sort], query.dir)
    .orderBy('o.id', query.dir)
    .execute();
  return toCsv([
    CSV_HEADER,
    ...rows.map((o) => [
      o.order_number,
      csvDate.format(new Date(o.paid_at ?? o.created_at)),
      o.customer_name,
      o.customer_email,
      label(o.status),
      paymentLabel(o.payment_status).text,
      csvAmount(o.subtotal_cents),
      csvAmount(o.discount_cents),
      csvAmount(o.shipping_cents),
      csvAmount(o.total_cents),
      o.currency,
      o.promo_code ?? '',
    ]),
  ]);
}
