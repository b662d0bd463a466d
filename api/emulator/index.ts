// The local Stripe-compatible payment emulator, used when no STRIPE_SECRET_KEY is configured: the
// subset of Stripe's HTTP API the shop uses (under /v1/*), a hosted payment page (under
// /emulator/checkout/:id) and webhooks signed as Stripe signs them. It is mounted on the app's own
// HTTP server and reached through the real `stripe` SDK (host/port/protocol), so the production
// code path runs unchanged. Its /v1 API answers only the shop's own process: a secret key random
// per data directory, over loopback, never through a proxy. With `dataDir` its state survives a
// restart (persist.ts); without it, state lives in memory (tests, benchmarks). docs/decisions/023.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StripeApiError, invalidRequest, noSuch } from './errors.ts';
import { Params, parseForm } from './form.ts';
import {
  checkoutPage,
  closedPage,
  notFoundPage,
  type PageError,
  STYLE_HASH,
  successRedirect,
} from './page.ts';
import { emulatorSecretKey, newSecretKey, readState, writeState } from './persist.ts';
import { EmulatorStore, randomId, type CheckoutSession, type SessionRecord } from './store.ts';
import { WebhookSender, type StripeEvent } from './webhooks.ts';

export interface EmulatorOptions {
  /** Where to POST webhook events, e.g. http://127.0.0.1:4321/api/stripe/webhook */
  webhookUrl: string;
  /** whsec_… secret used to sign webhooks exactly as Stripe does (Stripe-Signature: t=…,v1=…) */
  webhookSecret: string;
  /**
   * Public base URL of the app (e.g. http://localhost:4321), used to build session.url =
   * `${publicBaseUrl}/emulator/checkout/${id}`; success_url and cancel_url must share its origin.
   */
  publicBaseUrl: string;
  /**
   * Where the key and the state live (DATA_DIR/emulator): the key is read from there (made the
   * first time), the state restored, and pending webhooks sent again. Without it: in memory.
   */
  dataDir?: string;
  /** The API key to accept; default: the data directory's, else a random one (see `secretKey`). */
  secretKey?: string;
  /** Retry delays for webhook delivery in ms (default e.g. [500, 2000, 5000, 15000, 60000]); tests pass small values. */
  retryDelaysMs?: number[];
  log?: (line: string) => void;
}

export interface StripeEmulator {
  /** The only API key /v1 accepts: give it to the shop's Stripe client (createEmulatedPayments). */
  readonly secretKey: string;
  /** Handles the request if its path starts with /v1/ or /emulator/; returns false otherwise (the caller goes on). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Stops timers and pending retries. */
  close(): void;
  /** For tests: complete a session as if the card 4242… was entered (same effect as the page). */
  pay(sessionId: string): Promise<void>;
  /** For tests: the deliveries attempted so far (event id, type, status code or error). */
  readonly deliveries: ReadonlyArray<{
    eventId: string;
    type: string;
    attempt: number;
    status: number | string;
  }>;
}

const DEFAULT_RETRY_DELAYS_MS = [500, 2000, 5000, 15_000, 60_000];
// The version stripe-node 23.1 pins; events carry the version the SDK last sent, as on Stripe.
const DEFAULT_API_VERSION = '2026-10-28.endive';
const MAX_BODY_BYTES = 1024 * 1024;
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const PAYING_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';
// Sessions paid through pay() without a customer_email get this one, as if it was typed.
const TEST_EMAIL = 'customer@example.com';

interface JsonAnswer {
  status: number;
  body: unknown;
}

