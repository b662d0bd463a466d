// Issue 14 §2 "Cart add: fewer round trips": adding to the cart is one statement, with no
// transaction holding the cart row. What that lock used to guarantee — one original per cart —
// is now the database's own rule: a line remembers whether its work is an original (a work's type
// never changes after creation), and at most one such line exists per cart. Frozen once it has
// run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('cart_items')
    .addColumn('is_original', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`UPDATE cart_items c SET is_original = true FROM artworks a
            WHERE a.id = c.artwork_id AND a.artwork_type = 'original'`.execute(db);
  // Carts made before this rule could not hold two originals either; should one, keep its first.
  await sql`DELETE FROM cart_items c WHERE c.is_original AND EXISTS (
              SELECT 1 FROM cart_items d WHERE d.cart_id = c.cart_id AND d.is_original
                AND (d.created_at, d.id) < (c.created_at, c.id))`.execute(db);
  await sql`CREATE UNIQUE INDEX cart_items_one_original ON cart_items (cart_id) WHERE is_original`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX IF EXISTS cart_items_one_original`.execute(db);
  await db.schema.alterTable('cart_items').dropColumn('is_original').execute();
}
