// Numbered editions (issue 26, docs/decisions/045): every copy of a print's edition that is not
// plainly free has a row in `edition_copies` — sold (to an order, or before the register existed),
// returned (its order was cancelled, refunded or withdrawn: the owner decides), free again (a
// returned number the owner put back on sale) or retired. A number without a row is free. The
// payment takes the lowest free number under the artwork's row lock; the unique index is the
// backstop that makes a second taker of one number fail instead of printing it twice.
// Artist's proofs (EA) and hors-commerce copies (HC) are counted apart, on the work.
//
// Copies sold before this migration are written in: the paid orders' copies first, in the order
// they were paid, then — under the next numbers — the copies the stock says were sold elsewhere
// (edition size − stock − copies held by a payment in progress). Frozen once run.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('artworks')
    .addColumn('edition_ea', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`edition_ea BETWEEN 0 AND 1000`),
    )
    .addColumn('edition_hc', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`edition_hc BETWEEN 0 AND 1000`),
    )
    .execute();

  await db.schema
    .createTable('edition_copies')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('artwork_id', 'integer', (c) =>
      c.notNull().references('artworks.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('numbered')
        .check(sql`kind IN ('numbered', 'ea', 'hc')`),
    )
    .addColumn('number', 'integer', (c) => c.notNull().check(sql`number > 0`))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state IN ('sold', 'returned', 'free', 'retired')`),
    )
    .addColumn('order_id', 'uuid', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('order_item_id', 'integer', (c) =>
      c.references('order_items.id').onDelete('set null'),
    )
    .addColumn('sold_at', 'timestamptz')
    .addColumn('returned_at', 'timestamptz')
    .addColumn('return_reason', 'text', (c) =>
      c.check(sql`return_reason IN ('cancellation', 'refund', 'withdrawal')`),
    )
    .addColumn('released_at', 'timestamptz')
    .addColumn('retired_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('edition_copies_one_per_number', ['artwork_id', 'kind', 'number'])
    .addCheckConstraint(
      'edition_copies_returned_when',
      sql`state <> 'returned' OR returned_at IS NOT NULL`,
    )
    .addCheckConstraint(
      'edition_copies_retired_when',
      sql`(state = 'retired') = (retired_at IS NOT NULL)`,
    )
    .execute();
  await db.schema
    .createIndex('edition_copies_order')
    .on('edition_copies')
    .column('order_id')
    .where(sql.ref('order_id'), 'is not', null)
    .execute();

  // The copies sold before the register.
  const prints = await sql<{ id: number; edition_size: number; stock: number; held: number }>`
    SELECT a.id, a.edition_size, a.stock,
      COALESCE((SELECT SUM(h.quantity) FROM holds h
        WHERE h.artwork_id = a.id AND h.state = 'active'), 0)::int AS held
    FROM artworks a
    WHERE a.artwork_type = 'print' AND a.edition_size IS NOT NULL
    ORDER BY a.id`.execute(db);
  for (const print of prints.rows) {
    const copies = await sql<{
      order_id: string;
      item_id: number;
      quantity: number;
      paid_at: Date;
    }>`
      SELECT i.order_id, i.id AS item_id, i.quantity, o.paid_at
      FROM order_items i JOIN orders o ON o.id = i.order_id
      WHERE i.artwork_id = ${print.id} AND i.artwork_type = 'print'
        AND o.payment_status = 'paid' AND o.paid_at IS NOT NULL AND o.status <> 'cancelled'
      ORDER BY o.paid_at, i.id`.execute(db);
    let number = 0;
    for (const item of copies.rows)
      for (let n = 0; n < item.quantity && number < print.edition_size; n++) {
        number += 1;
        await db
          .insertInto('edition_copies')
          .values({
            artwork_id: print.id,
            number,
            state: 'sold',
            order_id: item.order_id,
            order_item_id: item.item_id,
            sold_at: item.paid_at,
          })
          .execute();
      }
    const elsewhere = Math.min(print.edition_size, print.edition_size - print.stock - print.held);
    while (number < elsewhere) {
      number += 1;
      await db
        .insertInto('edition_copies')
        .values({ artwork_id: print.id, number, state: 'sold' })
        .execute();
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('edition_copies').execute();
  await db.schema
    .alterTable('artworks')
    .dropColumn('edition_ea')
    .dropColumn('edition_hc')
    .execute();
}
