// The back office's customers (back office §2 "Customer management", §8, §9; issue 13): the list
// searched, sorted and paged in SQL, one customer's detail with their order history, and the two
// data requests a customer may make (GDPR, issue 13 point 8): everything held about them as JSON,
// and erasure — the account and personal data gone, the orders anonymised, invoices and amounts
// kept as accounting law requires.
//
// A customer is an e-mail address, lower-cased: a customer account (role 'customer') or a buyer
// whose order was paid (payment paid or refunded), so a registered customer with no order is one
// too. Orders and amounts count sales only (api/orders/sales.ts: paid, not cancelled, net of
// refunds); the history shows every paid or refunded order. The table customer_summaries holds
// that fold, kept by the database's own triggers (migration 20261123_0700), so a page reads 20 000
// rows at most instead of folding 100 000 orders. Beside the sales each row says how many paid
// orders were refunded or cancelled since (issue 27 §6): a refunded buyer reads 'Commandes 0
// (1 remboursée)' next to her 'Dernière commande', not a bare 0 that the date seems to contradict.
import { createHash, randomBytes } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { CustomerRow, CustomerSort } from '../../src/schemas/admin-orders.ts';
import { CUSTOMERS_PAGE_SIZE } from '../../src/schemas/admin-orders.ts';
import {
  confirmsErase,
  ERASE_MISMATCH,
  type CustomerDetailView,
  type CustomerErase,
  type CustomerExport,
  type CustomerListQuery,
  type CustomerListView,
  type EraseResult,
  type EraseScheduled,
} from '../../src/schemas/admin-customers.ts';
import {
  FULFILMENT_STATUSES,
  Payment,
  type FulfilmentStatus,
} from '../../src/domain/order-status.ts';
import { clearAccountThrottle } from '../accounts/throttle.ts';
import { timeOf, type Clock } from '../clock.ts';
import type { Database, Executor } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { isSale, parisDay, parisMidnight } from '../orders/sales.ts';
import { liveSettings } from '../settings/index.ts';
import { audit, type Actor } from './audit.ts';
import { openOrders, runScheduledErasures } from './erasure.ts';

/** What an erased order's buyer is called (issue 13 point 8). */
export const ERASED_NAME = 'Client effacé';

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();
const num = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

/** The identity of a customer: the address, lower-cased (the triggers' `lower()` agrees). */
export const customerKey = (email: string): string => email.trim().toLowerCase();

/** How the audit log names a customer without keeping their address in clear. */
export const customerHash = (email: string): string =>
  createHash('sha256').update(customerKey(email)).digest('hex');

/** A LIKE pattern finding the text anywhere, `\\`, `%` and `_` taken literally. */
const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** §2: each sortable column's value; missing values ('Jamais', 'Client sans nom') go last. */
const SORT_COLUMN: Record<CustomerSort, string> = {
  name: 'sort_name',
  registered: 'registered_at',
  lastSignIn: 'last_sign_in_at',
  orders: 'orders',
  spent: 'spent_cents',
  lastOrder: 'last_order_at',
};

function orderBy(query: CustomerListQuery): RawBuilder<unknown> {
  // The address breaks ties, so a page never repeats or skips a customer.
  // Byte order ("C"): the name is folded already, and the order must not hang on the server's locale.
  if (!query.sort) return sql`first_seen_at DESC NULLS LAST, key COLLATE "C" ASC`;
  const column =
    query.sort === 'name' ? sql`sort_name COLLATE "C"` : sql.ref(SORT_COLUMN[query.sort]);
  return query.dir === 'desc'
    ? sql`${column} DESC NULLS LAST, key COLLATE "C" DESC`
    : sql`${column} ASC NULLS LAST, key COLLATE "C" ASC`;
}

interface SummaryRow {
  key: string;
  email: string;
  name: string | null;
  user_id: string | null;
  registered_at: Date | null;
  last_sign_in_at: Date | null;
  orders: number;
  spent_cents: string | number;
  first_order_at: Date | null;
  last_order_at: Date | null;
}

