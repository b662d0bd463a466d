// A work's photos (issue 25, part 3) through the admin endpoints and the real middleware: the owner
// adds, orders, removes and captions up to 8 photos in both languages; the first is the card image
// everywhere (artworks.media_id, the list, the public snapshot); a 9th photo, an image never
// uploaded, a photo twice or an over-long caption is a 400 naming its field, with nothing saved;
// an older version is a 409; deleting the work removes the files no one else uses.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { APIRoute } from 'astro';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteArtwork } from '#api/admin/artworks.ts';
import { storeUpload } from '#api/admin/uploads.ts';
import { providePublisher } from '#api/build/publish.ts';
import { listPublicArtworks } from '#api/catalog/index.ts';
import { provideDatabase } from '#api/db/context.ts';
import { diskStorage, type MediaStorage } from '#api/media/storage.ts';
import { createEmulatedPayments, providePayments } from '#api/payments/index.ts';
import { PATCH } from '../../src/pages/api/admin/artworks/[id].ts';
import { POST } from '../../src/pages/api/admin/artworks/index.ts';
import type { AdminArtwork } from '../../src/schemas/artworks.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeUser } from '../helpers/factories.ts';

const ORIGIN = 'http://localhost:4321';
let t: TestDatabase;
let admin: { id: string; email: string; token: string };
let dir: string;
let storage: MediaStorage;
/** Ten uploaded photos, each different. */
let photos: string[];

interface Answer {
  status: number;
  body: {
    artwork?: AdminArtwork;
    error?: { code: string; message: string; fields?: Record<string, string> };
  };
}

