// On-the-fly compression as a response class (api/http/compress.ts): the rules the `compression`
// middleware applied, and no method of its own put on each response.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CompressingResponse, negotiateEncoding, THRESHOLD_BYTES } from './compress.ts';

type Handler = (req: IncomingMessage, res: CompressingResponse) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: Handler, onTheFly = true): Promise<string> {
  const server = http.createServer({ ServerResponse: CompressingResponse }, (req, res) => {
    if (onTheFly) res.compressOnTheFly();
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent. */
  raw: Buffer;
  /** The body decoded from its Content-Encoding. */
  text: string;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const body =
          coding === 'br'
            ? zlib.brotliDecompressSync(raw)
            : coding === 'gzip'
              ? zlib.gunzipSync(raw)
              : coding === 'deflate'
                ? zlib.inflateSync(raw)
                : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text: body.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const BIG = JSON.stringify({
  works: Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Œuvre ${i}` })),
});
const SMALL = JSON.stringify({ count: 0 });

function json(body: string, extra: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
    res.end(body);
  };
}

describe('negotiateEncoding', () => {
  it('prefers br, then gzip, then deflate among equals, and follows q values', () => {
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
    expect(negotiateEncoding('deflate')).toBe('deflate');
    expect(negotiateEncoding('br;q=0.5, gzip;q=1')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0.2, gzip;q=0.1')).toBe('br');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('gzip;q=0, *;q=0')).toBeNull();
    expect(negotiateEncoding('GZIP')).toBe('gzip');
  });
});

describe('CompressingResponse', () => {
  it('compresses a large JSON answer with the coding the client prefers', async () => {
    const url = await serve(json(BIG));
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['content-length']).toBeUndefined();
    expect(br.text).toBe(BIG);
    expect(br.raw.length).toBeLessThan(BIG.length);
    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe(BIG);
    const none = await get(url);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.headers['vary']).toBe('Accept-Encoding');
    expect(none.text).toBe(BIG);
  });

  it(`sends an answer under ${THRESHOLD_BYTES} bytes as it is, and says it varies`, async () => {
    const url = await serve(json(SMALL));
    const small = await get(url, { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['vary']).toBe('Accept-Encoding');
    expect(small.text).toBe(SMALL);
    // A declared length counts too, whatever is written after.
    const declared = await serve((_req, res) => {
      res.setHeader('Content-Type', 'text/plain');
      res.setHeader('Content-Length', String(Buffer.byteLength(SMALL)));
      res.write(SMALL);
      res.end();
    });
    const answer = await get(declared, { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(SMALL)));
    expect(answer.text).toBe(SMALL);
  });

  it('leaves alone what is not text, asks no transform, is already encoded or answers a HEAD', async () => {
    const pdf = await get(
      await serve((_req, res) => {
        res.setHeader('Content-Type', 'application/pdf');
        res.end(Buffer.alloc(4096, 7));
      }),
      { 'accept-encoding': 'br' },
    );
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.headers['vary']).toBeUndefined();
    expect(pdf.raw.length).toBe(4096);
    const noTransform = await get(
      await serve(json(BIG, { 'Cache-Control': 'private, no-transform' })),
      {
        'accept-encoding': 'br',
      },
    );
    expect(noTransform.headers['content-encoding']).toBeUndefined();
    expect(noTransform.text).toBe(BIG);
    const encoded = zlib.gzipSync(BIG);
    const already = await get(
      await serve((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        res.end(encoded);
      }),
      { 'accept-encoding': 'br' },
    );
    expect(already.headers['content-encoding']).toBe('gzip');
    expect(already.text).toBe(BIG);
    const head = await get(await serve(json(BIG)), { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.raw.length).toBe(0);
  });

  it('reads the headers given to writeHead, as Astro writes an answer, and keeps them all', async () => {
    const url = await serve((_req, res) => {
      res.setHeader('X-Request-Id', 'abc');
      res.writeHead(201, {
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
        vary: 'Cookie',
      });
      for (let i = 0; i < 20; i += 1) res.write(`<p>Ligne ${i} — ${'x'.repeat(40)}</p>`);
      res.end();
    });
    const answer = await get(url, { 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(201);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(answer.headers['vary']).toBe('Cookie, Accept-Encoding');
    expect(answer.headers['x-request-id']).toBe('abc');
    expect(answer.text).toContain('<p>Ligne 19');
  });

  it('streams a large body with backpressure and calls back when it ends', async () => {
    const part = `${'Lumière du Tage '.repeat(4096)}\n`;
    let ended = false;
    const url = await serve((_req, res) => {
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      let left = 40;
      const pump = () => {
        while (left > 0) {
          left -= 1;
          if (!res.write(part)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(() => {
          ended = true;
        });
      };
      pump();
    });
    const answer = await get(url, { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.text).toBe(part.repeat(40));
    expect(ended).toBe(true);
  });

  it('does nothing to an answer it was not asked to compress', async () => {
    const url = await serve(json(BIG), false);
    const answer = await get(url, { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['vary']).toBeUndefined();
    expect(answer.text).toBe(BIG);
  });

  it('puts no method on the response itself: each one keeps the shape of the others', async () => {
    const seen: ServerResponse[] = [];
    const url = await serve((req, res) => {
      seen.push(res);
      json(req.url === '/big' ? BIG : SMALL)(req, res);
    });
    await get(`${url}/big`, { 'accept-encoding': 'br' });
    await get(`${url}/small`, { 'accept-encoding': 'gzip' });
    // The middleware put these four (and `flush`) on each response, each a closure of its own.
    for (const res of seen)
      for (const name of ['write', 'end', 'on', 'writeHead', 'flush'])
        expect(Object.hasOwn(res, name), name).toBe(false);
  });
});
