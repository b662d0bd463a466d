// A payment that comes in after its works were released and taken (a late payment) is refunded
// automatically; the order said 'refunded' from the webhook's transaction, but the refund itself
// was one call after the commit — a crash or a Stripe outage there kept the buyer's money for
// good, and nothing ever tried again. The order now says its refund is pending until Stripe has
// made it; reconciliation retries pending refunds (api/payments/reconcile.ts,
// docs/decisions/033). Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('orders').addColumn('refund_pending_at', 'timestamptz').execute();
  await sql`CREATE INDEX orders_refund_pending_idx ON orders (refund_pending_at) WHERE refund_pending_at IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX IF EXISTS orders_refund_pending_idx`.execute(db);
  await db.schema.alterTable('orders').dropColumn('refund_pending_at').execute();
}
