// Private visit counts (issue 12 item 9) against a real database, and through the real HTTP
// server: what is counted, what is not, and how counts, visitors and hashes are stored.
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGalerieServer, type GalerieServer, type NodeHandler } from '#api/http/app.ts';
import { StaticFiles } from '#api/http/static-files.ts';
import type { Database } from '#api/db/index.ts';
import { databaseStore, VisitCounter } from '#api/visits/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeUser } from '../helpers/factories.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) Version/18.1 Safari/605.1.15';

async function visitCounts(db: Database) {
  return db.selectFrom('visit_counts').selectAll().orderBy('day').orderBy('path').execute();
}
async function workViews(db: Database) {
  return db.selectFrom('work_views').selectAll().orderBy('day').orderBy('work').execute();
}
async function visitorDays(db: Database) {
  return db.selectFrom('visitor_days').selectAll().orderBy('day').execute();
}
async function hashDays(db: Database) {
  const rows = await db.selectFrom('visitor_hashes').select('day').orderBy('day').execute();
  return rows.map((r) => r.day);
}

describe('visit counts through the real server', () => {
  let t: TestDatabase;
  let app: GalerieServer;
  let base: string;
  let counter: VisitCounter;
  let dir: string;
  let adminCookie: string;
  let customerCookie: string;
  const now = new Date('2026-11-23T10:00:00Z');

  // On-demand pages, as Astro's handler answers them (writeHead, as Node's adapter does).
  const handler: NodeHandler = (req, res, next) => {
    const page = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    };
    if (req.url === '/account') return page(200, 'text/html; charset=utf-8', '<p>account</p>');
    if (req.url === '/admin/dashboard')
      return page(200, 'text/html; charset=utf-8', '<p>admin</p>');
    if (req.url === '/api/cart') return page(200, 'application/json', '{"lines":[]}');
    if (req.url === '/broken-page') return page(500, 'text/html; charset=utf-8', '<p>oops</p>');
    return next?.();
  };

  function get(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
    return new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${base}${pathname}`,
        { method, headers: { 'user-agent': FIREFOX, ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  beforeAll(async () => {
    t = await createTestDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-visits-'));
    await fs.mkdir(path.join(dir, 'en'));
    await fs.mkdir(path.join(dir, '_astro'));
    await fs.mkdir(path.join(dir, 'oeuvres'));
    await fs.mkdir(path.join(dir, 'en', 'works'), { recursive: true });
    const files: [string, string][] = [
      ['index.html', '<p>accueil</p>'],
      ['gallery.html', '<p>galerie</p>'],
      ['404.html', '<p>introuvable</p>'],
      ['en/index.html', '<p>home</p>'],
      ['en/gallery.html', '<p>gallery</p>'],
      ['oeuvres/seuil.html', '<p>Seuil</p>'],
      ['en/works/seuil.html', '<p>Threshold</p>'],
      ['robots.txt', 'User-agent: *'],
      ['_astro/site.css', 'body{}'],
    ];
    for (const [file, body] of files) await fs.writeFile(path.join(dir, file), body);
    counter = new VisitCounter({ store: databaseStore(t.db), now: () => now });
    app = createGalerieServer({
      staticFiles: await StaticFiles.load(dir),
      handler,
      observe: (req, res, pathname, contentType) =>
        counter.observe(req, res, pathname, contentType),
    });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    adminCookie = (await makeUser(t.db, { role: 'admin' })).cookie;
    customerCookie = (await makeUser(t.db)).cookie;
  });

  afterAll(async () => {
    await new Promise((resolve) => app.server.close(resolve));
    await fs.rm(dir, { recursive: true, force: true });
    await t.dispose();
  });

  it('counts pages, works and visitors, and leaves out admins, bots, prefetches and the rest', async () => {
    // Counted: a page, the same page again (the same visitor), a work's own page, in English from
    // another browser, the gallery, an on-demand page, and a signed-in customer.
    expect(await get('/')).toBe(200);
    expect(await get('/?utm_source=newsletter')).toBe(200);
    expect(await get('/oeuvres/seuil')).toBe(200);
    expect(await get('/en/works/seuil', { 'user-agent': SAFARI })).toBe(200);
    expect(await get('/gallery')).toBe(200);
    expect(await get('/account')).toBe(200);
    expect(await get('/', { cookie: customerCookie })).toBe(200);
    // Not counted.
    expect(await get('/', { cookie: adminCookie })).toBe(200);
    expect(await get('/oeuvres/seuil', { cookie: adminCookie })).toBe(200);
    // An old overlay link answers 301 to the work's page (issue 25): the page is the view.
    expect(await get('/gallery?work=seuil')).toBe(301);
    expect(await get('/', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' })).toBe(200);
    expect(await get('/gallery', { 'user-agent': 'curl/8.5.0' })).toBe(200);
    expect(await get('/', { 'sec-purpose': 'prefetch' })).toBe(200);
    expect(await get('/en/', { purpose: 'prefetch' })).toBe(200);
    expect(await get('/admin/dashboard')).toBe(200);
    expect(await get('/api/cart')).toBe(200);
    expect(await get('/robots.txt')).toBe(200);
    expect(await get('/_astro/site.css')).toBe(200);
    expect(await get('/nulle-part')).toBe(404);
    expect(await get('/oeuvres')).toBe(301);
    expect(await get('/broken-page')).toBe(500);
    expect(await get('/', {}, 'HEAD')).toBe(200);
    expect(await get('/gallery?work=seuil', {}, 'POST')).toBe(404);
    expect(await get('/gallery?work=NOT_A_KEY')).toBe(200);

    await counter.flush();
    expect(await visitCounts(t.db)).toEqual([
      { day: '2026-11-23', path: '/', visits: 3 },
      { day: '2026-11-23', path: '/account', visits: 1 },
      { day: '2026-11-23', path: '/en/works/seuil', visits: 1 },
      { day: '2026-11-23', path: '/gallery', visits: 2 },
      { day: '2026-11-23', path: '/oeuvres/seuil', visits: 1 },
    ]);
    expect(await workViews(t.db)).toEqual([{ day: '2026-11-23', work: 'seuil', views: 2 }]);
    // Firefox (with or without a session cookie: the same browser) and Safari.
    expect(await visitorDays(t.db)).toEqual([{ day: '2026-11-23', visitors: 2 }]);
  });

  it('stores no address, no user agent and no cookie: only 16-byte hashes', async () => {
    const hashes = await t.db.selectFrom('visitor_hashes').select('hash').execute();
    expect(hashes).toHaveLength(2);
    for (const { hash } of hashes) expect(hash).toHaveLength(16);
  });
});

describe('storing visit counts', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  /** A counter with a clock the test moves; `salt` fixes the daily salt (a restart keeps it). */
  function counterAt(start: string, salt?: Buffer) {
    const clock = { now: new Date(start) };
    const counter = new VisitCounter({
      store: databaseStore(t.db),
      now: () => clock.now,
      ...(salt && { random: () => salt }),
    });
    const view = (url: string, ua = FIREFOX, address = '203.0.113.7') => {
      const res = new http.ServerResponse({ method: 'GET' } as http.IncomingMessage);
      const req = {
        method: 'GET',
        url,
        headers: { 'user-agent': ua },
        socket: { remoteAddress: address },
      } as unknown as http.IncomingMessage;
      counter.observe(req, res, url.split('?')[0] ?? '/');
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.emit('finish');
    };
    return { counter, view, clock };
  }

  it('adds each flush to the day’s rows, and counts a visitor the database already has once', async () => {
    const salt = Buffer.alloc(32, 7);
    const a = counterAt('2026-06-01T08:00:00Z', salt);
    a.view('/');
    a.view('/gallery?work=seuil');
    a.view('/', SAFARI);
    await a.counter.flush();
    a.view('/');
    a.view('/gallery?work=seuil');
    a.view('/gallery?work=aube');
    await a.counter.flush();
    // Another process with the same salt (as if restarted within the day with it) meets the same
    // two visitors and a new one: only the new one is added.
    const b = counterAt('2026-06-01T09:00:00Z', salt);
    b.view('/');
    b.view('/', SAFARI);
    b.view('/', FIREFOX, '198.51.100.4');
    await b.counter.flush();

    const day = (rows: { day: string }[]) => rows.filter((r) => r.day === '2026-06-01');
    expect(day(await visitCounts(t.db))).toEqual([
      { day: '2026-06-01', path: '/', visits: 6 },
      { day: '2026-06-01', path: '/gallery', visits: 3 },
    ]);
    expect(day(await workViews(t.db))).toEqual([
      { day: '2026-06-01', work: 'aube', views: 1 },
      { day: '2026-06-01', work: 'seuil', views: 2 },
    ]);
    expect(day(await visitorDays(t.db))).toEqual([{ day: '2026-06-01', visitors: 3 }]);
  });

  it('deletes the hashes of past days at the first flush of a new day, keeping their counts', async () => {
    const c = counterAt('2026-07-10T21:00:00Z'); // 23:00 in Paris
    c.view('/');
    c.view('/', SAFARI);
    await c.counter.flush();
    expect(await hashDays(t.db)).toContain('2026-07-10');

    c.clock.now = new Date('2026-07-10T22:00:00Z'); // midnight in Paris
    c.view('/');
    await c.counter.flush();
    const days = await hashDays(t.db);
    expect(days).toEqual(['2026-07-11']);
    const visitors = await visitorDays(t.db);
    expect(visitors.filter((r) => r.day >= '2026-07-10')).toEqual([
      { day: '2026-07-10', visitors: 2 },
      { day: '2026-07-11', visitors: 1 },
    ]);
  });

  it('logs one line and does not throw when the database fails, then saves what it kept', async () => {
    const log = vi.fn<(line: string) => void>();
    const counter = new VisitCounter({
      store: databaseStore(t.db),
      now: () => new Date('2026-08-01T10:00:00Z'),
      log,
    });
    const view = () => {
      const res = new http.ServerResponse({ method: 'GET' } as http.IncomingMessage);
      const req = {
        method: 'GET',
        url: '/about',
        headers: { 'user-agent': FIREFOX },
        socket: { remoteAddress: '203.0.113.7' },
      } as unknown as http.IncomingMessage;
      counter.observe(req, res, '/about');
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/html');
      res.emit('finish');
    };
    // A table that is not there: every flush fails inside its transaction.
    await sql`ALTER TABLE visit_counts RENAME TO visit_counts_away`.execute(t.db);
    try {
      view();
      await expect(counter.flush()).resolves.toBeUndefined();
      view();
      await expect(counter.flush()).resolves.toBeUndefined();
      expect(log).toHaveBeenCalledTimes(1);
      expect(log.mock.calls[0]?.[0]).toMatch(/^Galerie: saving visit counts failed/);
      // All or nothing: the visitor of the failed transaction was not stored either.
      expect((await visitorDays(t.db)).filter((r) => r.day === '2026-08-01')).toEqual([]);
    } finally {
      await sql`ALTER TABLE visit_counts_away RENAME TO visit_counts`.execute(t.db);
    }
    await counter.stop();
    expect((await visitCounts(t.db)).filter((r) => r.day === '2026-08-01')).toEqual([
      { day: '2026-08-01', path: '/about', visits: 2 },
    ]);
    expect((await visitorDays(t.db)).filter((r) => r.day === '2026-08-01')).toEqual([
      { day: '2026-08-01', visitors: 1 },
    ]);
    expect(log).toHaveBeenLastCalledWith('Galerie: visit counts are being saved again');
  });
});
