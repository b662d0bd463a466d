// What the account page shows (storefront §2 "Account", §3 customer order and subscription views):
// the orders placed while signed in to the account, and — only once the address is verified — the
// guest orders placed with its address (docs/decisions/010). Everything is read by user id, on the
// server; nothing a browser sends can widen it to someone else's orders.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../db/index.ts';
import { BUYER_ORDER_COLUMNS, buyerOrders } from '../orders/view.ts';
import { Payment } from '../../src/domain/order-status.ts';
import type { AccountOrder, AccountWithdrawal } from '../../src/schemas/views.ts';

/**
 * An order on the account page: as the buyer sees it, with its works (api/orders/view.ts) and its
 * withdrawal, if one was sent (issue 25 §9).
 */
export type { AccountOrder, AccountWithdrawal };

export interface AccountSubscription {
  status: string;
  priceId: string | null;
  currentPeriodEnd: string | null;
}

/** More than any one buyer of a gallery will have; keeps the answer bounded. */
export const ACCOUNT_ORDERS_LIMIT = 200;

/** The account as its orders are found by: its id, and its address once verified. */
export async function owner(
  db: Executor,
  userId: string,
): Promise<{ id: string; verifiedEmail: string | null } | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'email_verified_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return { id: row.id, verifiedEmail: row.email_verified_at ? row.email.toLowerCase() : null };
}

/**
 * The rows (of `orders` or `subscriptions`, the only table of the query) that are the account's:
 * placed while signed in to it, or — once its address is verified — as a guest with that address.
 * The one ownership rule of the account page and of the signed-in withdrawal (decision 039).
 */
export function ownedBy(me: { id: string; verifiedEmail: string | null }): RawBuilder<SqlBool> {
  return me.verifiedEmail
    ? sql<SqlBool>`(user_id = ${me.id} OR (user_id IS NULL AND lower(customer_email) = ${me.verifiedEmail}))`
    : sql<SqlBool>`user_id = ${me.id}`;
}

/**
 * The account's orders, newest first. Checkouts that expired without payment are left out (they
 * never became purchases). The address and its verification are re-read here, not trusted from
 * the caller.
 */
export async function listAccountOrders(
  db: Executor,
  user: { id: string },
): Promise<AccountOrder[]> {
  const me = await owner(db, user.id);
  if (!me) return [];
  const rows = await db
    .selectFrom('orders')
    .select(BUYER_ORDER_COLUMNS)
    .where(ownedBy(me))
    .where('payment_status', '!=', Payment.expired)
    .orderBy('created_at', 'desc')
    .orderBy('order_number', 'desc')
    .limit(ACCOUNT_ORDERS_LIMIT)
    .execute();
  const [orders, withdrawals] = await Promise.all([
    buyerOrders(db, rows),
    withdrawalsOf(
      db,
      rows.map((row) => row.id),
    ),
  ]);
  return orders.map((order, i) => ({ ...order, withdrawal: withdrawals.get(rows[i]!.id) ?? null }));
}

/**
 * The withdrawals of these orders, by order id: the statement not disowned (at most one per order,
 * a partial unique index), with the order's refund once made. An order marked withdrawn before
 * statements were kept (withdrawal_requested_at, no row) counts as confirmed on that date.
 */
async function withdrawalsOf(
  db: Executor,
  orderIds: readonly string[],
): Promise<Map<string, AccountWithdrawal>> {
  const found = new Map<string, AccountWithdrawal>();
  if (orderIds.length === 0) return found;
  const rows = await db
    .selectFrom('orders as o')
    .leftJoin('withdrawals as w', (join) =>
      join.onRef('w.order_id', '=', 'o.id').on('w.state', '!=', 'disowned'),
    )
    .select([
      'o.id',
      'o.withdrawal_requested_at',
      'o.refunded_at',
      'o.refunded_cents',
      'w.state',
      'w.requested_at',
    ])
    .where('o.id', 'in', orderIds)
    .where((eb) =>
      eb.or([eb('w.id', 'is not', null), eb('o.withdrawal_requested_at', 'is not', null)]),
    )
    .execute();
  for (const row of rows) {
    const requestedAt = row.requested_at ?? row.withdrawal_requested_at;
    if (!requestedAt) continue;
    const pending = row.state === 'pending';
    const refunded = !pending && row.refunded_at !== null;
    found.set(row.id, {
      state: pending ? 'requested' : refunded ? 'refunded' : 'confirmed',
      requestedAt: new Date(requestedAt).toISOString(),
      refundedAt: refunded && row.refunded_at ? new Date(row.refunded_at).toISOString() : null,
      refundedCents: refunded ? row.refunded_cents : 0,
    });
  }
  return found;
}

/** The account's subscription (the most recently updated one), by the same ownership rule. */
export async function getSubscription(
  db: Executor,
  user: { id: string },
): Promise<AccountSubscription | null> {
  const me = await owner(db, user.id);
  if (!me) return null;
  const row = await db
    .selectFrom('subscriptions')
    .select(['status', 'price_id', 'current_period_end'])
    .where(ownedBy(me))
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    status: row.status,
    priceId: row.price_id,
    currentPeriodEnd: row.current_period_end ? row.current_period_end.toISOString() : null,
  };
}

/** Both at once, as `GET /api/account/orders` answers and the account page renders. */
export async function getAccountOverview(
  db: Executor,
  user: { id: string },
): Promise<{ orders: AccountOrder[]; subscription: AccountSubscription | null }> {
  const [orders, subscription] = await Promise.all([
    listAccountOrders(db, user),
    getSubscription(db, user),
  ]);
  return { orders, subscription };
}
