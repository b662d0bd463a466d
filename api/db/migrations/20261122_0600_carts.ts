// Commerce (issue 4): the cart itself (its applied promo code) beside its lines, and a sequence
// for readable order numbers. Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

const now = sql`now()`;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('carts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('promo_code', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('cart_items_cart_id_idx')
    .on('cart_items')
    .column('cart_id')
    .execute();
  await db.schema.createIndex('orders_cart_id_idx').on('orders').column('cart_id').execute();
  await db.schema.createIndex('holds_order_id_idx').on('holds').column('order_id').execute();
  await sql`CREATE SEQUENCE order_number_seq START 1001`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP SEQUENCE order_number_seq`.execute(db);
  await db.schema.dropIndex('holds_order_id_idx').execute();
  await db.schema.dropIndex('orders_cart_id_idx').execute();
  await db.schema.dropIndex('cart_items_cart_id_idx').execute();
  await db.schema.dropTable('carts').execute();
}
