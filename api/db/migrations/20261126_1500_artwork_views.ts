// A work's photos (issue 25, part 3; docs/decisions/041-artwork-views.md): up to 8 per work, in
// order, each with a caption per language (its alt text). Position 0 is the card image, which
// `artworks.media_id` keeps naming: every reader of the card image (cart, orders, invoices) goes on
// reading that column, and two triggers keep the two in step whoever writes first. The table is
// `artwork_images`: `work_views` already counts a work's page views (visits). Frozen once run.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on the generated schema types
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('artwork_images')
    .addColumn('artwork_id', 'integer', (c) =>
      c.notNull().references('artworks.id').onDelete('cascade'),
    )
    // 0..7: at most 8 photos a work, guarded here as well as by the schema and the service.
    .addColumn('position', 'smallint', (c) => c.notNull().check(sql`position BETWEEN 0 AND 7`))
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('restrict'))
    .addColumn('caption_fr', 'text', (c) =>
      c
        .notNull()
        .defaultTo('')
        .check(sql`char_length(caption_fr) <= 300`),
    )
    .addColumn('caption_en', 'text', (c) =>
      c
        .notNull()
        .defaultTo('')
        .check(sql`char_length(caption_en) <= 300`),
    )
    .addPrimaryKeyConstraint('artwork_images_pkey', ['artwork_id', 'position'])
    .execute();
  await db.schema
    .createIndex('artwork_images_media_idx')
    .on('artwork_images')
    .column('media_id')
    .execute();

  // Every work's current image becomes its first photo, captioned as its alt text was.
  await sql`INSERT INTO artwork_images (artwork_id, position, media_id, caption_fr, caption_en)
    SELECT a.id, 0, a.media_id, '', '' FROM artworks a WHERE a.media_id IS NOT NULL`.execute(db);

  // The first photo → artworks.media_id (the card image), after any change of the list.
  await sql`CREATE FUNCTION artwork_images_card() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      work integer := COALESCE(NEW.artwork_id, OLD.artwork_id);
      first uuid;
    BEGIN
      SELECT media_id INTO first FROM artwork_images WHERE artwork_id = work AND position = 0;
      UPDATE artworks SET media_id = first WHERE id = work AND media_id IS DISTINCT FROM first;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER artwork_images_card AFTER INSERT OR UPDATE OR DELETE ON artwork_images
    FOR EACH ROW EXECUTE FUNCTION artwork_images_card()`.execute(db);

  // artworks.media_id written directly (an older writer, a test's factory) → the first photo.
  await sql`CREATE FUNCTION artworks_card_image() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.media_id IS NULL THEN
        RETURN NULL;
      END IF;
      UPDATE artwork_images SET media_id = NEW.media_id, caption_fr = '', caption_en = ''
        WHERE artwork_id = NEW.id AND position = 0 AND media_id <> NEW.media_id;
      IF NOT FOUND AND NOT EXISTS (
        SELECT 1 FROM artwork_images WHERE artwork_id = NEW.id AND position = 0
      ) THEN
        INSERT INTO artwork_images (artwork_id, position, media_id) VALUES (NEW.id, 0, NEW.media_id);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER artworks_card_image AFTER INSERT OR UPDATE OF media_id ON artworks
    FOR EACH ROW EXECUTE FUNCTION artworks_card_image()`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP TRIGGER artworks_card_image ON artworks`.execute(db);
  await sql`DROP FUNCTION artworks_card_image()`.execute(db);
  await db.schema.dropTable('artwork_images').execute();
  await sql`DROP FUNCTION artwork_images_card()`.execute(db);
}
