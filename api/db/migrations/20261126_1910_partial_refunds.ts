// Refunds of some of an order's lines (issue 27 item 3): each refunded line keeps when it was
// refunded, and an order may now have several credit notes (one per refund) — still one invoice.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('order_items').addColumn('refunded_at', 'timestamptz').execute();
  await db.schema.alterTable('invoices').dropConstraint('invoices_order_kind_key').execute();
  await sql`CREATE UNIQUE INDEX invoices_order_invoice_key ON invoices (order_id) WHERE kind = 'invoice'`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX invoices_order_invoice_key`.execute(db);
  // The later credit notes of an order cannot stay under the old rule.
  await db.schema
    .alterTable('invoices')
    .addUniqueConstraint('invoices_order_kind_key', ['order_id', 'kind'])
    .execute();
  await db.schema.alterTable('order_items').dropColumn('refunded_at').execute();
}
