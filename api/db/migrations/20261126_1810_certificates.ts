// Certificates of authenticity (issue 26, docs/decisions/046). One row per certificate: an
// unguessable serial, what it certifies (an order's original, or one numbered copy of a print),
// the content that was signed — frozen: the PDF and the public page are drawn from it — and its
// state (valid → replaced / revoked / transferred). A replacement or a transfer is a new row whose
// `predecessor` is the old one, so the provenance is the chain of predecessors.
// `signing_keys` keeps the gallery's Ed25519 key pair with the rest of the data (so every backup
// carries it); `certificate_transfers` the pending hand-overs to a new owner's address.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('algorithm', 'text', (c) => c.notNull().check(sql`algorithm = 'ed25519'`))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    // One key signs: the active one. Older keys stay to verify what they signed.
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('signing_keys_one_active')
    .on('signing_keys')
    .column('active')
    .unique()
    .where(sql.ref('active'), '=', true)
    .execute();

  await db.schema
    .createTable('certificates')
    .addColumn('serial', 'text', (c) => c.primaryKey().check(sql`serial ~ '^GAL-[A-Z2-7]{20}$'`))
    .addColumn('order_id', 'uuid', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('order_item_id', 'integer', (c) =>
      c.references('order_items.id').onDelete('set null'),
    )
    .addColumn('artwork_id', 'integer', (c) => c.references('artworks.id').onDelete('set null'))
    .addColumn('edition_kind', 'text', (c) =>
      c.check(sql`edition_kind IN ('numbered', 'ea', 'hc')`),
    )
    .addColumn('edition_number', 'integer')
    .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('fr', 'en')`))
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('valid')
        .check(sql`state IN ('valid', 'replaced', 'revoked', 'transferred')`),
    )
    .addColumn('state_changed_at', 'timestamptz')
    .addColumn('predecessor', 'text', (c) => c.references('certificates.serial'))
    .addColumn('replaced_by', 'text', (c) => c.references('certificates.serial'))
    .addColumn('revoked_reason', 'text')
    .addColumn('holder_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('holder_email', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull().references('signing_keys.id'))
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'certificates_edition_whole',
      sql`(edition_kind IS NULL) = (edition_number IS NULL)`,
    )
    .addCheckConstraint(
      'certificates_state_when',
      sql`(state = 'valid') = (state_changed_at IS NULL)`,
    )
    .addCheckConstraint(
      'certificates_revoked_why',
      sql`state <> 'revoked' OR revoked_reason IS NOT NULL`,
    )
    .execute();
  // One valid certificate per sold thing (an order line's original, or one copy of its edition).
  await db.schema
    .createIndex('certificates_one_valid_per_item')
    .on('certificates')
    .expression(sql`order_item_id, coalesce(edition_kind, ''), coalesce(edition_number, 0)`)
    .unique()
    .where(sql.ref('state'), '=', 'valid')
    .execute();
  await db.schema.createIndex('certificates_order').on('certificates').column('order_id').execute();
  await db.schema
    .createIndex('certificates_holder')
    .on('certificates')
    .column('holder_user_id')
    .where(sql.ref('holder_user_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('certificate_transfers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('serial', 'text', (c) =>
      c.notNull().references('certificates.serial').onDelete('cascade'),
    )
    .addColumn('new_owner_email', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull().check(sql`locale IN ('fr', 'en')`))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('claimed_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('new_serial', 'text', (c) => c.references('certificates.serial'))
    .addColumn('cancelled_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('certificate_transfers_serial')
    .on('certificate_transfers')
    .column('serial')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('certificate_transfers').execute();
  await db.schema.dropTable('certificates').execute();
  await db.schema.dropTable('signing_keys').execute();
}
