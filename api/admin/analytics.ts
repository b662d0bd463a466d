// The analytics screen's figures (back office §2 "Analytics", §5, §9; issue 12), each computed in
// SQL from the sales (api/orders/sales.ts: paid, not cancelled, net of refunds) and the private
// visit counts (api/visits). A period is the N Paris calendar days ending today, today included;
// the previous period is the N days before it. Buckets are Paris days, 7-day weeks counted back
// from today, or calendar months, every one present even when nothing sold.
import { sql } from 'kysely';
import {
  MONTH_LABELS,
  PERIOD_DAYS,
  percentChange,
  type Analytics,
  type AnalyticsPeriod,
  type Bucket,
  type SalesSummary,
} from '../../src/schemas/analytics.ts';
import { timeOf, type Clock } from '../clock.ts';
import type { Database } from '../db/index.ts';
import { addDays, parisDay, parisMidnight } from '../orders/sales.ts';
import { liveSettings } from '../settings/index.ts';

export type { Analytics };

const WEEKDAYS = ['Dim', 'Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam'] as const;

const num = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

function summary(revenue: number, orders: number): SalesSummary {
  return {
    revenueCents: revenue,
    orders,
    averageCents: orders === 0 ? 0 : Math.round(revenue / orders),
  };
}

function weekday(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!;
}

type Grain = 'day' | 'week' | 'month';
const GRAIN: Record<AnalyticsPeriod, Grain> = {
  '7d': 'day',
  '30d': 'day',
  '90d': 'week',
  '1y': 'month',
};

