// Accounts (issue 5): a verified e-mail address is what lets an account see the guest orders
// placed with it (docs/decisions/010), and the one pending verification link of a user is kept
// beside it, hashed. Indexes for the account page's reads. Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified_at', 'timestamptz')
    .addColumn('email_verification_hash', 'bytea', (c) => c.unique())
    .addColumn('email_verification_expires_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX orders_user_id_idx ON orders (user_id, created_at DESC) WHERE user_id IS NOT NULL`.execute(
    db,
  );
  await db.schema
    .createIndex('subscriptions_user_id_idx')
    .on('subscriptions')
    .column('user_id')
    .execute();
  await db.schema
    .createIndex('password_reset_tokens_user_id_idx')
    .on('password_reset_tokens')
    .column('user_id')
    .execute();
  await db.schema
    .createIndex('sessions_expires_at_idx')
    .on('sessions')
    .column('expires_at')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('sessions_expires_at_idx').execute();
  await db.schema.dropIndex('password_reset_tokens_user_id_idx').execute();
  await db.schema.dropIndex('subscriptions_user_id_idx').execute();
  await db.schema.dropIndex('orders_user_id_idx').execute();
  await db.schema
    .alterTable('users')
    .dropColumn('email_verification_expires_at')
    .dropColumn('email_verification_hash')
    .dropColumn('email_verified_at')
    .execute();
}
