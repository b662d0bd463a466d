// On-the-fly compression of what is rendered on demand (pages, JSON), as a response class the
// server is created with (docs/decisions/057). Built files never come here: they are compressed
// once at build time (api/build/precompress.ts).
//
// It does what the `compression` middleware did, with the same rules (below), but on the
// prototype: the middleware replaced `write`, `end`, `on` and `writeHead` on every response with
// closures made for it, and V8 keeps an object given such a closure after it was made — and all
// the closure reaches: the request, the response, Astro's state for it — through every
// young-generation collection until the next full one. Every on-demand request outlived its
// scavenge; p99 rose with the pauses. Here the methods are shared and the state of one response is
// a plain object.
//
// The rules: a response is compressed when its Content-Type is text, JSON, JavaScript, XML or SVG;
// its Cache-Control does not say `no-transform`; it has no Content-Encoding of its own; it is not
// the answer to a HEAD; its length, when known (Content-Length, or the one chunk given to `end`),
// is at least THRESHOLD_BYTES; and the client accepts br, gzip or deflate (the highest q wins, br
// before gzip before deflate on a tie; no Accept-Encoding means identity). Whenever the type and
// Cache-Control allow compression, `Vary: Accept-Encoding` is added, whether or not this answer
// was compressed.
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';

/** Smaller answers are sent as they are (the middleware's setting here was 512 bytes). */
export const THRESHOLD_BYTES = 512;
const BROTLI_QUALITY = 4;

const COMPRESSIBLE =
  /^(text\/[^;]+|application\/(json|javascript|ecmascript|xml|xhtml\+xml|[\w.+-]+\+(json|xml))|image\/svg\+xml)\s*(;|$)/i;

type Coding = 'br' | 'gzip' | 'deflate';
const PREFERENCE: readonly Coding[] = ['br', 'gzip', 'deflate'];

/** The coding to answer with for this Accept-Encoding, or null for none. */
export function negotiateEncoding(header: string | undefined): Coding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') weight = Number(value);
    }
    if (Number.isFinite(weight)) q.set(name, Math.max(0, Math.min(1, weight)));
  }
  const star = q.get('*');
  let best: Coding | null = null;
  let bestQ = 0;
  for (const coding of PREFERENCE) {
    const weight = q.get(coding) ?? star ?? 0;
    if (weight > bestQ) {
      best = coding;
      bestQ = weight;
    }
  }
  return best;
}

function compressibleType(type: unknown): boolean {
  return typeof type === 'string' && COMPRESSIBLE.test(type);
}

function addVary(res: http.ServerResponse, field: string): void {
  const current = res.getHeader('Vary');
  const value = Array.isArray(current) ? current.join(', ') : String(current ?? '');
  if (value.trim() === '*') return;
  const fields = value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.some((f) => f.toLowerCase() === field.toLowerCase())) return;
  res.setHeader('Vary', [...fields, field].join(', '));
}

type Chunk = string | Uint8Array;
type Callback = (error?: Error | null) => void;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own listener type
type Listener = (...args: any[]) => void;

function byteLength(chunk: Chunk | undefined, encoding?: BufferEncoding): number {
  if (!chunk) return 0;
  return typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : chunk.byteLength;
}

function toBuffer(chunk: Chunk, encoding?: BufferEncoding): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk);
}

/** One response's compression, once asked for. */
class OnTheFly {
  decided = false;
  ended = false;
  closed = false;
  /** The length of the whole body when `end` was given it before any header was sent. */
  length: number | undefined = undefined;
  stream: zlib.BrotliCompress | zlib.Gzip | zlib.Deflate | null = null;
  /** `drain` listeners added before the decision; null once passed on. */
  drain: Listener[] | null = [];
}

const RESPONSE = Symbol('response');
type Compressor = (zlib.BrotliCompress | zlib.Gzip | zlib.Deflate) & {
  [RESPONSE]?: CompressingResponse;
};

// Listeners shared by every response: `this` is the emitter.
function onStreamData(this: Compressor, chunk: Buffer): void {
  const res = this[RESPONSE];
  if (res && !res.writeThrough(chunk)) this.pause();
}
function onStreamEnd(this: Compressor): void {
  this[RESPONSE]?.endThrough();
}
function onResponseDrain(this: CompressingResponse): void {
  this.compressor?.resume();
}
function onResponseClose(this: CompressingResponse): void {
  this.closeCompressor();
}

export class CompressingResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends http.ServerResponse<Request> {
  #state: OnTheFly | null = null;

