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
});

describe('built files and the Astro handler behind one server', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
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
      staticFiles: await StaticFiles.load(dir),
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

  const get = (pathname: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        http
          .get(`${base}${pathname}`, { headers }, (res) => {
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
          .on('error', reject);
      },
    );

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
