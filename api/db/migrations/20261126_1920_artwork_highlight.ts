// The home page's hero and featured works, chosen by the owner (issue 27, part 2): before, the hero
// was the first work for sale in gallery order, so a new work (placed first) took it silently.
// `highlight` is 'hero' (one work at most) or 'featured'; null for the rest. Frozen once run.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('artworks')
    .addColumn('highlight', 'text', (c) => c.check(sql`highlight IN ('hero', 'featured')`))
    .execute();
  await db.schema
    .createIndex('artworks_one_hero')
    .on('artworks')
    .column('highlight')
    .unique()
    .where(sql.ref('highlight'), '=', 'hero')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('artworks_one_hero').execute();
  await db.schema.alterTable('artworks').dropColumn('highlight').execute();
}
