// Serves the built client files (dist/client) from memory: precompressed brotli/gzip copies chosen
// by Accept-Encoding, immutable caching for hashed assets, revalidation for HTML. Only files that
// exist in the build can be served, so no request path ever reaches the filesystem.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { HEADER_POLICY, withFraming } from './headers.ts';

type Encoding = 'br' | 'gzip';

interface Variant {
  body: Buffer;
  etag: string;
  /** Its 200 answer's headers after `common` (see `sendBuilt`), made on its first answer. */
  head?: { common: readonly string[]; list: string[] };
}

export interface StaticFile {
  type: string;
  cacheControl: string;
  identity: Variant;
  encoded: Partial<Record<Encoding, Variant>>;
  /** A page's Content-Security-Policy header (Astro's, with its inline hashes, and framing). */
  policy?: string;
}

/**
 * The policies of a build's prerendered pages (issue 24): Astro writes them, with the hashes of
 * each page's inline scripts and styles, to `_headers.json` beside client/ (the node adapter's
 * `staticHeaders`) instead of a <meta> that markup injected above it would push out of <head>.
 */
export interface PagePolicies {
  /** By route: `/`, `/gallery`, `/en/gallery`, `/404`. */
  byRoute: ReadonlyMap<string, string>;
  /** For a page the file does not list: nothing inline runs. */
  fallback: string;
}

