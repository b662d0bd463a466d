// The owner's messages (issue 25, "Ask about this work"; docs/decisions/042): contact_messages
// keeps every message the site receives — a contact form's message and an enquiry about a work —
// with its kind, the work asked about (and its title as it was, should the work go), and when
// the owner read it. Columns are added, the table keeps its name: a node still running the
// previous release reads and writes it unchanged during a rolling upgrade. Frozen once it has run.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('contact_messages')
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('contact')
        .check(sql`kind IN ('contact', 'enquiry')`),
    )
    .addColumn('artwork_id', 'integer', (c) => c.references('artworks.id').onDelete('set null'))
    .addColumn('work_title', 'text')
    .addColumn('read_at', 'timestamptz')
    .execute();
  // An enquiry has no subject (its work is its subject); a contact message still always has one.
  await db.schema
    .alterTable('contact_messages')
    .alterColumn('subject', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .alterTable('contact_messages')
    .addCheckConstraint(
      'contact_messages_kind_fields',
      sql`CASE kind WHEN 'contact' THEN subject IS NOT NULL AND work_title IS NULL
        ELSE work_title IS NOT NULL END`,
    )
    .execute();
  // The Messages screen reads newest first, all or unread only; the dashboard counts unread.
  await db.schema
    .createIndex('contact_messages_received')
    .on('contact_messages')
    .columns(['created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('contact_messages_unread')
    .on('contact_messages')
    .columns(['created_at desc', 'id desc'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('contact_messages_unread').execute();
  await db.schema.dropIndex('contact_messages_received').execute();
  await db.schema
    .alterTable('contact_messages')
    .dropConstraint('contact_messages_kind_fields')
    .execute();
  await db.deleteFrom('contact_messages').where('kind', '=', 'enquiry').execute();
  await db.schema
    .alterTable('contact_messages')
    .alterColumn('subject', (c) => c.setNotNull())
    .execute();
  await db.schema
    .alterTable('contact_messages')
    .dropColumn('read_at')
    .dropColumn('work_title')
    .dropColumn('artwork_id')
    .dropColumn('kind')
    .execute();
}
