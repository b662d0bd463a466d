// The migrations build the whole model from an empty database, roll back cleanly, and the
// constraints refuse bad rows on their own (no application code involved).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDownToZero, migrateTo, migrateToLatest } from '#api/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const TABLES = [
  'admin_invitations',
  'artwork_images',
  'artworks',
  'audit_log',
  'cart_items',
  'carts',
  'certificate_transfers',
  'certificates',
  'contact_messages',
  'customer_summaries',
  'edition_copies',
  'erasure_requests',
  'holds',
  'invoice_counters',
  'invoices',
  'link_secrets',
  'login_challenges',
  'login_throttle',
  'media',
  'order_items',
  'orders',
  'password_reset_tokens',
  'rate_limits',
  'recovery_codes',
  'sales_day_buyers',
  'sales_day_works',
  'sales_days',
  'sessions',
  'signing_keys',
  'site_settings',
  'subscriptions',
  'totp_credentials',
  'users',
  'visit_counts',
  'visitor_days',
  'visitor_hashes',
  'webhook_events',
  'withdrawals',
  'work_views',
];

async function tables(handle: TestDatabase): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%' ORDER BY table_name`.execute(
    handle.db,
  );
  return rows.map((r) => r.table_name);
}

describe('migrations from an empty database', { tags: ['pg-server'] }, () => {
  let empty: TestDatabase;
  beforeAll(async () => {
    empty = await createTestDatabase({ empty: true });
  });
  afterAll(() => empty.dispose());

  it('create every table of the data model, roll back to nothing, and apply again', async () => {
    expect(await tables(empty)).toEqual([]);
    const applied = await migrateToLatest(empty.db);
    expect(applied.length).toBeGreaterThan(0);
    expect(await tables(empty)).toEqual(TABLES);
    expect(await migrateToLatest(empty.db)).toEqual([]);

    await migrateDownToZero(empty.db);
    expect(await tables(empty)).toEqual([]);
    await migrateToLatest(empty.db);
    expect(await tables(empty)).toEqual(TABLES);
  });
});

describe(
  'linking prints to their originals (20261123_0100_publishing)',
  { tags: ['pg-server'] },
  () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase({ empty: true });
    });
    afterAll(() => db.dispose());

    it('links by the slug convention, else by the French title, and survives renames after', async () => {
      await migrateTo(db.db, '20261122_0700_accounts');
      const insert = (slug: string, type: string, title: string) =>
        db.db
          .insertInto('artworks')
          .values({
            slug,
            artwork_type: type,
            title_fr: title,
            title_en: title,
            dimensions: '10 x 10 cm',
            price_cents: 1000,
            stock: 1,
          })
          .execute();
      await insert('aube-original', 'original', 'Aube');
      await insert('aube-print', 'print', 'Aube (tirage renommé)');
      await insert('nuit-bleue', 'original', 'Nuit bleue');
      await insert('nuit-bleue-copie', 'print', 'nuit bleue ');
      await insert('seul-print', 'print', 'Seul');
      await migrateToLatest(db.db);

      const rows = await db.db
        .selectFrom('artworks as p')
        .leftJoin('artworks as o', 'o.id', 'p.original_id')
        .select(['p.slug', 'o.slug as original'])
        .where('p.artwork_type', '=', 'print')
        .orderBy('p.slug')
        .execute();
      expect(rows).toEqual([
        { slug: 'aube-print', original: 'aube-original' },
        { slug: 'nuit-bleue-copie', original: 'nuit-bleue' },
        { slug: 'seul-print', original: null },
      ]);
      await db.db
        .updateTable('artworks')
        .set({ title_fr: 'Aurore' })
        .where('slug', '=', 'aube-original')
        .execute();
      const print = await db.db
        .selectFrom('artworks')
        .select('original_id')
        .where('slug', '=', 'aube-print')
        .executeTakeFirstOrThrow();
      expect(print.original_id).not.toBeNull();
    });

    it('refuses an original that names an original, and a print naming itself', async () => {
      const original = await db.db
        .selectFrom('artworks')
        .select('id')
        .where('slug', '=', 'nuit-bleue')
        .executeTakeFirstOrThrow();
      await expect(
        db.db
          .updateTable('artworks')
          .set({ original_id: original.id })
          .where('slug', '=', 'aube-original')
          .execute(),
      ).rejects.toThrow(/artworks_original_id_only_prints/);
      await expect(
        sql`UPDATE artworks SET original_id = id WHERE slug = 'seul-print'`.execute(db.db),
      ).rejects.toThrow(/artworks_original_id_not_self/);
    });
  },
);

