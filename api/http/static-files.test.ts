import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../build/precompress.ts';
import { createGalerieServer } from './app.ts';
import { pickEncoding, StaticFiles } from './static-files.ts';

describe('pickEncoding', () => {
  const both = { br: 1, gzip: 1 };
  it.each([
    [undefined, both, null],
    ['gzip, deflate, br', both, 'br'],
    ['gzip', both, 'gzip'],
    ['br;q=0, gzip', both, 'gzip'],
    ['br', { gzip: 1 }, null],
    ['*', both, 'br'],
    ['identity', both, null],
  ] as const)('%s → %s', (header, available, expected) => {
    expect(pickEncoding(header, available)).toBe(expected);
  });

  it('reads a header once, and still chooses among what each file has', () => {
    expect(pickEncoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(pickEncoding('gzip, deflate, br, zstd', { gzip: 1 })).toBe('gzip');
    expect(pickEncoding('gzip, deflate, br, zstd', {})).toBeNull();
    // More distinct headers than are kept: each still read right.
    for (let i = 0; i < 200; i++)
      expect(pickEncoding(`gzip;q=0.${(i % 9) + 1}, x-${i}`, both)).toBe('gzip');
  });
});

describe('built files and the Astro handler behind one server', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  const observed: { pathname: string; method: string; contentType: string | undefined }[] = [];
  const page = `<!doctype html><html lang="fr"><body>${'Galerie '.repeat(200)}</body></html>`;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-static-'));
    await fs.mkdir(path.join(dir, '_astro'));
    await fs.mkdir(path.join(dir, 'en', '404'), { recursive: true });
    await fs.writeFile(path.join(dir, 'index.html'), page);
    await fs.writeFile(path.join(dir, '404.html'), '<!doctype html><h1>Page introuvable</h1>');
    await fs.writeFile(
      path.join(dir, 'en', '404', 'index.html'),
      '<!doctype html><h1>Page not found</h1>',
    );
    await fs.writeFile(
      path.join(dir, '_astro', 'app.Ab12.js'),
      `console.log(${JSON.stringify('x'.repeat(2000))});`,
    );
    await precompressDir(dir);
    const app = createGalerieServer({
      staticFiles: await StaticFiles.load(dir, {
        byRoute: new Map([['/', "script-src 'self' 'sha256-abc'"]]),
        fallback: "script-src 'none'",
      }),
      observe: (req, _res, pathname, contentType) =>
        observed.push({ pathname, method: req.method ?? '', contentType }),
      handler: (req, res, next) => {
        if (req.url !== '/api/echo') return next?.();
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ text: 'dynamic '.repeat(300) }));
      },
    });
    server = app.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await fs.rm(dir, { recursive: true, force: true });
  });

  const get = (pathname: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        http
          .request(`${base}${pathname}`, { headers, method }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(chunks),
              }),
            );
          })
          .on('error', reject)
          .end();
      },
    );

  /** Everything but what differs from one answer to the next. */
  const lasting = (headers: http.IncomingHttpHeaders) => {
    const { date: _date, 'x-request-id': id, ...rest } = headers;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    return rest;
  };

  // A plain GET of a built file is answered before the rest of the layer (issue 28); with a query
  // it takes the whole way, to the same file: both must say exactly the same.
  it.each([
    ['/', 'br'],
    ['/', 'gzip'],
    ['/', ''],
    ['/_astro/app.Ab12.js', 'br'],
    ['/en/404', 'gzip'],
  ])('answers %s (%s) the same directly and the whole way', async (pathname, encoding) => {
    const headers = encoding ? { 'accept-encoding': encoding } : {};
    for (const method of ['GET', 'HEAD']) {
      const direct = await get(pathname, headers, method);
      const whole = await get(`${pathname}?via=layer`, headers, method);
      expect(direct.status).toBe(200);
      expect(lasting(direct.headers)).toEqual(lasting(whole.headers));
      expect(direct.body.equals(whole.body)).toBe(true);
    }
    const plain = await get(pathname, headers);
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['x-frame-options']).toBe('DENY');
    expect(plain.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
  });

  it('gives the page’s own policy on a direct answer, and the visit observer its type', async () => {
    observed.length = 0;
    const res = await get('/', { 'accept-encoding': 'br' });
    expect(res.headers['content-security-policy']).toBe(
      "script-src 'self' 'sha256-abc'; frame-ancestors 'none';",
    );
    expect(observed).toEqual([
      { pathname: '/', method: 'GET', contentType: 'text/html; charset=utf-8' },
    ]);
  });

  it('sends the brotli copy made at build time, revalidated for HTML', async () => {
    const res = await get('/', { 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(page);
  });

  it('sends gzip or the plain file to clients that do not take brotli', async () => {
    const gz = await get('/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(page);
    const plain = await get('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });

  it('answers 304 to a matching ETag', async () => {
    const first = await get('/', { 'accept-encoding': 'br' });
    const again = await get('/', {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.status).toBe(304);
  });

  it('caches hashed assets for a year, immutable', async () => {
    const res = await get('/_astro/app.Ab12.js', { 'accept-encoding': 'br' });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('compresses dynamic responses on the fly', async () => {
    const res = await get('/api/echo', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(res.body).toString())).toHaveProperty('text');
  });

  it('answers unknown paths with the 404 page of their language, and never escapes the build', async () => {
    const fr = await get('/nulle-part');
    expect(fr.status).toBe(404);
    expect(fr.body.toString()).toContain('Page introuvable');
    const en = await get('/en/nowhere');
    expect(en.status).toBe(404);
    expect(en.body.toString()).toContain('Page not found');
    expect((await get('/../../etc/passwd')).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await get('/%E0%A4%A')).status).toBe(404);
  });
});

describe('a built file and the gate', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-gate-'));
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><h1>Accueil</h1>');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  /** The status of a plain GET / and how many times the gate was asked. */
  async function plainGet(openNow: (() => boolean) | undefined) {
    let asked = 0;
    const gate = Object.assign(
      (_req: http.IncomingMessage, res: http.ServerResponse) => {
        asked++;
        res.writeHead(503).end('maintenance');
        return 'answered' as const;
      },
      openNow ? { openNow } : {},
    );
    const app = createGalerieServer({
      staticFiles: await StaticFiles.load(dir),
      handler: () => {},
      gate,
    });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = app.server.address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${port}/`);
      return { status: response.status, asked };
    } finally {
      await new Promise((resolve) => app.server.close(resolve));
    }
  }

  it('is answered directly only while the gate says it is open now', async () => {
    expect(await plainGet(() => true)).toEqual({ status: 200, asked: 0 });
    expect(await plainGet(() => false)).toEqual({ status: 503, asked: 1 });
    // A gate that cannot tell without reading anything is always asked.
    expect(await plainGet(undefined)).toEqual({ status: 503, asked: 1 });
  });
});
