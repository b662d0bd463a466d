// The dashboard's figures (back office §2 "Dashboard", issue 11): revenue and number of the sales
// (api/orders/sales.ts: paid, not cancelled, net of refunds — the analytics use the same rule),
// works online, paid orders waiting to be shipped, the five latest paid orders, and the messages
// not yet read (issue 25). Abandoned or expired checkouts never count.
import { sql } from 'kysely';
import {
  FULFILMENT_LABELS,
  Fulfilment,
  Payment,
  type FulfilmentStatus,
} from '../../src/domain/order-status.ts';
import type { Dashboard } from '../../src/schemas/dashboard.ts';
import type { Database } from '../db/index.ts';
import { isSale, saleAmount } from '../orders/sales.ts';
import { LEGAL_FIELD_LABELS, missingLegalFields } from '../../src/domain/legal.ts';
import { liveSettings } from '../settings/index.ts';
import { unreadMessages } from './messages.ts';

export type { Dashboard };

export async function dashboard(db: Database): Promise<Dashboard> {
  const [orders, works, recent, unread, settings] = await Promise.all([
    db
      .selectFrom('orders')
      .where(isSale())
      .select([
        sql<string>`coalesce(sum(${saleAmount()}), 0)`.as('revenue'),
        sql<string>`count(*)`.as('paid'),
        sql<string>`count(*) FILTER (WHERE status IN (${Fulfilment.pending}, ${Fulfilment.confirmed}))`.as(
          'awaiting',
        ),
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
    unreadMessages(db),
    liveSettings(db),
  ]);
  return {
    revenueCents: Number(orders.revenue),
    paidOrders: Number(orders.paid),
    worksOnline: Number(works.n),
    awaitingShipment: Number(orders.awaiting),
    unreadMessages: unread,
    legalMissing: missingLegalFields(settings.legal_identity).map((f) => LEGAL_FIELD_LABELS[f]),
    recent: recent.map((o) => {
      const status = o.status as FulfilmentStatus;
      return {
        number: o.order_number,
        customer: o.customer_name,
        totalCents: o.total_cents,
        currency: o.currency,
        status,
        statusLabel: FULFILMENT_LABELS[status] ?? o.status,
        date: new Date(o.paid_at ?? o.created_at).toISOString(),
      };
    }),
  };
}
