// Issue 12: analytics on real numbers and private visit counts.
// - visitor_days: unique visitors per day. A visitor is a hash of (client address, user agent,
//   a salt that lives only in the server's memory and changes every day); the hash itself is kept
//   in visitor_hashes only for the day it belongs to, so the same visitor is counted once a day
//   and nothing can link them across days.
// - work_views: views of each work's own address (/gallery?work=<key>) per day.
// - orders_sales_idx: the analytics endpoint reads sales (api/orders/sales.ts) by payment date;
//   the index holds what it sums, so those reads never touch the table.
// Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('visitor_days')
    .addColumn('day', 'date', (c) => c.primaryKey())
    .addColumn('visitors', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`visitors >= 0`),
    )
    .execute();
  await db.schema
    .createTable('visitor_hashes')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('hash', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('visitor_hashes_pkey', ['day', 'hash'])
    .execute();
  await db.schema
    .createTable('work_views')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('work', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`views >= 0`),
    )
    .addPrimaryKeyConstraint('work_views_pkey', ['day', 'work'])
    .execute();
  await sql`CREATE INDEX orders_sales_idx ON orders (paid_at)
    INCLUDE (total_cents, customer_email)
    WHERE payment_status = 'paid' AND status <> 'cancelled' AND paid_at IS NOT NULL`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX IF EXISTS orders_sales_idx`.execute(db);
  for (const table of ['work_views', 'visitor_hashes', 'visitor_days'])
    await db.schema.dropTable(table).ifExists().execute();
}
