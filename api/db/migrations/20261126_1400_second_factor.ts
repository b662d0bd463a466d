// Administrators' second factor and re-authentication (issue 24, "The owner's account";
// docs/decisions/037): an authenticator app's key per account (pending until a first code confirms
// it) with the last time step accepted, so a code works once; ten single-use recovery codes kept as
// SHA-256; the pending sign-ins waiting for their code (the cookie's token kept as SHA-256, 5 min);
// and when a session last proved its user present again, for the few actions that ask for it.
// Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('totp_credentials')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('key', 'bytea', (c) => c.notNull().check(sql`octet_length(key) = 20`))
    .addColumn('enabled_at', 'timestamptz')
    .addColumn('last_counter', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'bytea', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('recovery_codes_user_code', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('login_challenges')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('login_challenges_expires')
    .on('login_challenges')
    .column('expires_at')
    .execute();

  await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'timestamptz').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('reauthenticated_at').execute();
  await db.schema.dropTable('login_challenges').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('totp_credentials').execute();
}