interface IdempotentResult {
  fingerprint: string;
  answer: JsonAnswer;
  at: number;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new StripeApiError(413, 'Request body too large.'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The API key of the request: `Authorization: Bearer sk_…` (or Basic, as curl -u sends it). */
function apiKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (basic?.[1]) return Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  return undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * Only the shop's own Stripe client may call /v1: it connects to 127.0.0.1 directly, so a request
 * from another address, or one a proxy forwarded (X-Forwarded-For / Forwarded), is refused before
 * its key is even looked at.
 */
function checkCaller(req: IncomingMessage): void {
  if (
    !isLoopback(req.socket.remoteAddress) ||
    req.headers['x-forwarded-for'] !== undefined ||
    req.headers['forwarded'] !== undefined
  ) {
    throw new StripeApiError(
      403,
      "The payment emulator's API only answers the shop's own process (loopback, not through a proxy).",
    );
  }
}

function checkAuth(req: IncomingMessage, secretKey: string): void {
  const key = apiKey(req);
  if (!key) {
    throw new StripeApiError(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
  if (!timingSafeEqual(digest(key), digest(secretKey))) {
    const shown = key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(8)}${key.slice(-4)}` : key;
    throw new StripeApiError(401, `Invalid API Key provided: ${shown}`, {
      code: 'api_key_invalid',
    });
  }
}

function sendJson(res: ServerResponse, answer: JsonAnswer, headers: Record<string, string>): void {
  const payload = JSON.stringify(answer.body, null, 2);
  res.writeHead(answer.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-cache, no-store',
    'Request-Id': randomId('req_', 14),
    ...headers,
  });
  res.end(payload);
}

function sendHtml(res: ServerResponse, status: number, html: string, head = false): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; style-src '${STYLE_HASH}'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'`,
  });
  res.end(head ? undefined : html);
}

/** An id from the URL path; a malformed escape stays as typed (and then matches nothing). */
function pathId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const SESSION_ROUTE = /^\/v1\/checkout\/sessions\/([^/]+)$/;
const LINE_ITEMS_ROUTE = /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/;
const EXPIRE_ROUTE = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/;
const COUPON_ROUTE = /^\/v1\/coupons\/([^/]+)$/;
const REFUND_ROUTE = /^\/v1\/refunds\/([^/]+)$/;
const PAYMENT_INTENT_ROUTE = /^\/v1\/payment_intents\/([^/]+)$/;
const PAGE_ROUTE = /^\/emulator\/checkout\/([^/]+)\/?$/;

export function createStripeEmulator(options: EmulatorOptions): StripeEmulator {
  const log = options.log ?? (() => {});
  const { dataDir } = options;
  const secretKey =
    options.secretKey ?? (dataDir === undefined ? newSecretKey() : emulatorSecretKey(dataDir));
  let apiVersion = DEFAULT_API_VERSION;
  // The first delivery attempt of the event emitted last (pay() waits for it).
  let lastSend: Promise<void> = Promise.resolve();
  // Events emitted and not yet delivered (or given up): persisted with the store.
  const pending = new Map<string, StripeEvent>();
  let restoring = true;
  /** Writes the state to the data directory (no-op in memory); throws if it cannot. */
  const save = () => {
    if (dataDir === undefined || restoring) return;
    writeState(dataDir, { version: 1, store: store.snapshot(), pending: [...pending.values()] });
  };
  const saveOrLog = () => {
    try {
      save();
    } catch (error) {
      log(`could not save the emulator's state: ${(error as Error).message}`);
    }
  };
  const sender = new WebhookSender({
    url: options.webhookUrl,
    secret: options.webhookSecret,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    log,
    settled: (eventId) => {
      if (pending.delete(eventId)) saveOrLog();
    },
  });
  const store = new EmulatorStore({
    publicBaseUrl: options.publicBaseUrl,
    emit: (type, object) => {
      const event: StripeEvent = {
        id: randomId('evt_'),
        object: 'event',
        api_version: apiVersion,
        created: Math.floor(Date.now() / 1000),
        // A snapshot: later changes to the session must not leak into a retried event.
        data: { object: structuredClone(object) },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      };
      log(`${type} for ${object.id} (${event.id})`);
      // Saved (with the change that caused it) before it is sent and before any answer leaves.
      pending.set(event.id, event);
      saveOrLog();
      if (restoring) return; // sent with the other pending events below
      lastSend = sender.send(event);
    },
  });
  const idempotency = new Map<string, IdempotentResult>();

  // An earlier process's state: sessions, coupons, intents, refunds, and deliveries to finish.
  const previous = dataDir === undefined ? null : readState(dataDir, log);
  if (previous) {
    for (const event of previous.pending) pending.set(event.id, event);
    store.restore(previous.store);
    log(
      `restored ${previous.store.sessions.length} session(s) and ${pending.size} pending webhook(s)`,
    );
  }
  restoring = false;
  if (dataDir !== undefined) save();
  if (pending.size > 0) {
    // After the caller's synchronous set-up (the shop provides its payments right after this).
    const resend = [...pending.values()];
    setImmediate(() => {
      for (const event of resend) lastSend = sender.send(event);
    });
  }

  // ── API ─────────────────────────────────────────────────────────────────────────────────────

  /** `expand[]` on a returned object: payment_intent and line_items are the ones the shop uses. */
  function expand(object: object, fields: string[]): object {
    if (fields.length === 0) return object;
    const out: Record<string, unknown> = { ...object };
    for (const field of fields) {
      if (field === 'payment_intent' && 'payment_intent' in out) {
        const id = out['payment_intent'];
        out['payment_intent'] = typeof id === 'string' ? store.paymentIntent(id) : id;
      } else if (field === 'line_items' && out['object'] === 'checkout.session') {
        out['line_items'] = lineItemList((object as CheckoutSession).id, new Params({}));
      } else {
        throw invalidRequest(`This property cannot be expanded (${field}).`, 'expand');
      }
    }
    return out;
  }

  function lineItemList(id: string, params: Params) {
    const items = store.record(id).lineItems;
    const limit = params.integer('limit', { min: 1 }) ?? 10;
    if (limit > 100) throw invalidRequest('Invalid limit: must be at most 100.', 'limit');
    const cursor = (key: string) => {
      const itemId = params.string(key);
      if (itemId === undefined) return undefined;
      const index = items.findIndex((item) => item.id === itemId);
      if (index < 0) throw noSuch('item', itemId, key, 400);
      return index;
    };
    const after = cursor('starting_after');
    const before = cursor('ending_before');
    let data;
    let hasMore;
    if (before !== undefined) {
      data = items.slice(Math.max(0, before - limit), before);
      hasMore = before > limit;
    } else {
      const rest = items.slice(after === undefined ? 0 : after + 1);
      data = rest.slice(0, limit);
      hasMore = rest.length > limit;
    }
    return {
      object: 'list',
      data,
      has_more: hasMore,
      url: `/v1/checkout/sessions/${id}/line_items`,
    };
  }

  function route(method: string, path: string, params: Params): JsonAnswer {
    const ok = (body: unknown): JsonAnswer => ({ status: 200, body });
    const expanded = (object: object) => ok(expand(object, params.strings('expand')));
    const only = (...keys: string[]) => params.allowOnly(['expand', ...keys]);
    let m: RegExpExecArray | null;

    if (method === 'POST' && path === '/v1/checkout/sessions') {
      return expanded(store.createSession(params));
    }
    if (method === 'GET' && (m = LINE_ITEMS_ROUTE.exec(path))) {
      only('limit', 'starting_after', 'ending_before');
      return ok(lineItemList(pathId(m[1] ?? ''), params));
    }
    if (method === 'POST' && (m = EXPIRE_ROUTE.exec(path))) {
      only();
      return expanded(store.expireSession(pathId(m[1] ?? '')));
    }
    if (method === 'GET' && (m = SESSION_ROUTE.exec(path))) {
      only();
      return expanded(store.record(pathId(m[1] ?? '')).session);
    }
    if (method === 'POST' && path === '/v1/coupons') return expanded(store.createCoupon(params));
    if ((method === 'GET' || method === 'DELETE') && (m = COUPON_ROUTE.exec(path))) {
      only();
      const id = pathId(m[1] ?? '');
      return ok(method === 'GET' ? store.coupon(id) : store.deleteCoupon(id));
    }
    if (method === 'POST' && path === '/v1/refunds') return expanded(store.createRefund(params));
    if (method === 'GET' && (m = REFUND_ROUTE.exec(path))) {
      only();
      return expanded(store.refund(pathId(m[1] ?? '')));
    }
    if (method === 'GET' && (m = PAYMENT_INTENT_ROUTE.exec(path))) {
      only();
      return ok(store.paymentIntent(pathId(m[1] ?? '')));
    }
    throw new StripeApiError(
      404,
      `Unrecognized request URL (${method}: ${path}). The payment emulator only knows the Checkout Session, coupon, refund and payment intent calls the shop uses.`,
    );
  }

  async function serveApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = {};
    try {
      checkCaller(req);
      checkAuth(req, secretKey);
      const version = req.headers['stripe-version'];
      if (typeof version === 'string' && version) apiVersion = version;
      headers['Stripe-Version'] = apiVersion;
      const body = method === 'POST' ? await readBody(req) : '';
      const params = new Params(parseForm(method === 'POST' ? body : url.search.slice(1)));

      // Idempotency (Stripe keeps keys 24 h): the same key and request replay the first answer;
      // the same key with another request is refused.
      const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
      if (typeof key === 'string' && key) {
        const now = Date.now();
        for (const [k, v] of idempotency)
          if (now - v.at > IDEMPOTENCY_TTL_MS) idempotency.delete(k);
        const fingerprint = `${method} ${url.pathname}\n${body}`;
        const previous = idempotency.get(key);
        if (previous) {
          if (previous.fingerprint !== fingerprint) {
            throw new StripeApiError(
              400,
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              { type: 'idempotency_error' },
            );
          }
          sendJson(res, previous.answer, {
            ...headers,
            'Idempotency-Key': key,
            'Idempotent-Replayed': 'true',
          });
          return;
        }
        const answer = route(method, url.pathname, params);
        save();
        idempotency.set(key, { fingerprint, answer: structuredClone(answer), at: now });
        sendJson(res, answer, { ...headers, 'Idempotency-Key': key });
        return;
      }
      const answer = route(method, url.pathname, params);
      if (method !== 'GET') save();
      sendJson(res, answer, headers);
    } catch (error) {
      if (error instanceof StripeApiError) {
        sendJson(res, { status: error.status, body: error.toBody() }, headers);
        return;
      }
      throw error;
    }
  }

  // ── Hosted payment page ─────────────────────────────────────────────────────────────────────

  async function servePage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const match = PAGE_ROUTE.exec(url.pathname);
    const id = match ? pathId(match[1] ?? '') : undefined;
    let record: SessionRecord | undefined;
    try {
      record = id === undefined ? undefined : store.record(id);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
    }
    if (!record) {
      sendHtml(res, 404, notFoundPage(), method === 'HEAD');
      return;
    }
    const { session } = record;

    if (method === 'GET' || method === 'HEAD') {
      sendHtml(
        res,
        200,
        session.status === 'open' ? checkoutPage({ record }) : closedPage(session),
        method === 'HEAD',
      );
      return;
    }
    if (method !== 'POST') {
      res.writeHead(405, { Allow: 'GET, HEAD, POST' }).end();
      return;
    }

    const form = new URLSearchParams(await readBody(req));
    if (session.status === 'complete') {
      // A second click on "Pay" lands here: the payment went through, go where the first went.
      res.writeHead(303, { Location: successRedirect(session) }).end();
      return;
    }
    if (session.status !== 'open') {
      sendHtml(res, 409, closedPage(session));
      return;
    }
    const values = {
      card_number: form.get('card_number') ?? '',
      expiry: form.get('expiry') ?? '',
      cvc: form.get('cvc') ?? '',
      name: form.get('name') ?? '',
      email: form.get('email') ?? '',
    };
    const card = values.card_number.replace(/[\s-]/g, '');
    const email = values.email.trim();
    let error: PageError | undefined;
    let status = 400;
    if (card !== PAYING_CARD && card !== DECLINED_CARD) error = 'invalidCard';
    else if (!session.customer_email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      error = 'invalidEmail';
    } else if (card === DECLINED_CARD) {
      error = 'declined';
      status = 402;
    }
    if (error) {
      log(`payment page: ${error} for ${session.id}`);
      sendHtml(res, status, checkoutPage({ record, error, values }));
      return;
    }
    store.completeSession(session.id, { email: email || null, name: values.name.trim() || null });
    save(); // already saved with the completed event; a failure to save answers 500, not 303
    res.writeHead(303, { Location: successRedirect(session) }).end();
  }

