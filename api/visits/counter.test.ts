import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { LIMITS, VisitCounter, type VisitBatch, type VisitStore } from './index.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) Version/18.1 Safari/605.1.15';
// Tokens shaped like ours (32 characters of [a-z2-7], twice): the counter reads the id part.
const ADMIN_TOKEN = `${'a'.repeat(32)}.${'b'.repeat(32)}`;
const CUSTOMER_TOKEN = `${'c'.repeat(32)}.${'d'.repeat(32)}`;

interface Request {
  method?: string;
  url: string;
  headers?: IncomingHttpHeaders;
  address?: string;
  /** The connection (keep-alive): requests given the same object share it. */
  socket?: object;
  status?: number;
  type?: string;
}

/** A store that keeps what it is given; `fail` makes the next saves throw. */
function fakeStore() {
  const saves: { batch: VisitBatch; today: string }[] = [];
  const lookups: string[] = [];
  const store = {
    saves,
    lookups,
    fail: false,
    save(batch: VisitBatch, today: string) {
      if (store.fail) return Promise.reject(new Error('connection refused'));
      saves.push({ batch, today });
      return Promise.resolve();
    },
    isAdminSession(token: string) {
      lookups.push(token);
      return Promise.resolve(token === ADMIN_TOKEN);
    },
  } satisfies VisitStore & Record<string, unknown>;
  return store;
}

function setup(start = '2026-11-23T10:00:00Z') {
  let now = new Date(start);
  const store = fakeStore();
  const log = vi.fn<(line: string) => void>();
  const counter = new VisitCounter({ store, now: () => now, log });
  /** One request through the counter, as the HTTP layer would pass it, then its response. */
  const serve = (r: Request) => {
    const req = {
      method: r.method ?? 'GET',
      url: r.url,
      headers: { 'user-agent': FIREFOX, ...r.headers },
      socket: Object.assign(r.socket ?? {}, { remoteAddress: r.address ?? '203.0.113.7' }),
    } as unknown as IncomingMessage;
    const res = Object.assign(new EventEmitter(), {
      statusCode: r.status ?? 200,
      getHeader: (name: string) =>
        name === 'content-type' ? (r.type ?? 'text/html; charset=utf-8') : undefined,
    }) as unknown as ServerResponse;
    counter.observe(req, res, r.url.split('?')[0] ?? '/');
    res.emit('finish');
  };
  /** Flushes and returns what the store got this time (one merged batch). */
  const flushed = async () => {
    const before = store.saves.length;
    await counter.flush();
    const got = store.saves.slice(before);
    return {
      saves: got.length,
      today: got[0]?.today,
      visits: got.flatMap((s) => s.batch.visits),
      works: got.flatMap((s) => s.batch.works),
      visitors: got.flatMap((s) =>
        s.batch.visitors.flatMap((v) =>
          v.hashes.map((h) => ({ day: v.day, hash: h.toString('hex') })),
        ),
      ),
    };
  };
  return {
    counter,
    store,
    log,
    serve,
    flushed,
    setNow: (iso: string) => (now = new Date(iso)),
  };
}

