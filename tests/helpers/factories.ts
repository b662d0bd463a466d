// Test data through factories (issue 10): one kitchen-sink row per entity, every column filled
// with something plausible, and a test names only what it is about. Each call makes a new row
// with unique keys.
import type { Insertable } from 'kysely';
import { createSession } from '#api/accounts/sessions.ts';
import type { Executor } from '#api/db/index.ts';
import type { Artworks, Users } from '#api/db/schema.ts';

let sequence = 0;
const next = () => `${Date.now().toString(36)}-${++sequence}`;

export type ArtworkRow = Insertable<Artworks>;

/** A visible, unsold work with every field set; an original unless `artwork_type` says print. */
export async function makeArtwork(
  db: Executor,
  overrides: Partial<ArtworkRow> = {},
): Promise<{ id: number; slug: string }> {
  const type = overrides.artwork_type ?? 'original';
  const key = next();
  const row: ArtworkRow = {
    slug: `oeuvre-${key}-${type}`,
    artwork_type: type,
    title_fr: `Œuvre ${key}`,
    title_en: `Work ${key}`,
    description_fr: 'Une huile lumineuse sur le Tage.',
    description_en: 'A luminous oil on the Tagus.',
    technique_fr: type === 'print' ? 'Tirage giclée' : 'Huile sur toile',
    technique_en: type === 'print' ? 'Giclée print' : 'Oil on canvas',
    dimensions: type === 'print' ? '50 x 40 cm' : '100 x 80 cm',
    year: 2025,
    price_cents: type === 'print' ? 35_000 : 410_000,
    stock: type === 'print' ? 10 : 1,
    category: 'peinture',
    collection: 'moderna',
    is_available: true,
    is_sold: false,
    display_order: 0,
    edition_size: type === 'print' ? 50 : null,
    ...overrides,
  };
  return db.insertInto('artworks').values(row).returning(['id', 'slug']).executeTakeFirstOrThrow();
}

/** An original and a print of it (linked by original_id), as the back office creates them. */
export async function makeWorkWithPrint(
  db: Executor,
  overrides: { original?: Partial<ArtworkRow>; print?: Partial<ArtworkRow> } = {},
): Promise<{ original: number; print: number }> {
  const original = await makeArtwork(db, overrides.original);
  const print = await makeArtwork(db, {
    artwork_type: 'print',
    original_id: original.id,
    ...overrides.print,
  });
  return { original: original.id, print: print.id };
}

export type UserRow = Insertable<Users>;

/** A verified customer (or `role: 'admin'`) with a live session: its cookie for requests. */
export async function makeUser(
  db: Executor,
  overrides: Partial<UserRow> = {},
): Promise<{ id: string; email: string; cookie: string; token: string }> {
  const key = next();
  const user = await db
    .insertInto('users')
    .values({
      email: `person-${key}@example.test`,
      full_name: `Personne ${key}`,
      role: 'customer',
      email_verified_at: new Date(),
      ...overrides,
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  const { token } = await createSession(db, user.id);
  return { ...user, token, cookie: `session=${token}` };
}
