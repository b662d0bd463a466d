// Issue 12: the analytics of a year read ~80 000 sales (a year and the year before it, for the
// comparison) on every request — 115 ms p50 and 163 ms p95 on PostgreSQL with 100 000 orders, past
// the 150 ms budget. Sales are folded by Paris day into three tables the database keeps itself, so
// a request reads a few hundred day rows (and a year's lines and buyers, already grouped):
// - sales_days: per day, the sales' revenue and count (the rule of api/orders/sales.ts: paid, not
//   cancelled; a refund sets payment_status 'refunded'). A day once touched keeps its row, at
//   zero if its sales went away: the row is the day's lock (below), and a deleted lock would let a
//   waiting statement through unlocked.
// - sales_day_works: per day and work (or per title of a deleted work), quantity, gross revenue
//   (unit price × quantity) and net revenue (the order's discount shared pro rata, unrounded).
// - sales_day_buyers: per day, each buyer's address (lower-cased) once.
// Statement triggers on orders and order_items recompute the days a statement touched (old and
// new rows, from transition tables), after locking those days' rows in day order: a concurrent
// change to the same day waits, then reads what was committed (READ COMMITTED), so none is lost.
// Derived, never written by the app; the analytics tests compare it with the orders themselves.
// Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

/** The sale rule of api/orders/sales.ts on the alias `o`. */
const SALE = `o.payment_status = 'paid' AND o.status <> 'cancelled' AND o.paid_at IS NOT NULL`;
/** A sale's Paris calendar day, on the alias `alias`. */
const DAY = (alias: string) => `(${alias}.paid_at AT TIME ZONE 'Europe/Paris')::date`;
/** The sales of the Paris day `d.day`, through the paid_at index (orders_sales_idx). */
const IN_DAY = `o.paid_at >= (d.day::timestamp AT TIME ZONE 'Europe/Paris')
  AND o.paid_at < ((d.day + 1)::timestamp AT TIME ZONE 'Europe/Paris')`;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sales_days')
    .addColumn('day', 'date', (c) => c.primaryKey())
    .addColumn('revenue_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('orders', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('sales_day_works')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('artwork_id', 'integer')
    // The line's title when its work was deleted (artwork_id set null): such lines group by title.
    .addColumn('lost_title', 'text')
    .addColumn('artwork_type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('gross_cents', 'bigint', (c) => c.notNull())
    .addColumn('net_cents', 'numeric', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sales_day_works_day_idx')
    .on('sales_day_works')
    .column('day')
    .execute();
  await db.schema
    .createTable('sales_day_buyers')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_day_buyers_pkey', ['day', 'email'])
    .execute();

  await sql`CREATE FUNCTION sales_rollup_refresh(days date[]) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      days := ARRAY(SELECT DISTINCT x FROM unnest(days) AS x WHERE x IS NOT NULL ORDER BY x);
      IF cardinality(days) = 0 THEN RETURN; END IF;
      INSERT INTO sales_days (day) SELECT x FROM unnest(days) AS x ON CONFLICT (day) DO NOTHING;
      PERFORM 1 FROM sales_days WHERE day = ANY (days) ORDER BY day FOR UPDATE;

      UPDATE sales_days s SET revenue_cents = x.revenue, orders = x.orders
      FROM (
        SELECT d.day, coalesce(sum(o.total_cents), 0) AS revenue, count(o.id) AS orders
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
      JOIN order_items i ON i.order_id = o.id
      GROUP BY 1, 2, 3, 4;

      DELETE FROM sales_day_buyers WHERE day = ANY (days);
      INSERT INTO sales_day_buyers (day, email)
      SELECT DISTINCT d.day, lower(o.customer_email)
      FROM unnest(days) AS d(day)
      JOIN orders o ON ${sql.raw(SALE)} AND ${sql.raw(IN_DAY)};
    END $$`.execute(db);

  // Only changes that matter to a sale recompute its days (a status history, a tracking number
  // or a shipment do not).
  await sql`CREATE FUNCTION sales_rollup_orders() RETURNS trigger LANGUAGE plpgsql AS $$
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
                 n.discount_cents, lower(n.customer_email))
            IS DISTINCT FROM (o.payment_status, o.status, o.paid_at, o.total_cents,
                 o.subtotal_cents, o.discount_cents, lower(o.customer_email))));
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE FUNCTION sales_rollup_items() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM sales_rollup_refresh(ARRAY(
          SELECT ${sql.raw(DAY('o'))} FROM orders o WHERE o.id IN (SELECT order_id FROM new_rows)));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM sales_rollup_refresh(ARRAY(
          SELECT ${sql.raw(DAY('o'))} FROM orders o WHERE o.id IN (SELECT order_id FROM old_rows)));
      ELSE
        PERFORM sales_rollup_refresh(ARRAY(
          SELECT ${sql.raw(DAY('o'))} FROM orders o
          WHERE o.id IN (SELECT order_id FROM new_rows UNION SELECT order_id FROM old_rows)));
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  // A trigger with transition tables serves one event (PostgreSQL's rule): three per table.
  for (const [table, fn] of [
    ['orders', 'sales_rollup_orders'],
    ['order_items', 'sales_rollup_items'],
  ] as const)
    for (const [event, tables] of [
      ['INSERT', 'NEW TABLE AS new_rows'],
      ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
      ['DELETE', 'OLD TABLE AS old_rows'],
    ] as const)
      await sql`CREATE TRIGGER ${sql.raw(`sales_rollup_${table}_${event.toLowerCase()}`)}
        AFTER ${sql.raw(event)} ON ${sql.table(table)}
        REFERENCING ${sql.raw(tables)}
        FOR EACH STATEMENT EXECUTE FUNCTION ${sql.raw(fn)}()`.execute(db);

  // Every sale there is already.
  await sql`SELECT sales_rollup_refresh(ARRAY(
    SELECT DISTINCT ${sql.raw(DAY('o'))} FROM orders o WHERE ${sql.raw(SALE)}))`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['orders', 'order_items'])
    for (const event of ['insert', 'update', 'delete'])
      await sql`DROP TRIGGER IF EXISTS ${sql.raw(`sales_rollup_${table}_${event}`)} ON ${sql.table(table)}`.execute(
        db,
      );
  await sql`DROP FUNCTION IF EXISTS sales_rollup_items()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS sales_rollup_orders()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS sales_rollup_refresh(date[])`.execute(db);
  for (const table of ['sales_day_buyers', 'sales_day_works', 'sales_days'])
    await db.schema.dropTable(table).ifExists().execute();
}
