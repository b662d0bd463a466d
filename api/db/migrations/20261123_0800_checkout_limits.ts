// Issue 14 "Anyone can hold the whole catalogue": the checkouts in progress are limited per client
// address, so an unpaid order remembers which client started it — as a hash (api/checkout/limits.ts),
// never the address itself, and only while the order waits for its payment: the sweeper clears it
// once the order is paid or closed. The partial index keeps both the count at checkout and that
// clearing to the few orders in progress. Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('orders').addColumn('client_key', 'text').execute();
  await sql`CREATE INDEX orders_client_key_idx ON orders (client_key) WHERE client_key IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX IF EXISTS orders_client_key_idx`.execute(db);
  await db.schema.alterTable('orders').dropColumn('client_key').execute();
}