const SUMMARY = sql`key, email, name, user_id, registered_at, last_sign_in_at, orders,
  spent_cents, first_order_at, last_order_at`;

type Uncounted = Pick<CustomerRow, 'refunded' | 'cancelled'>;

/**
 * The paid orders of these customers that are not sales: refunded, or cancelled with the refund
 * still to make. A page's ten addresses through the orders' (lower(customer_email)) index.
 */
async function uncountedOrders(db: Executor, keys: string[]): Promise<Map<string, Uncounted>> {
  if (keys.length === 0) return new Map();
  const { rows } = await sql<{
    key: string;
    refunded: string | number;
    cancelled: string | number;
  }>`
    SELECT lower(o.customer_email) AS key,
           count(*) FILTER (WHERE o.payment_status = ${Payment.refunded}) AS refunded,
           count(*) FILTER (WHERE o.payment_status = ${Payment.paid} AND NOT ${isSale('o')}) AS cancelled
    FROM orders o
    WHERE lower(o.customer_email) IN (${sql.join(keys)})
      AND o.payment_status IN (${Payment.paid}, ${Payment.refunded})
    GROUP BY 1`.execute(db);
  return new Map(
    rows.map((r) => [r.key, { refunded: num(r.refunded), cancelled: num(r.cancelled) }]),
  );
}

function row(r: SummaryRow, uncounted: Map<string, Uncounted>): CustomerRow {
  const other = uncounted.get(r.key);
  return {
    email: r.email,
    name: r.name,
    registeredAt: iso(r.registered_at),
    lastSignInAt: iso(r.last_sign_in_at),
    orders: num(r.orders),
    spentCents: num(r.spent_cents),
    refunded: other?.refunded ?? 0,
    cancelled: other?.cancelled ?? 0,
    lastOrderAt: iso(r.last_order_at),
    hasAccount: r.user_id !== null,
  };
}

/** GET /api/admin/customers: the stat cards, the count matching the search, one page. */
export async function listCustomers(
  db: Database,
  query: CustomerListQuery,
  deps: { now?: Clock } = {},
): Promise<CustomerListView> {
  // §9: 'Nouveaux ce mois' is the Paris calendar month of the first appearance.
  const monthStart = parisMidnight(`${parisDay(timeOf(deps)).slice(0, 8)}01`);
  // The typed text is folded by the same SQL function as the stored one (which leaves the LIKE
  // escapes alone), so accents and case never stand between the owner and a customer.
  const q = query.q.trim();
  const match = q
    ? sql<boolean>`search_folded LIKE customer_fold(${containing(q)})`
    : sql<boolean>`true`;

  const page = (n: number) =>
    sql<SummaryRow>`SELECT ${SUMMARY} FROM customer_summaries WHERE ${match}
      ORDER BY ${orderBy(query)} LIMIT ${CUSTOMERS_PAGE_SIZE} OFFSET ${(n - 1) * CUSTOMERS_PAGE_SIZE}`.execute(
      db,
    );
  const [counts, first, settings] = await Promise.all([
    sql<{ total: string; with_orders: string; new_this_month: string; matching: string }>`
      SELECT count(*) AS total,
             count(*) FILTER (WHERE orders > 0) AS with_orders,
             count(*) FILTER (WHERE first_seen_at >= ${monthStart}) AS new_this_month,
             count(*) FILTER (WHERE ${match}) AS matching
      FROM customer_summaries`.execute(db),
    page(query.page),
    liveSettings(db),
  ]);
  const c = counts.rows[0]!;
  const matching = num(c.matching);
  const pages = Math.max(1, Math.ceil(matching / CUSTOMERS_PAGE_SIZE));
  // A page past the end (the search narrowed the list) shows the last one.
  const at = Math.min(query.page, pages);
  const rows = at === query.page ? first.rows : (await page(at)).rows;
  const uncounted = await uncountedOrders(
    db,
    rows.filter((r) => r.last_order_at !== null).map((r) => r.key),
  );
  return {
    stats: {
      total: num(c.total),
      withOrders: num(c.with_orders),
      newThisMonth: num(c.new_this_month),
    },
    matching,
    page: at,
    pages,
    customers: rows.map((r) => row(r, uncounted)),
    currency: settings.currency,
  };
}

