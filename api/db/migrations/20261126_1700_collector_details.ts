// What a collector asks before paying for an original (issue 25, part 7; docs/decisions/043): where
// it is signed, whether it is framed, and how it travels. The signature and the shipping note are
// written per language; an empty shipping note means "the default of its size" (site setting
// `shipping_notes`), and a null `framed` means the owner has not said. Also puts the demo
// catalogue's half-English print technique into French. Frozen once run.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('artworks')
    .addColumn('signature_fr', 'text', (c) =>
      c
        .notNull()
        .defaultTo('')
        .check(sql`char_length(signature_fr) <= 200`),
    )
    .addColumn('signature_en', 'text', (c) =>
      c
        .notNull()
        .defaultTo('')
        .check(sql`char_length(signature_en) <= 200`),
    )
    .addColumn('framed', 'boolean')
    .addColumn('shipping_note_fr', 'text', (c) =>
      c
        .notNull()
        .defaultTo('')
        .check(sql`char_length(shipping_note_fr) <= 600`),
    )
    .addColumn('shipping_note_en', 'text', (c) =>
      c
        .notNull()
        .defaultTo('')
        .check(sql`char_length(shipping_note_en) <= 600`),
    )
    .execute();
  // "Giclée print sur toile" was the demo seed's and the new-print form's French (issue 25, part 8).
  await sql`UPDATE artworks SET technique_fr = 'Tirage giclée sur toile'
    WHERE technique_fr = 'Giclée print sur toile'`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('artworks')
    .dropColumn('signature_fr')
    .dropColumn('signature_en')
    .dropColumn('framed')
    .dropColumn('shipping_note_fr')
    .dropColumn('shipping_note_en')
    .execute();
}
