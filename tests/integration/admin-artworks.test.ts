// The back office's works (issue 11) against a real database: search in SQL over both languages
// without case or accents, the version guard against lost updates, moves and resets, delete or
// archive, the audit log, and image uploads that keep nothing but clean pixels.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkArtworks,
  createArtwork,
  deleteArtwork,
  getAdminArtwork,
  listAdminArtworks,
  moveArtwork,
  reorderArtworks,
  moveToEdge,
  resetOrder,
  restoreArtwork,
  setHighlight,
  updateArtwork,
} from '#api/admin/artworks.ts';
import { listPublicArtworks } from '#api/catalog/index.ts';
import { readAudit } from '#api/admin/audit.ts';
import { MAX_UPLOAD_BYTES, storeUpload } from '#api/admin/uploads.ts';
import { AppError } from '#api/http/errors.ts';
import { diskStorage } from '#api/media/storage.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeArtwork, makeUser, makeWorkWithPrint } from '../helpers/factories.ts';

let t: TestDatabase;
let mediaDir: string;
let owner: { id: string; email: string };

beforeAll(async () => {
  t = await createTestDatabase();
  mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-admin-media-'));
  owner = await makeUser(t.db, { role: 'admin' });
});
afterAll(async () => {
  await t.dispose();
  await fs.rm(mediaDir, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

const ids = async () => (await listAdminArtworks(t.db, { q: '' })).artworks.map((a) => a.id);

describe('the works list', () => {
  it(
    'searches both languages’ titles, technique and description, without case or accents',
    { tags: ['pg-server'] },
    async () => {
      const titles = { title_fr: 'Éclat d’Œillet', title_en: 'Carnation Flash' };
      const { original } = await makeWorkWithPrint(t.db, { original: titles, print: titles });
      await makeArtwork(t.db, { description_en: 'A quiet ÉTÉ morning', title_fr: 'Matin' });
      const find = async (q: string) =>
        (await listAdminArtworks(t.db, { q })).artworks.map((a) => a.title.fr);
      expect(await find('eclat d')).toContain('Éclat d’Œillet');
      expect(await find('OEILLET')).toContain('Éclat d’Œillet');
      expect(await find('carnation')).toContain('Éclat d’Œillet');
      expect(await find('été')).toEqual(['Matin']);
      expect(await find('%')).toEqual([]);
      const prints = await listAdminArtworks(t.db, { q: 'oeillet', type: 'print' });
      expect(prints.artworks.map((a) => [a.type, a.originalId])).toEqual([['print', original]]);
      expect(prints.total).toBeGreaterThanOrEqual(3);
    },
  );
});

describe('changing a work', () => {
  it('refuses a save made on an older version and answers the current values', async () => {
    const { id } = await makeArtwork(t.db, { price_cents: 100_000 });
    const opened = await getAdminArtwork(t.db, id);
    // Meanwhile another tab (or a sale) changes it.
    await updateArtwork({ db: t.db }, id, { version: opened.version, priceCents: 120_000 }, owner);
    const stale = await updateArtwork(
      { db: t.db },
      id,
      { version: opened.version, priceCents: 90_000 },
      owner,
    ).catch((error: unknown) => error as AppError);
    expect(stale).toBeInstanceOf(AppError);
    expect((stale as AppError).code).toBe('version_conflict');
    expect((stale as AppError).details?.['artwork']).toMatchObject({ priceCents: 120_000 });
    expect((await getAdminArtwork(t.db, id)).priceCents).toBe(120_000);
  });

  it('raises the version on any change of the row, a checkout’s hold included', async () => {
    const { id } = await makeArtwork(t.db, { artwork_type: 'print', stock: 4 });
    const before = (await getAdminArtwork(t.db, id)).version;
    await t.db.updateTable('artworks').set({ stock: 3 }).where('id', '=', id).execute();
    expect((await getAdminArtwork(t.db, id)).version).toBe(before + 1);
  });

  it('creates a work last in the gallery, with a free slug, and audits every change', async () => {
    const input = {
      type: 'print' as const,
      title: { fr: 'Matin', en: 'Morning' },
      description: { fr: '', en: '' },
      technique: { fr: 'Giclée print sur toile', en: 'Giclée print' },
      category: 'peinture' as const,
      collection: '',
      year: 2026,
      dimensions: '100 x 80 cm',
      priceCents: 42_000,
      stock: 10,
      editionSize: 30,
      isAvailable: true,
      isSold: false,
      originalId: null,
      imageSha256: null,
    };
    const a = await createArtwork(t.db, input, owner);
    const b = await createArtwork(t.db, input, owner);
    expect(a.slug).toBe('matin-print');
    expect(b.slug).toBe('matin-2-print');
    // issue 27: a new work goes last, so it never takes the home page's hero by its place.
    expect((await ids()).slice(-2)).toEqual([a.id, b.id]);
    expect(a.highlight).toBeNull();
    const entries = await readAudit(t.db, { entity: 'artwork', entityId: String(b.id) });
    expect(entries[0]).toMatchObject({
      action: 'artwork.create',
      actor: owner.email,
      before: null,
    });
  });

  it('moves up and down, takes a whole new order at once, and resets to oldest first', async () => {
    const order = await ids();
    const [first, second] = order as [number, number];
    await moveArtwork(t.db, second, 'up', owner);
    expect((await ids()).slice(0, 2)).toEqual([second, first]);
    expect(await codeOf(moveArtwork(t.db, second, 'up', owner))).toBe('rejected');
    await moveArtwork(t.db, second, 'down', owner);
    expect((await ids()).slice(0, 2)).toEqual([first, second]);

    const reversed = [...order].reverse();
    await reorderArtworks(t.db, reversed, owner);
    expect(await ids()).toEqual(reversed);
    expect(await codeOf(reorderArtworks(t.db, reversed.slice(1), owner))).toBe('version_conflict');
    await resetOrder(t.db, owner);
    const created = await t.db
      .selectFrom('artworks')
      .select('id')
      .where('archived_at', 'is', null)
      .orderBy('created_at', 'asc')
      .orderBy('id')
      .execute();
    // issue 27: the catalogue's own order, by the date each work was added, oldest first.
    expect(await ids()).toEqual(created.map((r) => r.id));
    const audit = await readAudit(t.db, { entity: 'artwork', entityId: 'all' });
    expect(audit.map((e) => e.action).slice(0, 2)).toEqual([
      'artwork.reset_order',
      'artwork.reorder',
    ]);
  });

  it('deletes a work never ordered with its unused image; archives one that was ordered', async () => {
    const storage = diskStorage(mediaDir);
    const bytes = await sharp({
      create: { width: 600, height: 400, channels: 3, background: '#c33' },
    })
      .jpeg()
      .toBuffer();
    const media = await storeUpload(t.db, storage, bytes, { fr: '', en: '' });
    const lone = await makeArtwork(t.db, { media_id: (await mediaRow(media.sha256)).id });
    const key = (await mediaRow(media.sha256)).storage_key;
    expect(await storage.exists(key)).toBe(true);
    expect(await deleteArtwork({ db: t.db, storage }, lone.id, owner)).toEqual({ archived: false });
    expect(
      await t.db.selectFrom('artworks').select('id').where('id', '=', lone.id).execute(),
    ).toEqual([]);
    expect(await storage.exists(key)).toBe(false);

    const ordered = await makeArtwork(t.db, { title_fr: 'Commandée' });
    const order = await t.db
      .insertInto('orders')
      .values({
        order_number: `GAL-TEST-${ordered.id}`,
        customer_name: 'Ana',
        customer_email: 'ana@example.test',
        shipping_address: JSON.stringify({}),
        subtotal_cents: 1000,
        total_cents: 1000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('order_items')
      .values({
        order_id: order.id,
        artwork_id: ordered.id,
        title: 'Commandée',
        unit_price_cents: 1000,
        quantity: 1,
        artwork_type: 'original',
      })
      .execute();
    expect(await deleteArtwork({ db: t.db, storage }, ordered.id, owner)).toEqual({
      archived: true,
    });
    expect(await ids()).not.toContain(ordered.id);
    const kept = await t.db
      .selectFrom('order_items')
      .innerJoin('artworks', 'artworks.id', 'order_items.artwork_id')
      .select(['order_items.title', 'artworks.is_available', 'artworks.archived_at'])
      .where('order_items.order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ title: 'Commandée', is_available: false });
    expect(kept.archived_at).not.toBeNull();
  });
});

/** An order naming the work: deleting it then archives it. */
async function orderFor(artworkId: number) {
  const order = await t.db
    .insertInto('orders')
    .values({
      order_number: `GAL-BULK-${artworkId}`,
      customer_name: 'Ana',
      customer_email: 'ana@example.test',
      shipping_address: JSON.stringify({}),
      subtotal_cents: 1000,
      total_cents: 1000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto('order_items')
    .values({
      order_id: order.id,
      artwork_id: artworkId,
      title: 'Commandée',
      unit_price_cents: 1000,
      quantity: 1,
      artwork_type: 'original',
    })
    .execute();
}

describe('several works at once, archives and the home page (issue 27)', () => {
  it('moves a selection to the top or the bottom, keeping its own order', () => {
    expect(moveToEdge([1, 2, 3, 4, 5], [4, 2], 'top')).toEqual([2, 4, 1, 3, 5]);
    expect(moveToEdge([1, 2, 3, 4, 5], [4, 2], 'bottom')).toEqual([1, 3, 5, 2, 4]);
  });

  it('hides, publishes, moves and deletes a selection', async () => {
    const a = await makeArtwork(t.db, { title_fr: 'Lot A' });
    const b = await makeArtwork(t.db, { title_fr: 'Lot B', is_available: false });
    const c = await makeArtwork(t.db, { title_fr: 'Lot C' });
    const visible = async (id: number) => (await getAdminArtwork(t.db, id)).isAvailable;
    expect(await bulkArtworks({ db: t.db }, { action: 'hide', ids: [a.id, b.id] }, owner)).toEqual({
      changed: 1,
      archived: 0,
    });
    expect([await visible(a.id), await visible(b.id)]).toEqual([false, false]);
    await bulkArtworks({ db: t.db }, { action: 'publish', ids: [a.id, b.id, c.id] }, owner);
    expect([await visible(a.id), await visible(b.id), await visible(c.id)]).toEqual([
      true,
      true,
      true,
    ]);
    await bulkArtworks({ db: t.db }, { action: 'move', ids: [c.id, a.id], to: 'top' }, owner);
    // The selection keeps its own order at the top.
    const before = await ids();
    expect(before.slice(0, 2)).toEqual(before.filter((id) => id === a.id || id === c.id));
    await bulkArtworks({ db: t.db }, { action: 'move', ids: [a.id], to: 'bottom' }, owner);
    expect((await ids()).at(-1)).toBe(a.id);
    // One of them is in an order: it is archived, the others deleted.
    await orderFor(b.id);
    expect(
      await bulkArtworks({ db: t.db }, { action: 'delete', ids: [a.id, b.id, c.id] }, owner),
    ).toEqual({ changed: 2, archived: 1 });
    expect(await ids()).not.toContain(b.id);
    // A work no longer in the gallery refuses the whole action.
    expect(await codeOf(bulkArtworks({ db: t.db }, { action: 'hide', ids: [b.id] }, owner))).toBe(
      'version_conflict',
    );
  });

  it('lists the archived works apart and restores one last in the gallery, hidden', async () => {
    const work = await makeArtwork(t.db, { title_fr: 'Archivée puis revenue' });
    await orderFor(work.id);
    await setHighlight(t.db, work.id, 'featured', owner);
    expect(await deleteArtwork({ db: t.db }, work.id, owner)).toEqual({ archived: true });
    const archived = await listAdminArtworks(t.db, { q: '', archived: true });
    expect(archived.artworks.map((w) => w.id)).toContain(work.id);
    expect(archived.archived).toBeGreaterThanOrEqual(1);
    const listed = archived.artworks.find((w) => w.id === work.id)!;
    expect(listed.archivedAt).not.toBeNull();
    expect(listed.highlight).toBeNull();
    const restored = await restoreArtwork(t.db, work.id, owner);
    expect(restored).toMatchObject({ isAvailable: false, archivedAt: null });
    expect((await ids()).at(-1)).toBe(work.id);
    expect(await codeOf(restoreArtwork(t.db, work.id, owner))).toBe('not_found');
    const entries = await readAudit(t.db, { entity: 'artwork', entityId: String(work.id) });
    expect(entries[0]?.action).toBe('artwork.restore');
  });

  it('keeps one hero, at most three featured works, and shows the choice to the catalogue', async () => {
    const [one, two] = [await makeArtwork(t.db), await makeArtwork(t.db)];
    await setHighlight(t.db, one.id, 'hero', owner);
    await setHighlight(t.db, two.id, 'hero', owner);
    expect((await getAdminArtwork(t.db, one.id)).highlight).toBeNull();
    expect((await getAdminArtwork(t.db, two.id)).highlight).toBe('hero');
    const heroes = await t.db
      .selectFrom('artworks')
      .select('id')
      .where('highlight', '=', 'hero')
      .execute();
    expect(heroes).toEqual([{ id: two.id }]);
    await t.db
      .updateTable('artworks')
      .set({ highlight: null })
      .where('highlight', '=', 'featured')
      .execute();
    const featured = [await makeArtwork(t.db), await makeArtwork(t.db), await makeArtwork(t.db)];
    for (const w of featured) await setHighlight(t.db, w.id, 'featured', owner);
    expect(await codeOf(setHighlight(t.db, one.id, 'featured', owner))).toBe('rejected');
    // Choosing again one already featured is no new place.
    expect(await codeOf(setHighlight(t.db, featured[0]!.id, 'featured', owner))).toBe('ok');
    await setHighlight(t.db, featured[0]!.id, null, owner);
    expect(await codeOf(setHighlight(t.db, one.id, 'featured', owner))).toBe('ok');
    const shop = await listPublicArtworks(t.db);
    expect(shop.find((w) => w.id === two.id)?.highlight).toBe('hero');
    expect(shop.find((w) => w.id === one.id)?.highlight).toBe('featured');
  });
});

async function mediaRow(sha256: string) {
  return t.db
    .selectFrom('media')
    .select(['id', 'storage_key'])
    .where('sha256', '=', sha256)
    .executeTakeFirstOrThrow();
}

describe('image uploads', () => {
  const storage = () => diskStorage(mediaDir);
  const filesOnDisk = async () =>
    (await fs.readdir(mediaDir, { recursive: true })).filter((f) => /\.(jpg|png|webp)$/.test(f))
      .length;
  const refusal = (bytes: Buffer, claimed?: string) =>
    storeUpload(t.db, storage(), bytes, { fr: '', en: '' }, claimed).then(
      () => 'stored',
      (error: unknown) =>
        error instanceof AppError
          ? `${error.code} ${error.fields?.['image'] ?? ''}`.trim()
          : String(error),
    );

  it('strips every metadata block, GPS included, and applies the EXIF orientation', async () => {
    const photo = await sharp({
      create: { width: 800, height: 600, channels: 3, background: '#246' },
    })
      .jpeg()
      .withMetadata({
        orientation: 6,
        exif: {
          IFD0: { Make: 'Phone' },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '38/1 42/1 0/1' },
        },
      })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const media = await storeUpload(t.db, storage(), photo, { fr: '', en: '' }, 'image/jpeg');
    const stored = await storage().get((await mediaRow(media.sha256)).storage_key);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(stored.includes(Buffer.from('GPS'))).toBe(false);
    // Turned upright: 600 × 800.
    expect([media.width, media.height]).toEqual([600, 800]);
  });

  it('refuses what is not a readable JPEG, PNG or WebP, and stores nothing', async () => {
    const before = await filesOnDisk();
    const png = await sharp({
      create: { width: 500, height: 500, channels: 3, background: '#fff' },
    })
      .png()
      .toBuffer();
    const jpeg = await sharp({
      create: { width: 900, height: 900, channels: 3, background: '#abc' },
    })
      .jpeg()
      .toBuffer();
    expect(await refusal(png, 'image/jpeg')).toBe('invalid_input admin.upload.error.mismatch');
    expect(
      await refusal(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'image/svg+xml'),
    ).toBe('invalid_input admin.upload.error.type');
    expect(await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg')).toBe(
      'invalid_input admin.upload.error.unreadable',
    );
    expect(await refusal(Buffer.alloc(MAX_UPLOAD_BYTES + 1))).toBe('payload_too_large');
    // A decompression bomb: a small PNG whose header claims 11 000 × 11 000 pixels (121 MP).
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(11_000, 16);
    bomb.writeUInt32BE(11_000, 20);
    bomb.writeUInt32BE(zlib.crc32(bomb.subarray(12, 29)), 29);
    expect(await refusal(bomb, 'image/png')).toMatch(
      /^invalid_input admin\.upload\.error\.(size|unreadable)$/,
    );
    expect(await filesOnDisk()).toBe(before);
  });
});