function fulfilment(value: string): FulfilmentStatus {
  return (FULFILMENT_STATUSES as readonly string[]).includes(value)
    ? (value as FulfilmentStatus)
    : 'pending';
}

/** GET /api/admin/customers/detail?email=: identity, dates, purchases, order history. */
export async function customerDetail(db: Database, email: string): Promise<CustomerDetailView> {
  const key = customerKey(email);
  const [summary, history, settings, uncounted] = await Promise.all([
    sql<SummaryRow>`SELECT ${SUMMARY} FROM customer_summaries WHERE key = ${key}`.execute(db),
    db
      .selectFrom('orders')
      .select([
        'id',
        'order_number',
        'paid_at',
        'created_at',
        'total_cents',
        'currency',
        'status',
        'payment_status',
      ])
      .where(sql<string>`lower(customer_email)`, '=', key)
      .where('payment_status', 'in', [Payment.paid, Payment.refunded])
      .orderBy(sql`coalesce(paid_at, created_at)`, 'desc')
      .orderBy('order_number', 'desc')
      .execute(),
    liveSettings(db),
    uncountedOrders(db, [key]),
  ]);
  const found = summary.rows[0];
  if (!found) throw new AppError('not_found', { message: 'No such customer.' });
  const base = row(found, uncounted);
  return {
    ...base,
    averageCents: base.orders === 0 ? 0 : Math.round(base.spentCents / base.orders),
    firstOrderAt: iso(found.first_order_at),
    currency: settings.currency,
    history: history.map((o) => ({
      id: o.id,
      number: o.order_number,
      date: iso(o.paid_at ?? o.created_at)!,
      totalCents: o.total_cents,
      currency: o.currency,
      fulfilment: fulfilment(o.status),
      payment: o.payment_status,
    })),
  };
}

/** The customer account of an address (never an administrator's), if any. */
async function accountOf(db: Executor, key: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'full_name',
      'role',
      'created_at',
      'updated_at',
      'last_sign_in_at',
      'email_verified_at',
    ])
    .where(sql<string>`lower(email)`, '=', key)
    .executeTakeFirst();
}

