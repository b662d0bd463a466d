// GET /api/availability from memory (issue 14 §2): the answer is the same for every visitor, so
// the HTTP layer keeps it — body, ETag and its gzip and brotli forms — and reads the database
// again only when it may have changed:
// - at once after any request that may change a work (every unsafe request: a checkout's holds,
//   the payment webhook's sale, the back office's edits — api/http/app.ts) and after the server's
//   own jobs (hold sweeper, payment reconciliation: api/server.ts);
// - otherwise after `maxAgeMs` (1 s), for what another node of the same database changed.
// Concurrent misses share one read. Answers exactly what the Astro endpoint answered
// (src/pages/api/availability.ts, kept for `astro dev`): `{ works }`, `public, no-cache`, a weak
// ETag and bodiless 304s.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import type { Database } from '../db/index.ts';
import { listAvailability } from './index.ts';

interface Entry {
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  readAt: number;
  /** The invalidation count when the read began: a change during the read makes it stale. */
  generation: number;
}

export interface AvailabilityCacheOptions {
  /** How long an answer may be reused when this node saw no change (other nodes' changes). */
  maxAgeMs?: number;
  now?: () => number;
}

/** The availability answer's ETag: weak, the server may compress the bytes (as before). */
export function availabilityEtag(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;
}

export class AvailabilityCache {
  private entry: Entry | undefined;
  private reading: Promise<Entry> | undefined;
  private generation = 0;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  /** Database reads made (for tests and the bench). */
  reads = 0;

  private readonly db: () => Promise<Database> | Database;

  constructor(db: () => Promise<Database> | Database, options: AvailabilityCacheOptions = {}) {
    this.db = db;
    this.maxAgeMs = options.maxAgeMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** Something may have changed a work: the next request reads the database again. */
  invalidate(): void {
    this.generation++;
  }

  private fresh(entry: Entry | undefined): entry is Entry {
    return (
      entry !== undefined &&
      entry.generation === this.generation &&
      this.now() - entry.readAt < this.maxAgeMs
    );
  }

  async current(): Promise<Entry> {
    if (this.fresh(this.entry)) return this.entry;
    const generation = this.generation;
    this.reading ??= (async () => {
      try {
        this.reads++;
        const readAt = this.now();
        const body = JSON.stringify({ works: await listAvailability(await this.db()) });
        const previous = this.entry;
        const etag = availabilityEtag(body);
        const entry: Entry =
          previous && previous.etag === etag
            ? { ...previous, readAt, generation }
            : {
                etag,
                identity: Buffer.from(body),
                gzip: zlib.gzipSync(body, { level: 6 }),
                br: zlib.brotliCompressSync(body, {
                  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
                }),
                readAt,
                generation,
              };
        this.entry = entry;
        return entry;
      } finally {
        this.reading = undefined;
      }
    })();
    const entry = await this.reading;
    // Changed while it was read: this caller's own change must show, so read once more.
    return entry.generation === this.generation ? entry : this.current();
  }

  /** Answers GET/HEAD /api/availability. */
  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry = await this.current();
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('ETag', entry.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    const match = req.headers['if-none-match'];
    if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === entry.etag.slice(2))) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const [encoding, body] = /\bbr\b/.test(accepted)
      ? (['br', entry.br] as const)
      : /\bgzip\b/.test(accepted)
        ? (['gzip', entry.gzip] as const)
        : ([undefined, entry.identity] as const);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
