// Issue 11: what the back office needs from the data model. An audit log of every admin change
// (who, what, before → after, when) written in the change's own transaction; a version on each
// work, raised by the database on every update (a sale, a hold, another tab), so a save made on
// an older version is refused instead of overwriting; and archiving, for a work that appears in an
// order and so cannot be deleted. Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('actor_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .execute();
  await db.schema
    .createIndex('audit_log_entity_idx')
    .on('audit_log')
    .columns(['entity', 'entity_id', 'at'])
    .execute();

  await db.schema
    .alterTable('artworks')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('archived_at', 'timestamptz')
    .execute();
  await sql`ALTER TABLE artworks ADD CONSTRAINT artworks_archived_hidden
    CHECK (archived_at IS NULL OR NOT is_available)`.execute(db);
  await sql`CREATE FUNCTION artworks_next_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.version := OLD.version + 1;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER artworks_version BEFORE UPDATE ON artworks
    FOR EACH ROW EXECUTE FUNCTION artworks_next_version()`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP TRIGGER artworks_version ON artworks`.execute(db);
  await sql`DROP FUNCTION artworks_next_version()`.execute(db);
  await sql`ALTER TABLE artworks DROP CONSTRAINT artworks_archived_hidden`.execute(db);
  await db.schema.alterTable('artworks').dropColumn('archived_at').dropColumn('version').execute();
  await db.schema.dropTable('audit_log').execute();
}
