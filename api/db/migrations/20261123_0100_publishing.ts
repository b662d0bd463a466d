// Issue 10: prints name their original explicitly (artworks.original_id), migrated once from the
// slug convention (`<stem>-print` ↔ `<stem>-original`) and, failing that, from equal French
// titles — so renaming a title never splits a work from its prints again. And one shipping rule:
// the unused `shipping_zones` table, which competed with the `shipping_info` setting, is dropped.
// Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('artworks')
    .addColumn('original_id', 'integer', (c) => c.references('artworks.id').onDelete('set null'))
    .execute();
  await sql`ALTER TABLE artworks
    ADD CONSTRAINT artworks_original_id_only_prints
      CHECK (original_id IS NULL OR artwork_type = 'print'),
    ADD CONSTRAINT artworks_original_id_not_self CHECK (original_id <> id)`.execute(db);
  await db.schema
    .createIndex('artworks_original_id_idx')
    .on('artworks')
    .column('original_id')
    .execute();
  // The convention of the seed and of every work created so far.
  await sql`UPDATE artworks p SET original_id = o.id
    FROM artworks o
    WHERE p.artwork_type = 'print' AND o.artwork_type = 'original'
      AND p.slug LIKE '%-print' AND o.slug = left(p.slug, -length('-print')) || '-original'`.execute(
    db,
  );
  // What the gallery used to group by: the same French title (the first original of that title).
  await sql`UPDATE artworks p SET original_id = (
      SELECT o.id FROM artworks o
      WHERE o.artwork_type = 'original'
        AND lower(trim(o.title_fr)) = lower(trim(p.title_fr))
      ORDER BY o.display_order, o.id LIMIT 1)
    WHERE p.artwork_type = 'print' AND p.original_id IS NULL`.execute(db);
  await db.schema.dropTable('shipping_zones').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('shipping_zones')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('countries', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('base_cost_cents', 'integer', (c) => c.notNull().check(sql`base_cost_cents >= 0`))
    .addColumn('free_threshold_cents', 'integer', (c) => c.check(sql`free_threshold_cents >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.dropIndex('artworks_original_id_idx').execute();
  await db.schema.alterTable('artworks').dropColumn('original_id').execute();
}
