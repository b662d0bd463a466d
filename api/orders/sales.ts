// What counts as a sale, in one place (issue 12): an order whose payment settled and that the
// gallery did not cancel. A refunded order is no longer 'paid' (api/orders: the refund sets it),
// so revenue is net of refunds, partial ones included (saleAmount); unpaid, expired and failed checkouts never count. The dashboard and
// the analytics read their figures through these fragments, so they cannot disagree.
import { sql, type RawBuilder } from 'kysely';
import { Fulfilment, Payment } from '../../src/domain/order-status.ts';

/** The shop's time zone: days, weeks and months of the figures are Paris days. */
export const SHOP_TIME_ZONE = 'Europe/Paris';

/** `WHERE` fragment on `orders` (aliased `alias`): the order is a sale. */
export function isSale(alias = 'orders'): RawBuilder<boolean> {
  const o = sql.ref(alias);
  return sql<boolean>`(${o}.payment_status = ${Payment.paid} AND ${o}.status <> ${Fulfilment.cancelled} AND ${o}.paid_at IS NOT NULL)`;
}

/**
 * The amount a sale brought in, in cents (shipping included, discount deducted), less what a
 * partial refund gave back (a full refund makes the order 'refunded', no longer a sale). The same
 * rule as the database's day and customer figures (migration 20261127_0600).
 */
export function saleAmount(alias = 'orders'): RawBuilder<number> {
  const o = sql.ref(alias);
  return sql<number>`(${o}.total_cents - ${o}.refunded_cents)`;
}

/** The Paris calendar date of the payment. */
export function saleDay(alias = 'orders'): RawBuilder<string> {
  return sql<string>`(${sql.ref(alias)}.paid_at AT TIME ZONE ${SHOP_TIME_ZONE})::date`;
}

/** The instant a Paris calendar date (YYYY-MM-DD) begins, as a timestamptz expression. */
export function parisMidnight(day: string): RawBuilder<Date> {
  return sql<Date>`(${day}::date::timestamp AT TIME ZONE ${SHOP_TIME_ZONE})`;
}

/** A date's Paris calendar day (YYYY-MM-DD). */
export function parisDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: SHOP_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** YYYY-MM-DD plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
