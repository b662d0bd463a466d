// Issue 14 §3 "Faults, on purpose": a server killed between a payment's commit and its mails sent
// neither the buyer's confirmation nor the gallery's notification, and no retry ever would (the
// payment's event is recorded, the order paid). The paid order now says its mails are pending,
// from the payment's transaction until they are sent; reconciliation sends those of a process that
// died (api/payments/reconcile.ts). Orders paid before this migration have nothing pending.
// Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('orders').addColumn('mails_pending_at', 'timestamptz').execute();
  await sql`CREATE INDEX orders_mails_pending_idx ON orders (mails_pending_at) WHERE mails_pending_at IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX IF EXISTS orders_mails_pending_idx`.execute(db);
  await db.schema.alterTable('orders').dropColumn('mails_pending_at').execute();
}
