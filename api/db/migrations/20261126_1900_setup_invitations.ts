// The first administrator's setup link (issue 27 item 0, docs/decisions/048): an invitation
// without an address, printed by the server while no administrator exists; whoever accepts it
// chooses the account's email then. Every other invitation still names its address.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('admin_invitations')
    .alterColumn('email', (c) => c.dropNotNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.deleteFrom('admin_invitations').where('email', 'is', null).execute();
  await db.schema
    .alterTable('admin_invitations')
    .alterColumn('email', (c) => c.setNotNull())
    .execute();
}
