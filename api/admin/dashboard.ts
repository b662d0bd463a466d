// The dashboard (back office §2 "Dashboard", issues 11 and 27): the spec's four figures — revenue
// and number of the sales (api/orders/sales.ts: paid, not cancelled, net of refunds; the analytics
// use the same rule), works online, paid orders waiting to be shipped — then what the owner has
// to do (orders to ship, confirmed withdrawals not refunded yet, unread messages, the required
// legal identity, the second factor), the five latest paid orders and the revenue of the last 30
// Paris days (the days the database folds sales into, sales_days). Abandoned or expired checkouts
// never count.
import { sql } from 'kysely';
import {
  FULFILMENT_LABELS,
  Fulfilment,
  Payment,
  type FulfilmentStatus,
} from '../../src/domain/order-status.ts';
import { LEGAL_FIELD_LABELS, missingLegalFields } from '../../src/domain/legal.ts';
import type { Dashboard, DashboardDay } from '../../src/schemas/dashboard.ts';
import { secondFactorStatus } from '../accounts/second-factor.ts';
import { timeOf, type Clock } from '../clock.ts';
import type { Database } from '../db/index.ts';
import { addDays, isSale, parisDay, saleAmount } from '../orders/sales.ts';
import { liveSettings } from '../settings/index.ts';
import { unreadMessages } from './messages.ts';

export type { Dashboard };

/** Days of the revenue sparkline, today included. */
export const DASHBOARD_DAYS = 30;
/** Withdrawals listed one by one; more is a dispute, not a day's work. */
const WITHDRAWALS_LISTED = 20;

export interface DashboardOptions {
  /** The signed-in administrator: whether they have a second factor. Without one, it counts as on. */
  userId?: string | undefined;
  now?: Clock;
}

/** The last `DASHBOARD_DAYS` Paris days ending on `today`, each with its sales (0 without). */
export async function salesByDay(db: Database, today: string): Promise<DashboardDay[]> {
  const from = addDays(today, -(DASHBOARD_DAYS - 1));
  const rows = await db
    .selectFrom('sales_days')
    .select([sql<string>`day::text`.as('day'), 'revenue_cents', 'orders'])
    .where('day', '>=', from)
    .where('day', '<=', today)
    .execute();
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: DASHBOARD_DAYS }, (_, i) => {
    const day = addDays(from, i);
    const row = byDay.get(day);
    return { day, revenueCents: Number(row?.revenue_cents ?? 0), orders: Number(row?.orders ?? 0) };
  });
}

export async function dashboard(db: Database, options: DashboardOptions = {}): Promise<Dashboard> {
  const today = parisDay(timeOf(options));
  const [orders, works, recent, withdrawals, unread, settings, secondFactor, last30] =
    await Promise.all([
      db
        .selectFrom('orders')
        .where(isSale())
        .select([
          sql<string>`coalesce(sum(${saleAmount()}), 0)`.as('revenue'),
          sql<string>`count(*)`.as('paid'),
          sql<string>`count(*) FILTER (WHERE status IN (${Fulfilment.pending}, ${Fulfilment.confirmed}))`.as(
            'awaiting',
          ),
          sql<string>`count(*) FILTER (WHERE status = ${Fulfilment.pending})`.as('pending'),
        ])
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('artworks')
        .where('is_available', '=', true)
        .where('archived_at', 'is', null)
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('orders')
        .where('payment_status', '=', Payment.paid)
        .select([
          'id',
          'order_number',
          'customer_name',
          'total_cents',
          'currency',
          'status',
          'paid_at',
          'created_at',
        ])
        .orderBy(sql`coalesce(paid_at, created_at)`, 'desc')
        .limit(5)
        .execute(),
      // A confirmed withdrawal (docs/decisions/039) is the owner's to settle until the refund
      // turns the payment 'refunded'.
      db
        .selectFrom('orders')
        .where('withdrawal_requested_at', 'is not', null)
        .where('payment_status', '=', Payment.paid)
        .select(['id', 'order_number'])
        .orderBy('withdrawal_requested_at')
        .limit(WITHDRAWALS_LISTED)
        .execute(),
      unreadMessages(db),
      liveSettings(db),
      options.userId ? secondFactorStatus(db, options.userId) : Promise.resolve({ enabled: true }),
      salesByDay(db, today),
    ]);
  return {
    revenueCents: Number(orders.revenue),
    paidOrders: Number(orders.paid),
    worksOnline: Number(works.n),
    awaitingShipment: Number(orders.awaiting),
    awaitingPending: Number(orders.pending),
    unreadMessages: unread,
    withdrawals: withdrawals.map((o) => ({ id: o.id, number: o.order_number })),
    legalMissing: missingLegalFields(settings.legal_identity).map((f) => LEGAL_FIELD_LABELS[f]),
    secondFactorOn: secondFactor.enabled,
    recent: recent.map((o) => {
      const status = o.status as FulfilmentStatus;
      return {
        id: o.id,
        number: o.order_number,
        customer: o.customer_name,
        totalCents: o.total_cents,
        currency: o.currency,
        status,
        statusLabel: FULFILMENT_LABELS[status] ?? o.status,
        date: new Date(o.paid_at ?? o.created_at).toISOString(),
      };
    }),
    last30,
  };
}