async function send(
  route: APIRoute,
  method: string,
  url: string,
  body: unknown,
  params: Record<string, string> = {},
): Promise<Answer> {
  const response = await callEndpoint(route, {
    request: new Request(`${ORIGIN}${url}`, {
      method,
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    params,
    cookies: {
      get: (name: string) => (name === 'session' ? { value: admin.token } : undefined),
      has: (name: string) => name === 'session',
      set: () => {},
      delete: () => {},
    } as never,
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const create = (body: Record<string, unknown>) => send(POST, 'POST', '/api/admin/artworks', body);
const patch = (id: number, body: Record<string, unknown>) =>
  send(PATCH, 'PATCH', `/api/admin/artworks/${id}`, body, { id: String(id) });

const photo = (sha256: string, fr = '', en = '') => ({ sha256, caption: { fr, en } });

const NEW_ORIGINAL = (images: unknown[]) => ({
  type: 'original',
  title: { fr: 'Marée haute', en: 'High Tide' },
  description: { fr: '', en: '' },
  technique: { fr: 'Huile sur toile', en: 'Oil on canvas' },
  category: 'peinture',
  collection: 'moderna',
  year: 2025,
  dimensions: '120 x 100 cm',
  priceCents: 900_000,
  stock: 1,
  editionSize: null,
  isAvailable: true,
  isSold: false,
  originalId: null,
  images,
});

const shas = (work: { images: { sha256: string }[] }) => work.images.map((i) => i.sha256);

beforeAll(async () => {
  t = await createTestDatabase();
  provideDatabase(t);
  providePublisher({
    request: () => {},
    status: () => ({
      state: 'idle',
      lastSuccessAt: null,
      lastError: null,
      version: 'test',
      pending: false,
      changes: [],
      changeCount: 0,
      lastChanges: [],
      etaMs: null,
      buildMs: 6000,
    }),
  });
  providePayments(
    createEmulatedPayments(9, `whsec_${randomBytes(16).toString('hex')}`, 'sk_test_unused_here'),
  );
  admin = await makeUser(t.db, { role: 'admin' });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-views-'));
  storage = diskStorage(path.join(dir, 'media'));
  photos = [];
  for (let i = 0; i < 10; i++) {
    const png = await sharp({
      create: {
        width: 500,
        height: 400 + i,
        channels: 3,
        background: { r: 20 * i, g: 100, b: 200 - 10 * i },
      },
    })
      .png()
      .toBuffer();
    photos.push((await storeUpload(t.db, storage, png, { fr: '', en: '' })).sha256);
  }
});

afterAll(async () => {
  providePublisher(undefined);
  await t?.dispose();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("a work's photos", () => {
  it('are added, captioned, ordered and removed; the first is the card image everywhere', async () => {
    const [a, b, c, d] = photos as [string, string, string, string];
    const created = await create(NEW_ORIGINAL([photo(a, 'Vue de face', 'Front view')]));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const work = created.body.artwork!;
    expect(work.image?.sha256).toBe(a);
    expect(work.images).toEqual([
      { sha256: a, width: 500, height: 400, caption: { fr: 'Vue de face', en: 'Front view' } },
    ]);

    // Two more, captioned in both languages (spaces around are the owner's typing, not text).
    const added = await patch(work.id, {
      version: work.version,
      images: [
        photo(a, 'Vue de face', 'Front view'),
        photo(b, ' Détail de la matière ', 'Detail of the paint'),
        photo(c, 'Le dos, signé', 'The back, signed'),
      ],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(shas(added.body.artwork!)).toEqual([a, b, c]);
    expect(added.body.artwork!.images[1]!.caption.fr).toBe('Détail de la matière');
    expect(added.body.artwork!.version).toBeGreaterThan(work.version);

    // Reordered (the detail first: the new card image), one removed, one added without captions.
    const reordered = await patch(work.id, {
      version: added.body.artwork!.version,
      images: [photo(b, 'Détail', 'Detail'), photo(a, 'Vue de face', 'Front view'), photo(d)],
    });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    const after = reordered.body.artwork!;
    expect(shas(after)).toEqual([b, a, d]);
    expect(after.image?.sha256).toBe(b);
    const row = await t.db
      .selectFrom('artworks as w')
      .innerJoin('media as m', 'm.id', 'w.media_id')
      .select('m.sha256')
      .where('w.id', '=', work.id)
      .executeTakeFirstOrThrow();
    expect(row.sha256).toBe(b);

    // The public snapshot: the photos in order, each with its alt text; an empty caption is the
    // title and the photo's number, never an empty alt.
    const pub = (await listPublicArtworks(t.db)).find((w) => w.id === work.id)!;
    expect(pub.images.map((i) => [i.sha256, i.alt.fr, i.alt.en, i.caption.en])).toEqual([
      [b, 'Détail', 'Detail', 'Detail'],
      [a, 'Vue de face', 'Front view', 'Front view'],
      [d, 'Marée haute (3/3)', 'High Tide (3/3)', ''],
    ]);
    expect(pub.image).toEqual(pub.images[0]);
  });

  it('take 8 at most: a 9th is a 400 naming the list, and nothing changes', async () => {
    const created = await create(NEW_ORIGINAL(photos.slice(0, 8).map((s) => photo(s))));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const work = created.body.artwork!;
    expect(work.images).toHaveLength(8);
    const nine = await patch(work.id, {
      version: work.version,
      images: photos.slice(0, 9).map((s) => photo(s)),
    });
    expect(nine.status).toBe(400);
    expect(nine.body.error?.code).toBe('invalid_input');
    expect(nine.body.error?.fields?.['images']).toBe('admin.artwork.error.tooManyImages');
    const nineNew = await create(NEW_ORIGINAL(photos.slice(0, 9).map((s) => photo(s))));
    expect(nineNew.status).toBe(400);
    expect(nineNew.body.error?.fields?.['images']).toBe('admin.artwork.error.tooManyImages');
    const stored = await t.db
      .selectFrom('artwork_images')
      .select('position')
      .where('artwork_id', '=', work.id)
      .execute();
    expect(stored).toHaveLength(8);
    // The database refuses a 9th on its own too (positions 0–7).
    await expect(
      t.db
        .insertInto('artwork_images')
        .values({ artwork_id: work.id, position: 8, media_id: (await mediaId(photos[9]!))! })
        .execute(),
    ).rejects.toThrow();
  });

  it('refuse an image never uploaded, a photo twice, an empty list and an over-long caption', async () => {
    const created = await create(NEW_ORIGINAL([photo(photos[0]!)]));
    const work = created.body.artwork!;
    const unknown = randomBytes(32).toString('hex');
    const cases: [unknown[], string, string][] = [
      [[photo(photos[0]!), photo(unknown)], 'images.1.sha256', 'admin.artwork.error.unknownImage'],
      [[photo(photos[0]!), photo(photos[0]!)], 'images', 'admin.artwork.error.duplicateImage'],
      [[], 'images', 'admin.artwork.error.image'],
      [[photo(photos[0]!, 'x'.repeat(301))], 'images.0.caption.fr', 'admin.artwork.error.tooLong'],
      [[{ sha256: 'not-a-hash', caption: { fr: '', en: '' } }], 'images.0.sha256', ''],
      [[{ sha256: photos[0], caption: { fr: '' } }], 'images.0.caption.en', ''],
    ];
    for (const [images, field, key] of cases) {
      const answer = await patch(work.id, { version: work.version, images });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error?.code).toBe('invalid_input');
      expect(Object.keys(answer.body.error?.fields ?? {})).toContain(field);
      if (key) expect(answer.body.error?.fields?.[field]).toBe(key);
    }
    const unknownAnswer = await patch(work.id, {
      version: work.version,
      images: [photo(unknown)],
    });
    expect(unknownAnswer.body.error?.message).toContain(unknown);
    const images = await t.db
      .selectFrom('artwork_images')
      .select('position')
      .where('artwork_id', '=', work.id)
      .execute();
    expect(images).toHaveLength(1);
  });

  it('keep the lost-update guard: a list saved on an older version is a 409 with the current one', async () => {
    const created = await create(NEW_ORIGINAL([photo(photos[0]!)]));
    const work = created.body.artwork!;
    const first = await patch(work.id, {
      version: work.version,
      images: [photo(photos[0]!), photo(photos[1]!)],
    });
    expect(first.status).toBe(200);
    const stale = await patch(work.id, {
      version: work.version,
      images: [photo(photos[2]!)],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error?.code).toBe('version_conflict');
    expect(
      shas((stale.body.error as unknown as { details: { artwork: AdminArtwork } }).details.artwork),
    ).toEqual([photos[0], photos[1]]);
  });

  it('follow a card image set alone (imageSha256): it becomes the first photo, the others stay', async () => {
    const created = await create(
      NEW_ORIGINAL([photo(photos[0]!, 'Face', 'Front'), photo(photos[1]!)]),
    );
    const work = created.body.artwork!;
    const changed = await patch(work.id, { version: work.version, imageSha256: photos[2] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(shas(changed.body.artwork!)).toEqual([photos[2], photos[1]]);
    // A new photo: the old caption does not describe it.
    expect(changed.body.artwork!.images[0]!.caption).toEqual({ fr: '', en: '' });
  });

  it('go with the work: deleting it removes the photos no other work uses', async () => {
    // Photos no other test's work uses.
    const shared = photos[8]!;
    const own = photos[9]!;
    const keep = (await create(NEW_ORIGINAL([photo(shared)]))).body.artwork!;
    const gone = (await create(NEW_ORIGINAL([photo(own), photo(shared)]))).body.artwork!;
    const ownKey = (
      await t.db
        .selectFrom('media')
        .select('storage_key')
        .where('sha256', '=', own)
        .executeTakeFirstOrThrow()
    ).storage_key;
    expect(await storage.exists(ownKey)).toBe(true);
    await deleteArtwork({ db: t.db, storage }, gone.id, admin);
    expect(await mediaId(own)).toBeUndefined();
    expect(await storage.exists(ownKey)).toBe(false);
    expect(await mediaId(shared)).toBeDefined();
    const left = (await listPublicArtworks(t.db)).find((w) => w.id === keep.id)!;
    expect(left.images.map((i) => i.sha256)).toEqual([shared]);
  });
});

async function mediaId(sha256: string): Promise<string | undefined> {
  return (
    await t.db.selectFrom('media').select('id').where('sha256', '=', sha256).executeTakeFirst()
  )?.id;
}