describe('constraints', { tags: ['pg-server'] }, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  let n = 0;
  const artwork = (overrides: Record<string, unknown> = {}) => ({
    slug: `work-${++n}`,
    title_fr: 'Titre',
    title_en: 'Title',
    dimensions: '100 x 80 cm',
    price_cents: 42000,
    stock: 3,
    artwork_type: 'print',
    ...overrides,
  });
  const insertArtwork = (overrides: Record<string, unknown> = {}) =>
    t.db
      .insertInto('artworks')
      .values(artwork(overrides) as never)
      .returning('id')
      .executeTakeFirstOrThrow();

  const order = (overrides: Record<string, unknown> = {}) => ({
    order_number: `GAL-${++n}`,
    customer_name: 'Ana Costa',
    customer_email: 'ana@example.com',
    shipping_address: JSON.stringify({
      street: '1 rua',
      city: 'Lisboa',
      postal_code: '1000',
      country: 'PT',
    }),
    subtotal_cents: 42000,
    discount_cents: 0,
    shipping_cents: 1500,
    total_cents: 43500,
    ...overrides,
  });
  const insertOrder = (overrides: Record<string, unknown> = {}) =>
    t.db
      .insertInto('orders')
      .values(order(overrides) as never)
      .returning('id')
      .executeTakeFirstOrThrow();

  it('accepts a valid artwork with its defaults', async () => {
    const { id } = await insertArtwork();
    const row = await t.db
      .selectFrom('artworks')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      category: 'peinture',
      collection: 'moderna',
      is_available: true,
      is_sold: false,
    });
  });

  it.each([
    ['a zero price', { price_cents: 0 }],
    ['a negative price', { price_cents: -100 }],
    ['negative stock', { stock: -1 }],
    ['an unknown category', { category: 'video' }],
    ['an unknown type', { artwork_type: 'poster' }],
    ['a sold print', { is_sold: true }],
    ['an original with two pieces', { artwork_type: 'original', stock: 2 }],
    ['an empty title', { title_fr: '  ' }],
    ['a slug with spaces', { slug: 'Not A Slug' }],
  ])('refuses an artwork with %s', async (_label, overrides) => {
    await expect(insertArtwork(overrides)).rejects.toThrow();
  });

  it('refuses a stock update below zero', async () => {
    const { id } = await insertArtwork({ stock: 1 });
    await expect(
      t.db
        .updateTable('artworks')
        .set((eb) => ({ stock: eb('stock', '-', 2) }))
        .where('id', '=', id)
        .execute(),
    ).rejects.toThrow(/check/i);
  });

  it('keeps a message whole: a contact message has a subject, an enquiry its work (20261126_1600)', async () => {
    const message = { name: 'Ana', email: 'ana@example.com', message: 'Bonjour' };
    const insert = (values: Record<string, unknown>) =>
      t.db
        .insertInto('contact_messages')
        .values({ ...message, ...values })
        .execute();
    await insert({ subject: 'information' });
    await insert({ kind: 'enquiry', work_title: 'Le grand large' });
    await expect(insert({})).rejects.toThrow(/check/i);
    await expect(insert({ kind: 'enquiry' })).rejects.toThrow(/check/i);
    await expect(insert({ subject: 'information', work_title: 'X' })).rejects.toThrow(/check/i);
    await expect(insert({ kind: 'note', subject: 'information' })).rejects.toThrow(/check/i);
  });

  it('refuses a second user with the same email in another case', async () => {
    await t.db.insertInto('users').values({ email: 'Marie@Example.com' }).execute();
    await expect(
      t.db.insertInto('users').values({ email: 'marie@example.COM' }).execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it('refuses two orders with the same Stripe session id', async () => {
    await insertOrder({ stripe_session_id: 'cs_test_dup' });
    await expect(insertOrder({ stripe_session_id: 'cs_test_dup' })).rejects.toThrow(
      /unique|duplicate/i,
    );
  });

  it('refuses an order whose total does not add up', async () => {
    await expect(insertOrder({ total_cents: 40000 })).rejects.toThrow(/orders_total_adds_up/);
    await expect(insertOrder({ discount_cents: 50000, total_cents: -6500 })).rejects.toThrow();
  });

  it('records a webhook event only once', async () => {
    await t.db
      .insertInto('webhook_events')
      .values({ id: 'evt_1', type: 'checkout.session.completed' })
      .execute();
    await expect(
      t.db
        .insertInto('webhook_events')
        .values({ id: 'evt_1', type: 'checkout.session.completed' })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it('lets an original be held by one open checkout only', async () => {
    const original = await insertArtwork({
      artwork_type: 'original',
      stock: 1,
      price_cents: 410000,
    });
    const first = await insertOrder();
    const second = await insertOrder();
    const hold = (orderId: string) => ({
      order_id: orderId,
      artwork_id: original.id,
      artwork_type: 'original',
      quantity: 1,
      expires_at: new Date(Date.now() + 30 * 60_000),
    });
    await t.db.insertInto('holds').values(hold(first.id)).execute();
    await expect(t.db.insertInto('holds').values(hold(second.id)).execute()).rejects.toThrow(
      /holds_one_active_per_original|unique|duplicate/i,
    );
    // Once the first hold is released, another checkout may hold the work.
    await t.db
      .updateTable('holds')
      .set({ state: 'released' })
      .where('order_id', '=', first.id)
      .execute();
    await t.db.insertInto('holds').values(hold(second.id)).execute();
  });

  it('refuses a cart line with a zero quantity and a second line for the same work', async () => {
    const { id } = await insertArtwork();
    await expect(
      t.db
        .insertInto('cart_items')
        .values({ cart_id: 'c1', artwork_id: id, quantity: 0 })
        .execute(),
    ).rejects.toThrow();
    await t.db
      .insertInto('cart_items')
      .values({ cart_id: 'c1', artwork_id: id, quantity: 1 })
      .execute();
    await expect(
      t.db
        .insertInto('cart_items')
        .values({ cart_id: 'c1', artwork_id: id, quantity: 1 })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});