/** The route a page file answers (`/en/gallery/index.html` → `/en/gallery`). */
function routeOf(rel: string): string {
  const route = rel.replace(/\/index\.html$/, '').replace(/\.html$/, '');
  return route === '' ? '/' : route;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files read at once when a version is loaded. */
const LOAD_AT_ONCE = 8;
const REVALIDATE = 'public, max-age=0, must-revalidate';
const SHORT = 'public, max-age=3600';

function variant(body: Buffer, suffix: string): Variant {
  const digest = createHash('sha1').update(body).digest('base64url').slice(0, 20);
  return { body, etag: `"${digest}${suffix}"` };
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

export class StaticFiles {
  private readonly files: Map<string, StaticFile>;

  private constructor(files: Map<string, StaticFile>) {
    this.files = files;
  }

  get size(): number {
    return this.files.size;
  }

  static async load(clientDir: string, policies?: PagePolicies): Promise<StaticFiles> {
    const loaded = new Map<string, StaticFile>();
    const paths: string[] = [];
    for await (const full of walk(clientDir))
      if (!full.endsWith('.br') && !full.endsWith('.gz')) paths.push(full);
    // A few files at a time: at 1 000 works a version holds 2 000 pages, each read with its two
    // compressed copies — one after the other, 2.9–3.7 s of a publish (issue 27).
    const next = async (): Promise<void> => {
      for (let full = paths.pop(); full !== undefined; full = paths.pop()) {
        const [rel, file] = await StaticFiles.loadFile(clientDir, full, policies);
        loaded.set(rel, file);
      }
    };
    await Promise.all(Array.from({ length: LOAD_AT_ONCE }, next));
    return new StaticFiles(loaded);
  }

  private static async loadFile(
    clientDir: string,
    full: string,
    policies: PagePolicies | undefined,
  ): Promise<[string, StaticFile]> {
    const rel = `/${path.relative(clientDir, full).split(path.sep).join('/')}`;
    const ext = path.extname(full).toLowerCase();
    const identity = variant(await fs.readFile(full), '');
    const encoded: StaticFile['encoded'] = {};
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      const body = await fs.readFile(full + suffix).catch(() => null);
      if (body) encoded[encoding] = { body, etag: identity.etag.replace(/"$/, `-${encoding}"`) };
    }
    const cacheControl = rel.startsWith('/_astro/')
      ? IMMUTABLE
      : ext === '.html'
        ? REVALIDATE
        : SHORT;
    const route = routeOf(rel);
    const policy =
      policies && ext === '.html'
        ? withFraming(
            policies.byRoute.get(route) ?? policies.byRoute.get(`${route}/`) ?? policies.fallback,
          )
        : undefined;
    return [
      rel,
      {
        type: TYPES[ext] ?? 'application/octet-stream',
        cacheControl,
        identity,
        encoded,
        ...(policy && { policy }),
      },
    ];
  }

  /** The built file a URL path names: exact file, or a page's index.html / .html. */
  lookup(pathname: string): StaticFile | undefined {
    let decoded = pathname;
    if (pathname.includes('%')) {
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return undefined;
      }
    }
    if (decoded.endsWith('/')) return this.files.get(`${decoded}index.html`);
    return (
      this.files.get(decoded) ??
      this.files.get(`${decoded}/index.html`) ??
      this.files.get(`${decoded}.html`)
    );
  }

  /** Answers GET/HEAD for a built file; returns false when the path is not one. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string, status = 200): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const file = this.lookup(pathname);
    if (!file) return false;
    this.send(req, res, file, status);
    return true;
  }

  /**
   * The 200 answer to a GET or HEAD without condition, written at once: `common` (the headers of
   * every response, api/http/headers.ts) and the file's own, listed once per file and encoding,
   * then the request's id. Answers exactly as `send` does; it only skips Node's header map, which
   * costs a static page more than the rest of its answer (issue 28).
   */
  sendBuilt(
    req: IncomingMessage,
    res: ServerResponse,
    file: StaticFile,
    common: readonly string[],
    requestId: string,
    closing: boolean,
  ): void {
    const encoding = pickEncoding(req.headers['accept-encoding'], file.encoded);
    const chosen = (encoding && file.encoded[encoding]) || file.identity;
    if (chosen.head?.common !== common) {
      const list = [...common, ...fileHeaders(file, chosen, encoding, file.cacheControl)];
      list.push('Content-Length', String(chosen.body.length));
      chosen.head = { common, list };
    }
    const headers = chosen.head.list.slice();
    headers.push('X-Request-Id', requestId);
    if (closing) headers.push('Connection', 'close');
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : chosen.body);
  }

  send(req: IncomingMessage, res: ServerResponse, file: StaticFile, status: number): void {
    const encoding = pickEncoding(req.headers['accept-encoding'], file.encoded);
    const chosen = (encoding && file.encoded[encoding]) || file.identity;
    const headers = fileHeaders(
      file,
      chosen,
      encoding,
      status === 200 ? file.cacheControl : 'no-store',
    );
    for (let i = 0; i < headers.length; i += 2)
      res.setHeader(headers[i] ?? '', headers[i + 1] ?? '');
    if (status === 200 && matchesEtag(req.headers['if-none-match'], chosen.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = status;
    res.setHeader('Content-Length', chosen.body.length);
    res.end(req.method === 'HEAD' ? undefined : chosen.body);
  }
}

/**
 * A built file's own headers, as names and values (what `writeHead` takes), but its length: its
 * policy (the page's, else the one every response carries), type, caching, validator, encoding.
 */
function fileHeaders(
  file: StaticFile,
  chosen: Variant,
  encoding: Encoding | null,
  cacheControl: string,
): string[] {
  const list = [
    'Content-Security-Policy',
    file.policy ?? HEADER_POLICY,
    'Content-Type',
    file.type,
    'Cache-Control',
    cacheControl,
    'ETag',
    chosen.etag,
  ];
  if (file.encoded.br || file.encoded.gzip) list.push('Vary', 'Accept-Encoding');
  if (encoding) list.push('Content-Encoding', encoding);
  return list;
}

/** What an Accept-Encoding header allows of ours, br first. */
interface Acceptable {
  br: boolean;
  gzip: boolean;
}

/** Browsers send a handful of distinct Accept-Encoding headers: each is read once. */
const ACCEPTABLE = new Map<string, Acceptable>();
const ACCEPTABLE_KEPT = 64;

function acceptable(header: string): Acceptable {
  const known = ACCEPTABLE.get(header);
  if (known) return known;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  const read = { br: ok('br'), gzip: ok('gzip') };
  // Odd headers (a client that varies its own) cannot grow the map without bound.
  if (ACCEPTABLE.size >= ACCEPTABLE_KEPT) ACCEPTABLE.clear();
  ACCEPTABLE.set(header, read);
  return read;
}

/** br when accepted, else gzip when accepted, else the identity body. */
export function pickEncoding(
  header: string | undefined,
  available: Partial<Record<Encoding, unknown>>,
): Encoding | null {
  if (!header) return null;
  const accepts = acceptable(header);
  if (accepts.br && available.br !== undefined) return 'br';
  if (accepts.gzip && available.gzip !== undefined) return 'gzip';
  return null;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || t === `W/${etag}` || t === '*';
  });
}
