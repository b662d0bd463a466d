// Administrators' sessions end after 2 hours without activity and 7 days after sign-in, whatever
// the activity (issue 24, "The owner's account"): a session remembers when it was last used.
// Frozen once it has run anywhere.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'timestamptz').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute();
}