function label(
  period: AnalyticsPeriod,
  bucket: { from: string; to: string },
  index: number,
  today: string,
): string {
  switch (period) {
    case '7d':
      return weekday(bucket.from);
    case '30d': {
      // §9's J-n: n days before today; today itself is 'Auj.'.
      const n = Math.round(
        (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${bucket.from}T00:00:00Z`)) / 86_400_000,
      );
      return n === 0 ? 'Auj.' : `J-${n}`;
    }
    case '90d':
      return `Sem ${index + 1}`;
    case '1y': {
      const [y, m] = bucket.from.split('-').map(Number) as [number, number];
      return `${MONTH_LABELS[m - 1]} ${String(y).slice(2)}`;
    }
  }
}

export async function analytics(
  db: Database,
  period: AnalyticsPeriod,
  deps: { now?: Clock } = {},
): Promise<Analytics> {
  const now = timeOf(deps);
  const days = PERIOD_DAYS[period];
  const today = parisDay(now);
  const from = addDays(today, -(days - 1));
  const previousFrom = addDays(from, -days);
  const year = Number(today.slice(0, 4));
  const grain = GRAIN[period];
  const bucketOf =
    grain === 'day'
      ? sql`g::date`
      : grain === 'week'
        ? // 0 is the week ending today; the oldest (possibly shorter) comes first once sorted.
          sql`-((${today}::date - g::date) / 7)`
        : sql`date_trunc('month', g::date)`;
  // Sales over time come from the days the database folds them into (sales_days, migration
  // 20261123_0750): the whole span the figures need — the previous period and the two calendar
  // years of the monthly comparison — is at most two years of day rows.
  const spanFrom = previousFrom < `${year - 1}-01-01` ? previousFrom : `${year - 1}-01-01`;

  const [overTime, lines, customers, visits, settings] = await Promise.all([
    sql<{
      revenue: string;
      orders: string;
      previous_revenue: string;
      previous_orders: string;
      buyers: string;
      buckets: { from: string; to: string; revenue: number; orders: number }[];
      monthly: { year: number; month: number; revenue: number }[];
    }>`
      WITH daily AS MATERIALIZED (
        SELECT day, revenue_cents AS revenue, orders FROM sales_days
        WHERE day >= ${spanFrom}::date AND day <= ${today}::date AND orders > 0
      )
      SELECT
        (SELECT coalesce(sum(revenue), 0) FROM daily WHERE day >= ${from}::date) AS revenue,
        (SELECT coalesce(sum(orders), 0) FROM daily WHERE day >= ${from}::date) AS orders,
        (SELECT coalesce(sum(revenue), 0) FROM daily
          WHERE day >= ${previousFrom}::date AND day < ${from}::date) AS previous_revenue,
        (SELECT coalesce(sum(orders), 0) FROM daily
          WHERE day >= ${previousFrom}::date AND day < ${from}::date) AS previous_orders,
        (SELECT count(DISTINCT email) FROM sales_day_buyers
          WHERE day >= ${from}::date AND day <= ${today}::date) AS buyers,
        (SELECT json_agg(b ORDER BY b.bucket) FROM (
          SELECT d.bucket, min(d.day)::text AS "from", max(d.day)::text AS "to",
                 coalesce(sum(daily.revenue), 0) AS revenue, coalesce(sum(daily.orders), 0) AS orders
          FROM (
            SELECT g::date AS day, ${bucketOf} AS bucket
            FROM generate_series(${from}::date, ${today}::date, interval '1 day') AS g
          ) d LEFT JOIN daily ON daily.day = d.day
          GROUP BY d.bucket
        ) b) AS buckets,
        (SELECT json_agg(m ORDER BY m.year, m.month) FROM (
          SELECT extract(year FROM g)::int AS year, extract(month FROM g)::int AS month,
                 coalesce((SELECT sum(revenue) FROM daily
                   WHERE daily.day >= g::date AND daily.day < (g + interval '1 month')::date), 0)
                   AS revenue
          FROM generate_series(${`${year - 1}-01-01`}::date, ${`${year}-12-01`}::date,
                               interval '1 month') AS g
        ) m) AS monthly`.execute(db),
    // The period's lines, folded by day and work (sales_day_works): revenue per type of work (the
    // order's discount shared pro rata, shipping belonging to no work) and the five best sellers
    // (unit price × quantity, §9).
    sql<{
      types: { artwork_type: string; revenue: number }[] | null;
      top:
        | { title: string; key: string | null; type: string; quantity: number; revenue: number }[]
        | null;
    }>`
      WITH l AS MATERIALIZED (
        SELECT artwork_id, lost_title, artwork_type, title, quantity, gross_cents, net_cents
        FROM sales_day_works
        WHERE day >= ${from}::date AND day <= ${today}::date
      )
      SELECT
        (SELECT json_agg(t) FROM (
          SELECT artwork_type, round(sum(net_cents)) AS revenue
          FROM l GROUP BY artwork_type
        ) t) AS types,
        (SELECT json_agg(w) FROM (
          SELECT coalesce(a.title_fr, x.title) AS title,
                 -- A print's gallery card is its original's (src/lib/groups.ts).
                 CASE WHEN a.archived_at IS NULL
                   THEN regexp_replace(coalesce(og.slug, a.slug), '-(original|print)$', '') END AS key,
                 x.type, x.quantity, x.revenue
          FROM (
            -- A print often bears its original's title: its type tells the two rows apart.
            SELECT artwork_id, lost_title, min(title) AS title, min(artwork_type) AS type,
                   sum(quantity) AS quantity, sum(gross_cents) AS revenue
            FROM l GROUP BY 1, 2
            ORDER BY quantity DESC, revenue DESC, title
            LIMIT 5
          ) x
          LEFT JOIN artworks a ON a.id = x.artwork_id
          LEFT JOIN artworks og ON og.id = a.original_id AND og.archived_at IS NULL
          ORDER BY x.quantity DESC, x.revenue DESC, title
        ) w) AS top`.execute(db),
    // Customers as the customers screen counts them (issue 13): one per address across customer
    // accounts and paid orders, kept up to date by the database in customer_summaries.
    sql<{ total: string; recent: string; returning: string }>`
      SELECT count(*) AS total,
             count(*) FILTER (WHERE first_seen_at >= ${parisMidnight(addDays(today, -29))}) AS recent,
             count(*) FILTER (WHERE orders > 1) AS returning
      FROM customer_summaries`.execute(db),
    // Private visit counts (api/visits): only keys that name a work on the site are shown.
    sql<{
      visitors: string;
      views: string;
      viewed: { title: string; key: string; views: number }[] | null;
    }>`
      SELECT
        (SELECT coalesce(sum(visitors), 0) FROM visitor_days
          WHERE day >= ${from}::date AND day <= ${today}::date) AS visitors,
        (SELECT coalesce(sum(visits), 0) FROM visit_counts
          WHERE day >= ${from}::date AND day <= ${today}::date) AS views,
        (SELECT json_agg(v ORDER BY v.views DESC, v.title) FROM (
          SELECT a.title_fr AS title, w.work AS key, w.views
          FROM (
            SELECT work, sum(views)::int AS views FROM work_views
            WHERE day >= ${from}::date AND day <= ${today}::date
            GROUP BY work
          ) w
          JOIN (
            SELECT DISTINCT ON (key) key, title_fr
            FROM (
              SELECT regexp_replace(slug, '-(original|print)$', '') AS key, title_fr,
                     artwork_type, id
              FROM artworks WHERE archived_at IS NULL
              UNION ALL
              SELECT slug, title_fr, artwork_type, id FROM artworks WHERE archived_at IS NULL
            ) k
            ORDER BY key, (artwork_type = 'original') DESC, id
          ) a ON a.key = w.work
          ORDER BY w.views DESC, a.title_fr
          LIMIT 5
        ) v) AS viewed`.execute(db),
    liveSettings(db),
  ]);

  const totals = overTime.rows[0]!;
  const buckets = { rows: totals.buckets };
  const monthly = { rows: totals.monthly };
  const types = { rows: lines.rows[0]?.types ?? [] };
  const top = { rows: lines.rows[0]?.top ?? [] };
  const viewed = { rows: visits.rows[0]?.viewed ?? [] };
  const current = summary(num(totals.revenue), num(totals.orders));
  const previous = summary(num(totals.previous_revenue), num(totals.previous_orders));
  const sales: Bucket[] = buckets.rows.map((row, index) => ({
    label: label(period, row, index, today),
    from: row.from,
    to: row.to,
    revenueCents: num(row.revenue),
    orders: num(row.orders),
  }));
  const byType = new Map(types.rows.map((row) => [row.artwork_type, num(row.revenue)]));
  const people = customers.rows[0];
  const seen = visits.rows[0];
  const buyers = num(totals.buyers);
  const visitors = num(seen?.visitors);
  return {
    period,
    currency: settings.currency,
    from,
    to: today,
    summary: current,
    previous,
    change: {
      revenue: percentChange(current.revenueCents, previous.revenueCents),
      orders: percentChange(current.orders, previous.orders),
      average: percentChange(current.averageCents, previous.averageCents),
    },
    sales,
    byType: { originalCents: byType.get('original') ?? 0, printCents: byType.get('print') ?? 0 },
    monthly: {
      year,
      labels: [...MONTH_LABELS],
      lastYear: monthly.rows.filter((r) => r.year === year - 1).map((r) => num(r.revenue)),
      thisYear: monthly.rows.filter((r) => r.year === year).map((r) => num(r.revenue)),
    },
    top: top.rows.map((row) => ({
      title: row.title,
      key: row.key,
      type: row.type === 'print' ? ('print' as const) : ('original' as const),
      quantity: num(row.quantity),
      revenueCents: num(row.revenue),
    })),
    mostViewed: viewed.rows.map((row) => ({
      title: row.title,
      key: row.key,
      views: num(row.views),
    })),
    customers: {
      total: num(people?.total),
      newLast30Days: num(people?.recent),
      returning: num(people?.returning),
      buyers,
      visitors,
      pageViews: num(seen?.views),
      // Every buyer visited: when fewer visitors were counted (one address and browser shared by
      // several buyers, counting switched off), the buyers are the floor, never a rate above 100 %.
      conversionRate:
        buyers === 0 ? 0 : Math.round((buyers / Math.max(visitors, buyers)) * 1000) / 10,
    },
  };
}
