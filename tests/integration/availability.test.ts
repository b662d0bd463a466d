// Live availability: what the gallery fetches to show a work sold, out of stock or hidden since
// the last build; and the cart count behind the navigation badge.
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCart } from '#api/cart/index.ts';
import { AvailabilityCache } from '#api/catalog/availability-cache.ts';
import { listAvailability } from '#api/catalog/index.ts';
import { createGalerieServer } from '#api/http/app.ts';
import { StaticFiles } from '#api/http/static-files.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeWorkWithPrint } from '../helpers/factories.ts';

let t: TestDatabase;
let original: number;
let print: number;

beforeAll(async () => {
  t = await createTestDatabase();
  ({ original, print } = await makeWorkWithPrint(t.db, { print: { stock: 3 } }));
});
afterAll(() => t.dispose());

const stateOf = async (id: number) => (await listAvailability(t.db)).find((w) => w.id === id);

describe('availability', () => {
  it('follows the database without a rebuild', async () => {
    expect(await stateOf(original)).toEqual({
      id: original,
      available: true,
      isSold: false,
      stock: 1,
    });
    await t.db
      .updateTable('artworks')
      .set({ is_sold: true, stock: 0 })
      .where('id', '=', original)
      .execute();
    expect(await stateOf(original)).toMatchObject({ isSold: true, stock: 0 });

    await t.db.updateTable('artworks').set({ stock: 0 }).where('id', '=', print).execute();
    expect(await stateOf(print)).toMatchObject({ isSold: false, stock: 0 });

    await t.db
      .updateTable('artworks')
      .set({ is_available: false })
      .where('id', '=', print)
      .execute();
    expect(await stateOf(print)).toMatchObject({ available: false });
  });
});

describe('cart count', () => {
  it('is the sum of quantities of the visitor’s lines for works still shown', async () => {
    expect(await countCart(t.db, undefined)).toBe(0);
    expect(await countCart(t.db, 'nobody')).toBe(0);
    await t.db
      .updateTable('artworks')
      .set({ is_available: true, stock: 3 })
      .where('id', '=', print)
      .execute();
    await t.db
      .insertInto('cart_items')
      .values([
        { cart_id: 'cart1cart1cart1cart1ca', artwork_id: print, quantity: 2 },
        { cart_id: 'cart1cart1cart1cart1ca', artwork_id: original, quantity: 1 },
        { cart_id: 'cart-2', artwork_id: print, quantity: 1 },
      ])
      .execute();
    expect(await countCart(t.db, 'cart1cart1cart1cart1ca')).toBe(3);
    await t.db
      .updateTable('artworks')
      .set({ is_available: false })
      .where('id', '=', original)
      .execute();
    expect(await countCart(t.db, 'cart1cart1cart1cart1ca')).toBe(2);
  });
});

describe('availability from memory (api/catalog/availability-cache.ts)', () => {
  /** A request through a real HTTP server whose only route is the cache. */
  async function serveWith(cache: AvailabilityCache) {
    const server = http.createServer((req, res) => void cache.serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      get: (headers: Record<string, string> = {}) =>
        fetch(`http://127.0.0.1:${port}/api/availability`, { headers }),
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('answers what the endpoint answers, reads once for many, and again only when told or stale', async () => {
    let clock = 1_000;
    const cache = new AvailabilityCache(() => t.db, { maxAgeMs: 1000, now: () => clock });
    const served = await serveWith(cache);
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => served.get()));
      expect(cache.reads).toBe(1);
      const first = answers[0]!;
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('public, no-cache');
      const body = (await first.json()) as { works: unknown[] };
      expect(body).toEqual({ works: await listAvailability(t.db) });
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"/);

      // Unchanged: a bodiless 304, no read.
      const again = await served.get({ 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(cache.reads).toBe(1);

      // A change this node made shows on the very next request.
      await t.db.updateTable('artworks').set({ stock: 2 }).where('id', '=', print).execute();
      cache.invalidate();
      const changed = await served.get({ 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(cache.reads).toBe(2);
      expect(
        ((await changed.json()) as { works: { id: number; stock: number }[] }).works,
      ).toContainEqual(expect.objectContaining({ id: print, stock: 2 }));

      // A change another node made shows once the answer is a second old.
      await t.db.updateTable('artworks').set({ stock: 1 }).where('id', '=', print).execute();
      await served.get();
      expect(cache.reads).toBe(2);
      clock += 1_000;
      const stale = await served.get();
      expect(cache.reads).toBe(3);
      expect(
        ((await stale.json()) as { works: { id: number; stock: number }[] }).works,
      ).toContainEqual(expect.objectContaining({ id: print, stock: 1 }));

      // Compressed forms carry the same JSON (fetch decodes them).
      for (const encoding of ['br', 'gzip']) {
        const compressed = await served.get({ 'accept-encoding': encoding });
        expect(compressed.headers.get('content-encoding')).toBe(encoding);
        expect(await compressed.json()).toEqual({ works: await listAvailability(t.db) });
      }
    } finally {
      await served.close();
    }
  });

  it('a change during a read is not lost: the caller that changed it reads again', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const cache = new AvailabilityCache(async () => {
      await gate;
      return t.db;
    });
    const pending = cache.current();
    cache.invalidate();
    release();
    await pending;
    expect(cache.reads).toBe(2);
  });
});

describe('the HTTP layer and the availability cache', () => {
  it('answers /api/availability without the handler; an unsafe request makes the next one read', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-availability-'));
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Galerie</title>');
    const cache = new AvailabilityCache(() => t.db, { maxAgeMs: 60_000 });
    const handled: string[] = [];
    const app = createGalerieServer({
      staticFiles: await StaticFiles.load(dir),
      handler: (req, res) => {
        handled.push(`${req.method} ${req.url}`);
        res.statusCode = 204;
        res.end();
      },
      availability: cache,
    });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/api/availability`)).status).toBe(200);
      expect((await fetch(`${base}/api/availability`)).status).toBe(200);
      expect(cache.reads).toBe(1);
      expect(handled).toEqual([]);
      // A cart, a checkout, a webhook, an edit: whatever it changed shows at once.
      expect((await fetch(`${base}/api/cart`, { method: 'POST' })).status).toBe(204);
      await fetch(`${base}/api/availability`);
      expect(cache.reads).toBe(2);
      // Reading changes nothing.
      await fetch(`${base}/api/cart`);
      await fetch(`${base}/api/availability`);
      expect(cache.reads).toBe(2);
      expect(handled).toEqual(['POST /api/cart', 'GET /api/cart']);
    } finally {
      await new Promise((resolve) => app.server.close(resolve));
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