/** The orders a customer's data lives in: placed with the address, or from their account. */
function ordersOf(db: Executor, key: string, userId: string | null) {
  return db
    .selectFrom('orders')
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(customer_email)`, '=', key),
        ...(userId ? [eb('user_id', '=', userId)] : []),
      ]),
    );
}

/**
 * GET /api/admin/customers/export?email=: everything held about the address (GDPR art. 15) —
 * the account without its password or token hashes, every order with its lines, addresses,
 * invoices and withdrawals, the contact messages and enquiries sent from it, subscriptions, and
 * the back office's audit entries about them.
 */
export async function exportCustomer(
  db: Database,
  email: string,
  deps: { now?: Clock } = {},
): Promise<CustomerExport> {
  const key = customerKey(email);
  const account = await accountOf(db, key);
  const userId = account?.id ?? null;
  const orders = await ordersOf(db, key, userId)
    .selectAll()
    .orderBy('created_at')
    .orderBy('order_number')
    .execute();
  const orderIds = orders.map((o) => o.id);
  const none = ['00000000-0000-0000-0000-000000000000'];
  const ids = orderIds.length ? orderIds : none;
  const [lines, invoices, withdrawals, messages, subscriptions, sessions, entries] =
    await Promise.all([
      db
        .selectFrom('order_items')
        .select(['order_id', 'title', 'artwork_type', 'quantity', 'unit_price_cents'])
        .where('order_id', 'in', ids)
        .orderBy('id')
        .execute(),
      db
        .selectFrom('invoices')
        .select(['order_id', 'kind', 'number', 'issued_at', 'total_cents'])
        .where('order_id', 'in', ids)
        .orderBy('issued_at')
        .execute(),
      db
        .selectFrom('withdrawals')
        .select(['order_id', 'requested_at', 'locale', 'statement', 'state', 'confirmed_at'])
        .where('order_id', 'in', ids)
        .execute(),
      db
        .selectFrom('contact_messages')
        .select([
          'created_at',
          'kind',
          'work_title',
          'name',
          'email',
          'subject',
          'message',
          'locale',
        ])
        .where(sql<string>`lower(email)`, '=', key)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('subscriptions')
        .select(['created_at', 'status', 'price_id', 'current_period_end'])
        .where((eb) =>
          eb.or([
            eb(sql<string>`lower(customer_email)`, '=', key),
            ...(userId ? [eb('user_id', '=', userId)] : []),
          ]),
        )
        .orderBy('created_at')
        .execute(),
      userId
        ? db
            .selectFrom('sessions')
            .select(['created_at', 'expires_at'])
            .where('user_id', '=', userId)
            .orderBy('created_at')
            .execute()
        : Promise.resolve([]),
      db
        .selectFrom('audit_log')
        .select(['at', 'actor_email', 'action', 'entity', 'entity_id', 'before', 'after'])
        .where((eb) =>
          eb.or([
            eb.and([eb('entity', '=', 'order'), eb('entity_id', 'in', ids)]),
            eb.and([eb('entity', '=', 'customer'), eb('entity_id', '=', customerHash(key))]),
            ...(userId
              ? [
                  eb.and([eb('entity', '=', 'user'), eb('entity_id', '=', userId)]),
                  eb('actor_id', '=', userId),
                ]
              : []),
          ]),
        )
        .orderBy('id')
        .execute(),
    ]);
  if (!account && orders.length === 0 && messages.length === 0)
    throw new AppError('not_found', { message: 'No such customer.' });
  const byOrder = <T extends { order_id: string }>(items: T[], id: string) =>
    items.filter((item) => item.order_id === id);
  return {
    exportedAt: timeOf(deps).toISOString(),
    email: key,
    account: account
      ? {
          id: account.id,
          email: account.email,
          fullName: account.full_name,
          role: account.role,
          createdAt: iso(account.created_at)!,
          updatedAt: iso(account.updated_at)!,
          lastSignInAt: iso(account.last_sign_in_at),
          emailVerifiedAt: iso(account.email_verified_at),
          sessions: sessions.map((s) => ({
            createdAt: iso(s.created_at)!,
            expiresAt: iso(s.expires_at)!,
          })),
        }
      : null,
    orders: orders.map((o) => ({
      id: o.id,
      number: o.order_number,
      createdAt: iso(o.created_at)!,
      paidAt: iso(o.paid_at),
      customerName: o.customer_name,
      customerEmail: o.customer_email,
      customerPhone: o.customer_phone,
      shippingAddress: o.shipping_address,
      billingAddress: o.billing_address,
      locale: o.locale,
      currency: o.currency,
      subtotalCents: o.subtotal_cents,
      promoCode: o.promo_code,
      discountCents: o.discount_cents,
      shippingCents: o.shipping_cents,
      totalCents: o.total_cents,
      paymentStatus: o.payment_status,
      paymentMethod: o.payment_method,
      fulfilment: o.status,
      carrier: o.carrier,
      trackingNumber: o.tracking_number,
      shippedAt: iso(o.shipped_at),
      refundedCents: o.refunded_cents,
      refundedAt: iso(o.refunded_at),
      withdrawalRequestedAt: iso(o.withdrawal_requested_at),
      erasedAt: iso(o.erased_at),
      lines: byOrder(lines, o.id).map((l) => ({
        title: l.title,
        type: l.artwork_type,
        quantity: l.quantity,
        unitPriceCents: l.unit_price_cents,
      })),
      invoices: byOrder(invoices, o.id).map((i) => ({
        kind: i.kind,
        number: i.number,
        issuedAt: iso(i.issued_at)!,
        totalCents: i.total_cents,
      })),
      withdrawals: byOrder(withdrawals, o.id).map((w) => ({
        requestedAt: iso(w.requested_at)!,
        locale: w.locale,
        statement: w.statement,
        state: w.state,
        confirmedAt: iso(w.confirmed_at),
      })),
    })),
    contactMessages: messages.map((m) => ({
      createdAt: iso(m.created_at)!,
      kind: m.kind,
      work: m.work_title,
      name: m.name,
      email: m.email,
      subject: m.subject,
      message: m.message,
      locale: m.locale,
    })),
    subscriptions: subscriptions.map((s) => ({
      createdAt: iso(s.created_at)!,
      status: s.status,
      priceId: s.price_id,
      currentPeriodEnd: iso(s.current_period_end),
    })),
    audit: entries.map((e) => ({
      at: iso(e.at)!,
      actor: e.actor_email,
      action: e.action,
      entity: e.entity,
      entityId: e.entity_id,
      before: e.before,
      after: e.after,
    })),
  };
}

/**
 * POST /api/admin/customers/erase (GDPR art. 17), in one transaction: the customer account
 * deleted (its sessions, reset tokens and subscriptions go with it, by their foreign keys); every
 * order placed with the address or from the account anonymised — name 'Client effacé', address
 * 'efface-<id>@invalid' shared by all of them (still one customer in the figures), no phone, the
 * postal addresses emptied but for the country (it decides the sale's VAT), erased_at set — while
 * their amounts stay; the contact messages and enquiries sent from the address deleted; the login
 * throttle's entry dropped. Issued invoices are never touched: their snapshot keeps the buyer as
 * the law keeps invoices (ten years, French commercial code L123-22), and the database refuses
 * changes. Audited as 'customer.erase' under the address's SHA-256, never in clear.
 */
export async function eraseCustomer(
  db: Database,
  input: CustomerErase,
  actor: Actor,
  deps: { now?: Clock } = {},
): Promise<EraseResult | EraseScheduled> {
  if (!confirmsErase(input.email, input.confirmation))
    throw new AppError('invalid_input', { fields: { confirmation: ERASE_MISMATCH } });
  const result = await eraseAddress(db, customerKey(input.email), actor, {
    now: timeOf(deps),
    whenClosed: input.whenClosed === true,
  });
  if (result === 'still_open' || result === 'gone') throw new Error('unreachable');
  return result;
}

/** The erasures asked for while orders were open, carried out once they closed (the sweeper). */
export function runErasuresDue(db: Database, now?: Date): Promise<number> {
  return runScheduledErasures(
    db,
    (key, actor, at) => eraseAddress(db, key, actor, { now: at, scheduledRun: true }),
    now,
  );
}

async function eraseAddress(
  db: Database,
  key: string,
  actor: Actor,
  options: { now: Date; whenClosed?: boolean; scheduledRun?: boolean },
): Promise<EraseResult | EraseScheduled | 'still_open' | 'gone'> {
  const { now } = options;
  const pseudonym = `efface-${randomBytes(4).toString('hex')}@invalid`;
  return db.transaction().execute(async (trx) => {
    const account = await accountOf(trx, key);
    if (account && account.role !== 'customer')
      throw new AppError('rejected', {
        message:
          "Cette adresse est celle d'un administrateur : son compte ne peut pas être effacé.",
      });
    const userId = account?.id ?? null;
    const orders = await ordersOf(trx, key, userId)
      .select([
        'id',
        'total_cents',
        'order_number',
        'status',
        'payment_status',
        'paid_at',
        'shipped_at',
        'created_at',
        'withdrawal_requested_at',
        'refund_pending_at',
      ])
      .forUpdate()
      .execute();
    // An open order still needs the customer's name and address: refuse, or erase later.
    const open = await openOrders(trx, orders, now);
    if (open.length > 0) {
      if (options.scheduledRun) return 'still_open';
      if (!options.whenClosed) throw new AppError('erase_blocked', { details: { orders: open } });
      await trx
        .insertInto('erasure_requests')
        .values({
          email_key: key,
          requested_at: now,
          requested_by: actor.id,
          requested_by_email: actor.email,
        })
        .onConflict((oc) =>
          oc.column('email_key').doUpdateSet({
            requested_at: now,
            requested_by: actor.id,
            requested_by_email: actor.email,
          }),
        )
        .execute();
      await audit(trx, actor, 'customer.erase_scheduled', 'customer', customerHash(key), null, {
        openOrders: open.map((o) => o.number),
      });
      return { scheduled: true, openOrders: open };
    }
    const messages = await trx
      .deleteFrom('contact_messages')
      .where(sql<string>`lower(email)`, '=', key)
      .executeTakeFirst();
    const contactMessagesDeleted = Number(messages.numDeletedRows);
    const requested = await trx
      .deleteFrom('erasure_requests')
      .where('email_key', '=', key)
      .executeTakeFirst();
    if (!account && orders.length === 0 && contactMessagesDeleted === 0) {
      if (options.scheduledRun) return 'gone';
      throw new AppError('not_found', { message: 'No such customer.' });
    }
    if (orders.length > 0)
      await trx
        .updateTable('orders')
        .set({
          customer_name: ERASED_NAME,
          customer_email: pseudonym,
          customer_phone: null,
          shipping_address: sql`(SELECT coalesce(jsonb_object_agg(k,
            CASE WHEN k = 'country' THEN v ELSE '""'::jsonb END), '{}'::jsonb)
            FROM jsonb_each(CASE WHEN jsonb_typeof(shipping_address) = 'object'
              THEN shipping_address ELSE '{}'::jsonb END) AS e(k, v))`,
          billing_address: null,
          user_id: null,
          cart_id: null,
          erased_at: now,
          updated_at: now,
        })
        .where(
          'id',
          'in',
          orders.map((o) => o.id),
        )
        .execute();
    // Certificates of authenticity keep the work's history, not the person (decision 046).
    await trx
      .updateTable('certificates')
      .set({ holder_email: pseudonym })
      .where(sql<string>`lower(holder_email)`, '=', key)
      .execute();
    await trx
      .updateTable('certificate_transfers')
      .set({ new_owner_email: pseudonym })
      .where(sql<string>`lower(new_owner_email)`, '=', key)
      .execute();
    await trx
      .deleteFrom('subscriptions')
      .where(sql<string>`lower(customer_email)`, '=', key)
      .execute();
    if (userId) await trx.deleteFrom('users').where('id', '=', userId).execute();
    await clearAccountThrottle(trx, key);
    await audit(
      trx,
      actor,
      'customer.erase',
      'customer',
      customerHash(key),
      {
        account: userId !== null,
        orders: orders.length,
        totalCents: orders.reduce((sum, o) => sum + o.total_cents, 0),
        contactMessages: contactMessagesDeleted,
      },
      {
        pseudonym,
        erasedAt: now.toISOString(),
        // Asked for while orders were open, carried out by the server once they closed.
        ...(Number(requested.numDeletedRows) > 0 && options.scheduledRun && { scheduled: true }),
      },
    );
    return {
      pseudonym,
      accountDeleted: userId !== null,
      ordersAnonymised: orders.length,
      contactMessagesDeleted,
    };
  });
}