describe('what counts as a view', () => {
  it('a GET of an HTML page answered 200 by a person, and nothing else', async () => {
    const t = setup();
    t.serve({ url: '/gallery' });
    t.serve({ url: '/gallery', method: 'POST' });
    t.serve({ url: '/gallery', method: 'HEAD' });
    t.serve({ url: '/gallery', headers: { 'user-agent': 'Googlebot/2.1' } });
    t.serve({ url: '/gallery', headers: { 'user-agent': 'curl/8.5.0' } });
    t.serve({ url: '/gallery', headers: { 'sec-purpose': 'prefetch;prerender' } });
    t.serve({ url: '/gallery', headers: { purpose: 'prefetch' } });
    t.serve({ url: '/gallery', headers: { 'x-moz': 'prefetch' } });
    t.serve({ url: '/admin/dashboard' });
    t.serve({ url: '/api/catalog', type: 'application/json' });
    t.serve({ url: '/media/x/400.avif', type: 'image/avif' });
    t.serve({ url: '/nulle-part', status: 404 });
    t.serve({ url: '/oeuvres', status: 301, type: '' });
    t.serve({ url: '/about', status: 503 });
    t.serve({ url: '/robots.txt', type: 'text/plain' });
    expect((await t.flushed()).visits).toEqual([
      { day: '2026-11-23', path: '/gallery', visits: 1 },
    ]);
  });

  it('counts pages per path without the query string, and works opened by their address', async () => {
    const t = setup();
    t.serve({ url: '/' });
    t.serve({ url: '/?utm_source=x' });
    t.serve({ url: '/en/' });
    t.serve({ url: '/gallery?work=seuil' });
    t.serve({ url: '/en/gallery?work=seuil' });
    t.serve({ url: '/gallery?work=nuit-bleue' });
    t.serve({ url: '/gallery?work=../../etc' });
    t.serve({ url: '/about?work=seuil' });
    const got = await t.flushed();
    expect(got.visits).toEqual([
      { day: '2026-11-23', path: '/', visits: 2 },
      { day: '2026-11-23', path: '/en', visits: 1 },
      { day: '2026-11-23', path: '/gallery', visits: 3 },
      { day: '2026-11-23', path: '/en/gallery', visits: 1 },
      { day: '2026-11-23', path: '/about', visits: 1 },
    ]);
    expect(got.works).toEqual([
      { day: '2026-11-23', work: 'seuil', views: 2 },
      { day: '2026-11-23', work: 'nuit-bleue', views: 1 },
    ]);
  });

  it('leaves out signed-in administrators, asking the database once per session', async () => {
    const t = setup();
    const admin = { cookie: `cart-session-id=x; session=${ADMIN_TOKEN}` };
    const customer = { cookie: `session=${CUSTOMER_TOKEN}` };
    t.serve({ url: '/', headers: admin });
    t.serve({ url: '/gallery', headers: admin });
    t.serve({ url: '/', headers: customer });
    t.serve({ url: '/', headers: { cookie: 'session=forged' } });
    let got = await t.flushed();
    expect(got.visits).toEqual([{ day: '2026-11-23', path: '/', visits: 2 }]);
    expect(t.store.lookups).toEqual([ADMIN_TOKEN, CUSTOMER_TOKEN]);

    // Remembered for a few minutes, then asked again (a role can change).
    t.serve({ url: '/', headers: admin });
    t.serve({ url: '/', headers: customer });
    t.setNow(
      new Date(Date.parse('2026-11-23T10:00:00Z') + LIMITS.adminSessionMs + 1).toISOString(),
    );
    t.serve({ url: '/', headers: admin });
    got = await t.flushed();
    expect(got.visits).toEqual([{ day: '2026-11-23', path: '/', visits: 1 }]);
    expect(t.store.lookups).toEqual([ADMIN_TOKEN, CUSTOMER_TOKEN, ADMIN_TOKEN]);
  });
});

describe('visitors and the day', () => {
  it('counts a visitor once a day, again the next day under an unrelated hash', async () => {
    const t = setup('2026-11-23T22:30:00Z'); // 23:30 in Paris
    t.serve({ url: '/' });
    t.serve({ url: '/gallery' });
    t.serve({ url: '/', headers: { 'user-agent': SAFARI } });
    t.serve({ url: '/', address: '198.51.100.4' });
    const monday = await t.flushed();
    expect(monday.today).toBe('2026-11-23');
    expect(monday.visitors.map((v) => v.day)).toEqual(['2026-11-23', '2026-11-23', '2026-11-23']);

    t.serve({ url: '/about' });
    expect((await t.flushed()).visitors).toEqual([]);

    t.setNow('2026-11-23T23:00:00Z'); // midnight in Paris
    t.serve({ url: '/' });
    t.serve({ url: '/about' });
    const tuesday = await t.flushed();
    expect(tuesday.today).toBe('2026-11-24');
    expect(tuesday.visitors).toHaveLength(1);
    expect(tuesday.visitors[0]?.day).toBe('2026-11-24');
    // The same address and browser: a new salt makes a hash nothing links to Monday's.
    expect(monday.visitors.map((v) => v.hash)).not.toContain(tuesday.visitors[0]?.hash);
  });

  it('tells visitors apart on one keep-alive connection, and the days too', async () => {
    const t = setup('2026-11-23T22:30:00Z');
    const connection = {};
    t.serve({ url: '/', socket: connection });
    t.serve({ url: '/about', socket: connection });
    t.serve({ url: '/', socket: connection, address: '198.51.100.4' });
    t.serve({
      url: '/',
      socket: connection,
      address: '198.51.100.4',
      headers: { 'user-agent': SAFARI },
    });
    const monday = await t.flushed();
    expect(monday.visitors).toHaveLength(3);
    t.setNow('2026-11-23T23:00:00Z');
    t.serve({
      url: '/',
      socket: connection,
      address: '198.51.100.4',
      headers: { 'user-agent': SAFARI },
    });
    const tuesday = await t.flushed();
    expect(tuesday.visitors).toHaveLength(1);
    expect(monday.visitors.map((v) => v.hash)).not.toContain(tuesday.visitors[0]?.hash);
  });

  it('drops yesterday’s salt at the first flush after midnight, even when nobody came', async () => {
    let salts = 0;
    const store = fakeStore();
    let now = new Date('2026-11-23T22:30:00Z');
    const counter = new VisitCounter({
      store,
      now: () => now,
      random: (size) => Buffer.alloc(size, ++salts),
    });
    const view = () => {
      const req = {
        method: 'GET',
        url: '/',
        headers: { 'user-agent': FIREFOX },
        socket: { remoteAddress: '203.0.113.7' },
      } as unknown as IncomingMessage;
      const res = Object.assign(new EventEmitter(), {
        statusCode: 200,
        getHeader: () => 'text/html',
      }) as unknown as ServerResponse;
      counter.observe(req, res, '/');
      res.emit('finish');
    };
    view();
    await counter.flush();
    expect(salts).toBe(1);
    now = new Date('2026-11-23T23:00:10Z');
    await counter.flush();
    // Only a salt that is gone must be drawn again: a Monday view now needs a new one.
    now = new Date('2026-11-23T22:59:00Z');
    view();
    expect(salts).toBe(2);
  });

  it('asks the store to clean up once a day even when nobody came', async () => {
    const t = setup();
    expect((await t.flushed()).saves).toBe(1);
    expect((await t.flushed()).saves).toBe(0);
    t.setNow('2026-11-24T10:00:00Z');
    const next = await t.flushed();
    expect(next).toMatchObject({ saves: 1, today: '2026-11-24', visits: [] });
  });
});