  /** Compress this answer if the rules allow it: called before handing it to the renderer. */
  compressOnTheFly(): void {
    if (this.#state) return;
    this.#state = new OnTheFly();
    super.on('close', onResponseClose);
  }

  /** Node's own `write`, for what goes out as it is (and the compressor's output). */
  writeThrough(chunk: Chunk, encoding?: BufferEncoding, done?: Callback): boolean {
    return encoding === undefined ? super.write(chunk, done) : super.write(chunk, encoding, done);
  }

  /** Node's own `end`. */
  endThrough(chunk?: Chunk, encoding?: BufferEncoding, done?: () => void): this {
    if (chunk === undefined) return super.end(done);
    return encoding === undefined ? super.end(chunk, done) : super.end(chunk, encoding, done);
  }

  /** The compressing stream, once this answer is being compressed. */
  get compressor(): Compressor | null {
    return this.#state?.stream ?? null;
  }

  closeCompressor(): void {
    const state = this.#state;
    if (!state) return;
    state.closed = true;
    state.stream?.destroy();
  }

  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | http.OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | http.OutgoingHttpHeader[],
  ): this {
    const state = this.#state;
    if (!state || state.decided || this.headersSent)
      return typeof reasonOrHeaders === 'string'
        ? super.writeHead(statusCode, reasonOrHeaders, headers)
        : super.writeHead(statusCode, reasonOrHeaders);
    state.decided = true;
    const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
    const given = typeof reasonOrHeaders === 'string' ? headers : reasonOrHeaders;
    // The headers given here count in the decision: set them first, as Node would merge them.
    if (Array.isArray(given)) {
      const flat: readonly (string | number | readonly string[])[] = given.flat();
      for (let i = 0; i + 1 < flat.length; i += 2) this.setHeader(String(flat[i]), flat[i + 1]!);
    } else if (given) {
      for (const [name, value] of Object.entries(given))
        if (value !== undefined) this.setHeader(name, value);
    }
    this.statusCode = statusCode;
    this.#decide(state);
    return reason === undefined ? super.writeHead(statusCode) : super.writeHead(statusCode, reason);
  }

  #decide(state: OnTheFly): void {
    const skip = () => {
      const listeners = state.drain ?? [];
      state.drain = null;
      for (const listener of listeners) super.on('drain', listener);
    };
    if (!compressibleType(this.getHeader('Content-Type'))) return skip();
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(this.getHeader('Cache-Control') ?? '')))
      return skip();
    addVary(this, 'Accept-Encoding');
    const declared = this.getHeader('Content-Length');
    if (
      (declared !== undefined && Number(declared) < THRESHOLD_BYTES) ||
      (state.length !== undefined && state.length < THRESHOLD_BYTES)
    )
      return skip();
    const encoding = this.getHeader('Content-Encoding');
    if (encoding !== undefined && String(encoding).toLowerCase() !== 'identity') return skip();
    if (this.req.method === 'HEAD') return skip();
    const coding = negotiateEncoding(this.req.headers['accept-encoding']);
    if (!coding || state.closed) return skip();
    const stream: Compressor =
      coding === 'br'
        ? zlib.createBrotliCompress({
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
          })
        : coding === 'gzip'
          ? zlib.createGzip()
          : zlib.createDeflate();
    stream[RESPONSE] = this;
    state.stream = stream;
    for (const listener of state.drain ?? []) stream.on('drain', listener);
    this.setHeader('Content-Encoding', coding);
    this.removeHeader('Content-Length');
    stream.on('data', onStreamData);
    stream.on('end', onStreamEnd);
    super.on('drain', onResponseDrain);
  }

  override write(
    chunk: Chunk,
    encodingOrCallback?: BufferEncoding | Callback,
    callback?: Callback,
  ): boolean {
    const state = this.#state;
    const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined;
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (!state) return this.writeThrough(chunk, encoding, done);
    if (state.ended) return false;
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (!state.stream) return this.writeThrough(chunk, encoding, done);
    return state.stream.write(toBuffer(chunk, encoding), done);
  }

  override end(
    chunkOrCallback?: Chunk | (() => void),
    encodingOrCallback?: BufferEncoding | (() => void),
    callback?: () => void,
  ): this {
    const state = this.#state;
    const chunk = typeof chunkOrCallback === 'function' ? undefined : chunkOrCallback;
    const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined;
    const done =
      typeof chunkOrCallback === 'function'
        ? chunkOrCallback
        : typeof encodingOrCallback === 'function'
          ? encodingOrCallback
          : callback;
    if (!state) return this.endThrough(chunk, encoding, done);
    if (state.ended) return this;
    if (!this.headersSent) {
      if (!this.getHeader('Content-Length')) state.length = byteLength(chunk, encoding);
      this.writeHead(this.statusCode);
    }
    if (!state.stream) return this.endThrough(chunk, encoding, done);
    state.ended = true;
    if (done) this.once('finish', done);
    if (chunk) state.stream.end(toBuffer(chunk, encoding));
    else state.stream.end();
    return this;
  }

  override on(event: string | symbol, listener: Listener): this {
    const state = this.#state;
    if (!state || event !== 'drain' || state.drain === null) return super.on(event, listener);
    if (state.stream) state.stream.on('drain', listener);
    else state.drain.push(listener);
    return this;
  }
}
