// Keys of the signed links (issue 26, docs/decisions/047): one random 256-bit secret per purpose
// ('invoice' for now), made on first use and kept in the database — so every node of the site
// signs and checks with the same key and every backup carries it. Losing it only invalidates the
// links already mailed; a new one is made on the next use.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('link_secrets')
    .addColumn('purpose', 'text', (c) => c.primaryKey().check(sql`purpose ~ '^[a-z_]{1,40}$'`))
    .addColumn('secret', 'bytea', (c) => c.notNull().check(sql`length(secret) = 32`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('link_secrets').execute();
}