describe('flushing', () => {
  it('adds up the views between two flushes and starts again from zero', async () => {
    const t = setup();
    for (let i = 0; i < 5; i++) t.serve({ url: '/gallery?work=seuil' });
    const first = await t.flushed();
    expect(first.visits).toEqual([{ day: '2026-11-23', path: '/gallery', visits: 5 }]);
    expect(first.works).toEqual([{ day: '2026-11-23', work: 'seuil', views: 5 }]);
    t.serve({ url: '/gallery' });
    expect((await t.flushed()).visits).toEqual([
      { day: '2026-11-23', path: '/gallery', visits: 1 },
    ]);
  });

  it('logs one line when the database fails, never throws, and keeps the views for later', async () => {
    const t = setup();
    t.serve({ url: '/' });
    t.serve({ url: '/gallery?work=seuil' });
    t.store.fail = true;
    await expect(t.counter.flush()).resolves.toBeUndefined();
    t.serve({ url: '/' });
    await expect(t.counter.flush()).resolves.toBeUndefined();
    expect(t.log.mock.calls).toEqual([
      [expect.stringMatching(/^Galerie: saving visit counts failed.*connection refused/)],
    ]);
    t.store.fail = false;
    const got = await t.flushed();
    expect(got.visits).toEqual([
      { day: '2026-11-23', path: '/', visits: 2 },
      { day: '2026-11-23', path: '/gallery', visits: 1 },
    ]);
    expect(got.works).toEqual([{ day: '2026-11-23', work: 'seuil', views: 1 }]);
    expect(got.visitors).toHaveLength(1);
    expect(t.log).toHaveBeenLastCalledWith('Galerie: visit counts are being saved again');
  });

  it('bounds the distinct works a day can add', async () => {
    const t = setup();
    for (let i = 0; i <= LIMITS.worksPerDay; i++) t.serve({ url: `/gallery?work=w${i}` });
    t.serve({ url: '/gallery?work=w0' });
    const got = await t.flushed();
    expect(got.works).toHaveLength(LIMITS.worksPerDay);
    expect(got.works[0]).toEqual({ day: '2026-11-23', work: 'w0', views: 2 });
  });

  it('writes the last views when stopped, and counts nothing afterwards', async () => {
    const t = setup();
    t.serve({ url: '/' });
    await t.counter.stop();
    expect(t.store.saves.at(-1)?.batch.visits).toEqual([
      { day: '2026-11-23', path: '/', visits: 1 },
    ]);
    t.serve({ url: '/' });
    expect((await t.flushed()).visits).toEqual([]);
  });
});
