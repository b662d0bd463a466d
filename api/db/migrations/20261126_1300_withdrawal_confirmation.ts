// A withdrawal made with only an order number and an email is a statement awaiting the buyer's
// confirmation from their mailbox (issue 24, break 1; docs/decisions/039): a withdrawal is now
// 'pending' (the statement, with its date, the legal date), 'confirmed' (from the mailed link or
// from the buyer's signed-in account) or 'disowned' (the mailbox's owner said "this was not me").
// At most one statement per order is not disowned. The link's token is kept only as its SHA-256.
// Withdrawals made before count as confirmed on the page, as they were.
// Frozen once it has run anywhere.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('withdrawals')
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('confirmed')
        .check(sql`state IN ('pending', 'confirmed', 'disowned')`),
    )
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('confirmed_via', 'text', (c) =>
      c.check(sql`confirmed_via IN ('mail', 'account', 'page')`),
    )
    .addColumn('disowned_at', 'timestamptz')
    .addColumn('token_hash', 'bytea')
    .addColumn('token_expires_at', 'timestamptz')
    .addColumn('mailed_at', 'timestamptz')
    .execute();
  await sql`UPDATE withdrawals SET confirmed_at = requested_at, confirmed_via = 'page'`.execute(db);
  await sql`ALTER TABLE withdrawals ALTER COLUMN state DROP DEFAULT`.execute(db);
  await sql`ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_confirmed_when
    CHECK ((state = 'confirmed') = (confirmed_at IS NOT NULL AND confirmed_via IS NOT NULL))`.execute(
    db,
  );
  await sql`ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_disowned_when
    CHECK ((state = 'disowned') = (disowned_at IS NOT NULL))`.execute(db);
  await sql`ALTER TABLE withdrawals DROP CONSTRAINT withdrawals_order_id_key`.execute(db);
  await sql`CREATE UNIQUE INDEX withdrawals_one_live_per_order ON withdrawals (order_id)
    WHERE state <> 'disowned'`.execute(db);
  await sql`CREATE INDEX withdrawals_order ON withdrawals (order_id)`.execute(db);
  await sql`CREATE UNIQUE INDEX withdrawals_token ON withdrawals (token_hash)
    WHERE token_hash IS NOT NULL`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DELETE FROM withdrawals WHERE state <> 'confirmed'`.execute(db);
  await sql`DROP INDEX withdrawals_token`.execute(db);
  await sql`DROP INDEX withdrawals_order`.execute(db);
  await sql`DROP INDEX withdrawals_one_live_per_order`.execute(db);
  await sql`ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_order_id_key UNIQUE (order_id)`.execute(
    db,
  );
  await db.schema.alterTable('withdrawals').dropConstraint('withdrawals_disowned_when').execute();
  await db.schema.alterTable('withdrawals').dropConstraint('withdrawals_confirmed_when').execute();
  for (const column of [
    'mailed_at',
    'token_expires_at',
    'token_hash',
    'disowned_at',
    'confirmed_via',
    'confirmed_at',
    'state',
  ])
    await db.schema.alterTable('withdrawals').dropColumn(column).execute();
}
