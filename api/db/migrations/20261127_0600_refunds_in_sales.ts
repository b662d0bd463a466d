// Partial refunds (issue 27 item 3, migration 20261126_1910) leave an order paid, with
// `refunded_cents` and the refunded lines' `refunded_at` set; the figures the database folds for
// the back office (sales_days and sales_day_works of 20261123_0750, customer_summaries of
// 20261123_0700) still counted such an order at its full total. Now:
// - a sale's revenue is what the gallery kept: total_cents − refunded_cents (a full refund still
//   makes the order 'refunded', no longer a sale);
// - a refunded line is no longer among the works sold (quantity and revenue);
// - a customer's spending is net of refunds likewise;
// and a change of `refunded_cents` recomputes the order's day and customer. The functions are
// replaced whole (their text below is theirs, with only those changes); the days and customers of
// the orders already partly refunded are recomputed. Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

/** The sale rule of api/orders/sales.ts on the alias `o`. */
const SALE = `o.payment_status = 'paid' AND o.status <> 'cancelled' AND o.paid_at IS NOT NULL`;
const DAY = (alias: string) => `(${alias}.paid_at AT TIME ZONE 'Europe/Paris')::date`;
const IN_DAY = `o.paid_at >= (d.day::timestamp AT TIME ZONE 'Europe/Paris')
  AND o.paid_at < ((d.day + 1)::timestamp AT TIME ZONE 'Europe/Paris')`;

interface Rules {
  /** A sale's amount on the alias `o`. */
  amount: string;
  /** Which of its lines count among the works sold, on the alias `i`. */
  lines: string;
  /** The order columns whose change recomputes its day and customer (beside the others). */
  refundColumn: boolean;
}

const NET: Rules = {
  amount: 'o.total_cents - o.refunded_cents',
  lines: 'i.refunded_at IS NULL',
  refundColumn: true,
};
const GROSS: Rules = { amount: 'o.total_cents', lines: 'true', refundColumn: false };

