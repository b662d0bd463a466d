// An erasure the owner asked for while an order of the customer was still open (unshipped, in its
// withdrawal period, awaiting a refund or a payment): kept here and carried out by the server once
// every such order has closed (api/admin/erasure.ts, issue 24). One per address, by its
// lower-cased form; who asked is kept for the audit entry of the erasure. Frozen once it has run
// anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('erasure_requests')
    .addColumn('email_key', 'text', (c) => c.primaryKey())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('requested_by', 'uuid', (c) => c.notNull())
    .addColumn('requested_by_email', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('erasure_requests').execute();
}
