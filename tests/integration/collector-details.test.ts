// What a collector asks before paying (issue 25, part 7) through the admin endpoints and the real
// middleware: an original's signature, frame and shipping note round-trip in both languages, reach
// the public catalogue (the pages' snapshot) and the audit log; a print refuses them; bad values are
// 400s naming their field, with nothing saved.
import { randomBytes } from 'node:crypto';
import type { APIRoute } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit } from '#api/admin/audit.ts';
import { providePublisher } from '#api/build/publish.ts';
import { listPublicArtworks } from '#api/catalog/index.ts';
import { provideDatabase } from '#api/db/context.ts';
import { createEmulatedPayments, providePayments } from '#api/payments/index.ts';
import { PATCH } from '../../src/pages/api/admin/artworks/[id].ts';
import { POST } from '../../src/pages/api/admin/artworks/index.ts';
import type { AdminArtwork } from '../../src/schemas/artworks.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeUser } from '../helpers/factories.ts';

const ORIGIN = 'http://localhost:4321';
let t: TestDatabase;
let admin: { id: string; token: string };
let sha256: string;

async function send(
  route: APIRoute,
  method: string,
  path: string,
  body: unknown,
  params: Record<string, string> = {},
): Promise<{ status: number; body: { artwork?: AdminArtwork; error?: Record<string, unknown> } }> {
  const response = await callEndpoint(route, {
    request: new Request(`${ORIGIN}${path}`, {
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
  return { status: response.status, body: (await response.json()) as never };
}

const create = (body: Record<string, unknown>) => send(POST, 'POST', '/api/admin/artworks', body);
const patch = (id: number, body: Record<string, unknown>) =>
  send(PATCH, 'PATCH', `/api/admin/artworks/${id}`, body, { id: String(id) });

const NEW_ORIGINAL = () => ({
  type: 'original',
  title: { fr: 'Marée haute', en: 'High Tide' },
  description: { fr: '', en: '' },
  technique: { fr: 'Huile sur toile', en: 'Oil on canvas' },
  category: 'peinture',
  collection: 'moderna',
  year: 2025,
  dimensions: '200 x 150 cm',
  priceCents: 2_400_000,
  stock: 1,
  editionSize: null,
  isAvailable: true,
  isSold: false,
  originalId: null,
  imageSha256: sha256,
});

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
  sha256 = randomBytes(32).toString('hex');
  await t.db
    .insertInto('media')
    .values({
      sha256,
      storage_key: `${sha256}.png`,
      mime_type: 'image/png',
      byte_size: 1000,
      width: 1200,
      height: 1500,
    })
    .execute();
});

afterAll(async () => {
  providePublisher(undefined);
  await t?.dispose();
});

describe("an original's collector details", () => {
  it('round-trip through create and edit, in both languages, up to the public catalogue', async () => {
    const created = await create({
      ...NEW_ORIGINAL(),
      signature: { fr: ' Signée en bas à droite ', en: 'Signed lower right' },
      framed: false,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const work = created.body.artwork!;
    expect(work.signature).toEqual({ fr: 'Signée en bas à droite', en: 'Signed lower right' });
    expect(work.framed).toBe(false);
    // Not given: empty, so the page shows the default note of its size.
    expect(work.shippingNote).toEqual({ fr: '', en: '' });

    const edited = await patch(work.id, {
      version: work.version,
      framed: true,
      shippingNote: {
        fr: 'Caisse sur mesure,\nlivraison sur rendez-vous sous 3 semaines.',
        en: 'Custom crate,\ndelivered by appointment within 3 weeks.',
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.artwork).toMatchObject({
      signature: { fr: 'Signée en bas à droite', en: 'Signed lower right' },
      framed: true,
      shippingNote: { fr: 'Caisse sur mesure,\nlivraison sur rendez-vous sous 3 semaines.' },
    });

    const published = (await listPublicArtworks(t.db)).find((w) => w.id === work.id);
    expect(published).toMatchObject({
      signature: { fr: 'Signée en bas à droite', en: 'Signed lower right' },
      framed: true,
      shippingNote: { en: 'Custom crate,\ndelivered by appointment within 3 weeks.' },
    });
    const [last] = await readAudit(t.db, { entity: 'artwork', entityId: String(work.id) });
    expect(last).toMatchObject({ action: 'artwork.update' });
    expect(JSON.stringify(last)).toContain('Custom crate');

    // "Not said" again: null, and the page leaves the row out.
    const unsaid = await patch(work.id, { framed: null });
    expect(unsaid.body.artwork?.framed).toBeNull();
  });

  it.each([
    ['signature.fr', { signature: { fr: 'x'.repeat(201), en: '' } }],
    ['signature.en', { signature: { fr: '', en: 'Signed\u0007' } }],
    ['framed', { framed: 'yes' }],
    ['shippingNote.en', { shippingNote: { fr: '', en: 'y'.repeat(601) } }],
    ['shippingNote', { shippingNote: 'Caisse' }],
  ])('refuses a bad %s with a 400 naming it, saving nothing', async (field, bad) => {
    const { id } = await makeArtwork(t.db, { artwork_type: 'original', signature_fr: 'Avant' });
    const answer = await patch(id, bad);
    expect(answer.status).toBe(400);
    expect(answer.body.error?.['code']).toBe('invalid_input');
    expect(Object.keys(answer.body.error?.['fields'] as object)).toContain(field);
    const row = await t.db
      .selectFrom('artworks')
      .select(['signature_fr', 'framed', 'shipping_note_en'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ signature_fr: 'Avant', framed: null, shipping_note_en: '' });
  });

  it('belong to originals: a print refuses them', async () => {
    const { id } = await makeArtwork(t.db, { artwork_type: 'print', stock: 5 });
    const answer = await patch(id, { signature: { fr: 'Signé', en: 'Signed' }, framed: true });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.['fields']).toEqual({
      signature: 'admin.artwork.error.originalOnly',
      framed: 'admin.artwork.error.originalOnly',
    });
    const created = await create({
      ...NEW_ORIGINAL(),
      type: 'print',
      stock: 10,
      shippingNote: { fr: 'Tube', en: 'Tube' },
    });
    expect(created.status).toBe(400);
    expect(created.body.error?.['fields']).toEqual({
      shippingNote: 'admin.artwork.error.originalOnly',
    });
  });
});