async function define(db: AnyDb, rules: Rules): Promise<void> {
  const refunded = (alias: string) => (rules.refundColumn ? `, ${alias}.refunded_cents` : '');
  await sql`CREATE OR REPLACE FUNCTION sales_rollup_refresh(days date[]) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      days := ARRAY(SELECT DISTINCT x FROM unnest(days) AS x WHERE x IS NOT NULL ORDER BY x);
      IF cardinality(days) = 0 THEN RETURN; END IF;
      INSERT INTO sales_days (day) SELECT x FROM unnest(days) AS x ON CONFLICT (day) DO NOTHING;
      PERFORM 1 FROM sales_days WHERE day = ANY (days) ORDER BY day FOR UPDATE;

      UPDATE sales_days s SET revenue_cents = x.revenue, orders = x.orders
      FROM (
        SELECT d.day, coalesce(sum(${sql.raw(rules.amount)}), 0) AS revenue, count(o.id) AS orders
        FROM unnest(days) AS d(day)
        LEFT JOIN orders o ON ${sql.raw(SALE)} AND ${sql.raw(IN_DAY)}
        GROUP BY d.day
      ) x
      WHERE s.day = x.day AND (s.revenue_cents, s.orders) IS DISTINCT FROM (x.revenue, x.orders);

      DELETE FROM sales_day_works WHERE day = ANY (days);
      INSERT INTO sales_day_works (day, artwork_id, lost_title, artwork_type, title, quantity,
                                   gross_cents, net_cents)
      SELECT d.day, i.artwork_id, CASE WHEN i.artwork_id IS NULL THEN i.title END, i.artwork_type,
             min(i.title), sum(i.quantity), sum(i.unit_price_cents::bigint * i.quantity),
             sum(i.unit_price_cents * i.quantity
                 * (o.subtotal_cents - o.discount_cents)::numeric / nullif(o.subtotal_cents, 0))
      FROM unnest(days) AS d(day)
      JOIN orders o ON ${sql.raw(SALE)} AND ${sql.raw(IN_DAY)}
      JOIN order_items i ON i.order_id = o.id AND ${sql.raw(rules.lines)}
      GROUP BY 1, 2, 3, 4;

      DELETE FROM sales_day_buyers WHERE day = ANY (days);
      INSERT INTO sales_day_buyers (day, email)
      SELECT DISTINCT d.day, lower(o.customer_email)
      FROM unnest(days) AS d(day)
      JOIN orders o ON ${sql.raw(SALE)} AND ${sql.raw(IN_DAY)};
    END $$`.execute(db);

  await sql`CREATE OR REPLACE FUNCTION sales_rollup_orders() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM sales_rollup_refresh(ARRAY(SELECT ${sql.raw(DAY('n'))} FROM new_rows n));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM sales_rollup_refresh(ARRAY(SELECT ${sql.raw(DAY('o'))} FROM old_rows o));
      ELSE
        PERFORM sales_rollup_refresh(ARRAY(
          SELECT x.day FROM new_rows n JOIN old_rows o ON o.id = n.id,
            LATERAL (VALUES (${sql.raw(DAY('n'))}), (${sql.raw(DAY('o'))})) AS x(day)
          WHERE (n.payment_status, n.status, n.paid_at, n.total_cents, n.subtotal_cents,
                 n.discount_cents, lower(n.customer_email)${sql.raw(refunded('n'))})
            IS DISTINCT FROM (o.payment_status, o.status, o.paid_at, o.total_cents,
                 o.subtotal_cents, o.discount_cents, lower(o.customer_email)${sql.raw(refunded('o'))})));
      END IF;
      RETURN NULL;
    END $$`.execute(db);

  await sql`CREATE OR REPLACE FUNCTION customer_summaries_refresh(keys text[]) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(keys) = 0 THEN RETURN; END IF;
      -- A row to lock for each address, then the locks, in key order (no deadlock between two
      -- statements touching the same customers).
      INSERT INTO customer_summaries (key, email)
        SELECT DISTINCT k, k FROM unnest(keys) AS k WHERE k IS NOT NULL
        ON CONFLICT (key) DO NOTHING;
      PERFORM 1 FROM customer_summaries WHERE key = ANY (keys) ORDER BY key FOR UPDATE;
      INSERT INTO customer_summaries AS c (key, email, name, user_id, registered_at, last_sign_in_at,
                                           orders, spent_cents, first_order_at, last_order_at)
      SELECT k.key,
             coalesce(a.email, b.email, k.key),
             coalesce(nullif(trim(a.full_name), ''), nullif(trim(b.name), '')),
             a.id, a.created_at, a.last_sign_in_at,
             coalesce(b.orders, 0), coalesce(b.spent, 0), b.first_at, b.last_at
      FROM (SELECT DISTINCT k AS key FROM unnest(keys) AS k WHERE k IS NOT NULL) k
      LEFT JOIN users a ON lower(a.email) = k.key AND a.role = 'customer'
      LEFT JOIN LATERAL (
        SELECT count(*) FILTER (WHERE ${sql.raw(SALE)}) AS orders,
               coalesce(sum(${sql.raw(rules.amount)}) FILTER (WHERE ${sql.raw(SALE)}), 0) AS spent,
               min(coalesce(o.paid_at, o.created_at)) AS first_at,
               max(coalesce(o.paid_at, o.created_at)) AS last_at,
               (array_agg(o.customer_name ORDER BY coalesce(o.paid_at, o.created_at) DESC))[1] AS name,
               (array_agg(o.customer_email ORDER BY coalesce(o.paid_at, o.created_at) DESC))[1] AS email
        FROM orders o
        WHERE lower(o.customer_email) = k.key AND o.payment_status IN ('paid', 'refunded')
        HAVING count(*) > 0
      ) b ON true
      ON CONFLICT (key) DO UPDATE SET
        email = EXCLUDED.email, name = EXCLUDED.name, user_id = EXCLUDED.user_id,
        registered_at = EXCLUDED.registered_at, last_sign_in_at = EXCLUDED.last_sign_in_at,
        orders = EXCLUDED.orders, spent_cents = EXCLUDED.spent_cents,
        first_order_at = EXCLUDED.first_order_at, last_order_at = EXCLUDED.last_order_at
      WHERE (c.email, c.name, c.user_id, c.registered_at, c.last_sign_in_at, c.orders,
             c.spent_cents, c.first_order_at, c.last_order_at)
        IS DISTINCT FROM (EXCLUDED.email, EXCLUDED.name, EXCLUDED.user_id, EXCLUDED.registered_at,
             EXCLUDED.last_sign_in_at, EXCLUDED.orders, EXCLUDED.spent_cents,
             EXCLUDED.first_order_at, EXCLUDED.last_order_at);
      -- Neither a customer account nor a paid order any more: not a customer.
      DELETE FROM customer_summaries
        WHERE key = ANY (keys) AND user_id IS NULL AND first_order_at IS NULL;
    END $$`.execute(db);

  await sql`CREATE OR REPLACE FUNCTION customer_summaries_orders() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM customer_summaries_refresh(ARRAY(
          SELECT DISTINCT lower(customer_email) FROM new_rows
          WHERE payment_status IN ('paid', 'refunded')));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM customer_summaries_refresh(ARRAY(
          SELECT DISTINCT lower(customer_email) FROM old_rows
          WHERE payment_status IN ('paid', 'refunded')));
      ELSE
        PERFORM customer_summaries_refresh(ARRAY(
          SELECT DISTINCT e FROM new_rows n JOIN old_rows o ON o.id = n.id,
            LATERAL (VALUES (lower(n.customer_email)), (lower(o.customer_email))) AS x(e)
          WHERE (n.customer_email, n.customer_name, n.payment_status, n.status, n.paid_at,
                 n.created_at, n.total_cents${sql.raw(refunded('n'))})
            IS DISTINCT FROM (o.customer_email, o.customer_name, o.payment_status, o.status,
                 o.paid_at, o.created_at, o.total_cents${sql.raw(refunded('o'))})));
      END IF;
      RETURN NULL;
    END $$`.execute(db);

  // The days and customers of the orders a partial refund touched, under the new rules.
  await sql`SELECT sales_rollup_refresh(ARRAY(
    SELECT DISTINCT ${sql.raw(DAY('o'))} FROM orders o WHERE ${sql.raw(SALE)} AND o.refunded_cents > 0))`.execute(
    db,
  );
  await sql`SELECT customer_summaries_refresh(ARRAY(
    SELECT DISTINCT lower(o.customer_email) FROM orders o
    WHERE o.refunded_cents > 0 AND o.payment_status IN ('paid', 'refunded')))`.execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  await define(db, NET);
}

export async function down(db: AnyDb): Promise<void> {
  await define(db, GROSS);
}
