// What the HTTP layer refuses before anything reads a request (issue 14): methods nobody answers
// (405, instead of a 500 from deep inside Astro) and bodies larger than their path can need (413,
// without reading them: Astro's own limit is 1 GiB). A declared Content-Length is judged at once —
// Node never delivers more than it declares; a chunked body is counted while it arrives and held
// (it is at most its path's limit) until it is whole, then handed on.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
]);
export const ALLOW_HEADER = [...KNOWN_METHODS].join(', ');

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The largest body each path may receive. Everything is JSON or a form of a few fields (64 KiB);
 * the back office saves bigger documents (the works' order: 128 KiB); image uploads are the
 * `MAX_UPLOAD_BYTES` of api/admin/uploads.ts (25 MiB, checked equal by a test); Stripe's
 * webhook and the payment emulator's API read at most 1 MiB themselves.
 */
export const BODY_LIMITS = {
  default: 64 * KiB,
  admin: 128 * KiB,
  uploads: 25 * MiB,
  payments: 1 * MiB,
} as const;

export function bodyLimit(pathname: string): number {
  if (pathname === '/api/admin/uploads') return BODY_LIMITS.uploads;
  if (pathname.startsWith('/api/admin/')) return BODY_LIMITS.admin;
  if (pathname === '/api/stripe/webhook' || pathname.startsWith('/v1/'))
    return BODY_LIMITS.payments;
  return BODY_LIMITS.default;
}

/** Whether the request declares a body longer than `limit`. */
export function declaresTooMuch(req: IncomingMessage, limit: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

/** A body of unknown length (Transfer-Encoding: chunked) that must be counted as it comes. */
export function hasUndeclaredBody(req: IncomingMessage): boolean {
  return (
    req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined
  );
}

/**
 * Reads a chunked body up to `limit` bytes. Returns the bytes, or null when the body went over
 * (reading stops there) or the client went away.
 */
export function readUndeclaredBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: Buffer | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks, size));
    const onError = () => finish(null);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

/** How long the rest of a refused body is discarded before the connection is cut. */
export const LINGER_MS = 1000;

const TOO_LARGE = JSON.stringify({
  error: { code: 'payload_too_large', message: 'The request body is too large.' },
});

/**
 * 413 before the body is read. The answer goes out whole at once, but the exchange ends only
 * when the client has finished sending, or after LINGER_MS: meanwhile the rest of the body is
 * discarded, never kept. Closing at once (Node closes a connection answered before its request
 * was read) would make the kernel reset it with the client's bytes unread, and a client still
 * sending could lose the answer; reading on until the end would let it make us read 50 MB.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse): void {
  refuseUnread(req, res, 413, TOO_LARGE);
}

/**
 * Any refusal of a request whose body has not been read (too large, not allowed, no room): the
 * answer at once, the body discarded as it arrives (never kept), as for 413 above.
 */
export function refuseUnread(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  payload: string,
  headers: Record<string, string> = {},
): void {
  res.statusCode = status;
  // Said at once, so that ending the answer closes the connection (Node's keep-alive would wait).
  res.shouldKeepAlive = false;
  res.setHeader('Connection', 'close');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.write(payload);
  const finish = () => {
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  const timer = setTimeout(finish, LINGER_MS);
  req.once('end', finish);
  req.once('error', finish);
  req.socket.once('close', finish);
  req.resume();
}

/** Whether a request carries a body (declared, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined
    ? Number(declared) > 0
    : req.headers['transfer-encoding'] !== undefined;
}

/**
 * All the request bodies being read at one time, together (issue 24, break 4): thirty anonymous
 * uploads once held 450 MB. Each request with a body reserves its declared length — a chunked one
 * its path's limit — before a byte is read, and gives it back when its exchange closes; past the
 * budget the answer is 503 with Retry-After, unread.
 */
export class BodyBudget {
  readonly limit: number;
  private used = 0;
  constructor(limit: number) {
    this.limit = limit;
  }
  get inUse(): number {
    return this.used;
  }
  /** Reserves `bytes` until `res` closes; false when there is no room. */
  reserve(bytes: number, res: ServerResponse): boolean {
    if (bytes <= 0) return true;
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    res.once('close', () => (this.used -= bytes));
    return true;
  }
}

/** Bytes of bodies read at once, all requests together: four full uploads and room to spare. */
export const BODY_BUDGET_BYTES = 4 * BODY_LIMITS.uploads + 16 * MiB;