  // ── Entry points ────────────────────────────────────────────────────────────────────────────

  function fail(res: ServerResponse, error: unknown): void {
    log(
      `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendJson(
      res,
      { status: 500, body: { error: { type: 'api_error', message: 'Internal emulator error.' } } },
      {},
    );
  }

  return {
    secretKey,
    handle(req, res) {
      // Every request of the shop passes here first: only ours pay for parsing the URL.
      const raw = req.url ?? '/';
      if (!raw.startsWith('/v1/') && !raw.startsWith('/emulator/')) return false;
      const url = new URL(raw, 'http://emulator.invalid');
      if (url.pathname.startsWith('/v1/')) {
        serveApi(req, res, url).catch((error: unknown) => fail(res, error));
        return true;
      }
      if (url.pathname.startsWith('/emulator/')) {
        servePage(req, res, url).catch((error: unknown) => {
          if (error instanceof StripeApiError && !res.headersSent) {
            res.writeHead(error.status, { 'Content-Type': 'text/plain; charset=utf-8' });
            res.end(error.message);
            return;
          }
          fail(res, error);
        });
        return true;
      }
      return false;
    },
    close() {
      store.close();
      sender.close();
    },
    async pay(sessionId) {
      store.completeSession(sessionId, { email: TEST_EMAIL, name: null });
      await lastSend;
    },
    get deliveries() {
      return sender.deliveries;
    },
  };
}
