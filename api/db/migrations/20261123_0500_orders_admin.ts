// Issue 13: the back office's orders and customers, invoices, refunds and the EU withdrawal button.
// - orders: shipping details (carrier, tracking number, when), the refunded amount and its Stripe
//   refund, the withdrawal request, and when the buyer's personal data was erased.
// - invoice_counters + invoices: one continuous, gapless sequence per kind (invoice, credit note),
//   the number taken in the payment's (or refund's) own transaction by a row-locked counter. An
//   invoice keeps a snapshot of everything it prints and can never be changed or deleted.
// - withdrawals: the buyer's statement, when it was made, in which language.
// Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('carrier', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('shipped_at', 'timestamptz')
    .addColumn('refunded_cents', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`refunded_cents >= 0`),
    )
    .addColumn('stripe_refund_id', 'text')
    .addColumn('refunded_at', 'timestamptz')
    .addColumn('withdrawal_requested_at', 'timestamptz')
    .addColumn('erased_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('invoice_counters')
    .addColumn('kind', 'text', (c) => c.primaryKey().check(sql`kind IN ('invoice', 'credit_note')`))
    .addColumn('last', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`last >= 0`),
    )
    .execute();
  await db
    .insertInto('invoice_counters')
    .values([{ kind: 'invoice' }, { kind: 'credit_note' }])
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('invoice', 'credit_note')`))
    .addColumn('sequence', 'integer', (c) => c.notNull().check(sql`sequence > 0`))
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('restrict'))
    .addColumn('refers_to', 'uuid', (c) => c.references('invoices.id').onDelete('restrict'))
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'jsonb', (c) => c.notNull())
    .addUniqueConstraint('invoices_kind_sequence_key', ['kind', 'sequence'])
    // One invoice per order and, refunds being whole, one credit note.
    .addUniqueConstraint('invoices_order_kind_key', ['order_id', 'kind'])
    .execute();
  await sql`CREATE FUNCTION invoices_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'an issued invoice can never be changed or deleted';
    END $$`.execute(db);
  await sql`CREATE TRIGGER invoices_immutable BEFORE UPDATE OR DELETE ON invoices
    FOR EACH ROW EXECUTE FUNCTION invoices_immutable()`.execute(db);

  await db.schema
    .createTable('withdrawals')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (c) =>
      c.notNull().unique().references('orders.id').onDelete('restrict'),
    )
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('fr', 'en')`))
    .addColumn('statement', 'text', (c) => c.notNull())
    .execute();

  // The orders list searches number, name, email and session id without case or accents.
  await sql`ALTER TABLE orders ADD COLUMN search_folded text GENERATED ALWAYS AS (
    translate(
      replace(replace(lower(
        order_number || ' ' || customer_name || ' ' || customer_email || ' ' ||
        coalesce(stripe_session_id, '')
      ), 'œ', 'oe'), 'æ', 'ae'),
      'àâäáãåçéèêëíìîïñóòôöõúùûüýÿ',
      'aaaaaaceeeeiiiinooooouuuuyy'
    )
  ) STORED`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('search_folded').execute();
  await db.schema.dropTable('withdrawals').ifExists().execute();
  await db.schema.dropTable('invoices').ifExists().execute();
  await sql`DROP FUNCTION IF EXISTS invoices_immutable()`.execute(db);
  await db.schema.dropTable('invoice_counters').ifExists().execute();
  await db.schema
    .alterTable('orders')
    .dropColumn('carrier')
    .dropColumn('tracking_number')
    .dropColumn('shipped_at')
    .dropColumn('refunded_cents')
    .dropColumn('stripe_refund_id')
    .dropColumn('refunded_at')
    .dropColumn('withdrawal_requested_at')
    .dropColumn('erased_at')
    .execute();
}
