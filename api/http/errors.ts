// The closed set of error codes the JSON endpoints answer with, each mapped once to an HTTP status
// and a default message, plus the request guards every unsafe endpoint shares: same-origin check
// and body reading with a size limit. Bad input always gets a 4xx, never a 500.

import { log } from '../log.ts';

/** code → HTTP status and the default message (English, for API clients and logs; pages translate by code). */
export const ERRORS = {
  invalid_input: { status: 400, message: 'Some fields are missing or invalid.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  rejected: { status: 400, message: 'The request was refused.' },
  forbidden_origin: { status: 403, message: 'Cross-origin requests are not allowed.' },
  not_found: { status: 404, message: 'Not found.' },
  method_not_allowed: { status: 405, message: 'Method not allowed.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request body must be JSON.' },
  rate_limited: { status: 429, message: 'Too many requests; try again later.' },
  internal: { status: 500, message: 'Internal error.' },
  delivery_failed: { status: 502, message: 'The message was saved but could not be delivered.' },
  database_unavailable: {
    status: 503,
    message: 'The shop cannot reach its database for a moment; please try again shortly.',
  },
  // Cart rules (storefront §4–§5, §8).
  original_limit: { status: 409, message: 'Only one original artwork can be in the cart.' },
  original_in_cart: { status: 409, message: 'This original artwork is already in your cart.' },
  original_quantity: {
    status: 409,
    message: 'Only one copy of an original artwork can be ordered.',
  },
  out_of_stock: { status: 409, message: 'Not enough prints of this work are left.' },
  unavailable: { status: 409, message: 'This work is no longer available.' },
  promo_already_applied: { status: 400, message: 'A promo code is already applied.' },
  promo_empty: { status: 400, message: 'Please enter a promo code.' },
  promo_invalid: { status: 400, message: 'Invalid promo code.' },
  // Checkout and payment.
  cart_empty: { status: 400, message: 'The cart is empty.' },
  artwork_held: { status: 409, message: 'This work has just been reserved by another buyer.' },
  publish_unavailable: { status: 503, message: 'Publishing runs only in the production server.' },
  payment_not_configured: { status: 503, message: 'Payment is not configured.' },
  payment_failed: { status: 502, message: 'The payment session could not be created.' },
  invalid_signature: { status: 400, message: 'The webhook signature is missing or invalid.' },
  invalid_event: { status: 400, message: 'The webhook event is not one the shop can read.' },
  // Accounts (docs/accounts-api.md).
  invalid_credentials: { status: 401, message: 'Incorrect email or password.' },
  unauthorized: { status: 401, message: 'Please sign in.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  invalid_token: { status: 400, message: 'This link is invalid, already used or expired.' },
  account_exists: { status: 409, message: 'An account already exists with this email address.' },
  // Second factor and re-authentication (docs/decisions/037).
  invalid_second_factor: {
    status: 401,
    message: 'This code is wrong or has already been used.',
  },
  reauth_required: {
    status: 403,
    message: 'Confirm it is you (password or authenticator code) to do this.',
  },
  // Withdrawal (docs/decisions/020), answered only once order number and email matched.
  withdrawal_period_over: {
    status: 409,
    message: 'The 14-day withdrawal period for this order has ended.',
  },
  withdrawal_closed: {
    status: 409,
    message: 'This order has already been cancelled or refunded.',
  },
  // Back office.
  erase_blocked: {
    status: 409,
    message:
      'Ce client a des commandes en cours : son adresse leur est encore nécessaire. Effacez-le à leur clôture.',
  },
  version_conflict: {
    status: 409,
    message: 'This was changed meanwhile: here are the current values.',
  },
  // The register of editions (docs/decisions/045): a number not in a state the owner can decide on.
  edition_conflict: {
    status: 409,
    message: 'Ce numéro ne peut pas changer ainsi dans son état actuel.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface AppErrorOptions {
  message?: string;
  /** Field name → message key, for `invalid_input`. */
  fields?: Record<string, string>;
  /** Sent as `Retry-After`, for `rate_limited`. */
  retryAfterSeconds?: number;
  /** Values for the translated message's placeholders, e.g. `{ title }` of the work concerned. */
  params?: Record<string, string | number>;
  /** Data the client needs to recover (the current values after a version conflict). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** An expected failure with a code from the closed set; anything else becomes a 500 'internal'. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly params: Record<string, string | number> | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? ERRORS[code].message, { cause: options.cause });
    this.code = code;
    this.status = ERRORS[code].status;
    this.fields = options.fields;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.params = options.params;
    this.details = options.details;
  }
}

export function isAppError(error: unknown, code?: ErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
} as const;

/**
 * Whether PostgreSQL refused the data itself (SQLSTATE class 22, "data exception": 22P05 and
 * 22021 a character it cannot store, 22003 a number out of its column's range, 22P02 text that is
 * no number…). The schemas keep such input out (src/schemas/text.ts, row ids); one that slips
 * through is still bad input, answered 400 — and logged, being a gap in a schema. PGlite's and
 * node-postgres's errors both carry `code`; a wrapped one is found through its `cause`s.
 */
export function isDataError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
    e = cause;
  }
  return false;
}

/** Seconds a client is asked to wait (Retry-After) while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const CONNECTION_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|ECONNREFUSED|ECONNRESET|EPIPE/i;

/**
 * Whether a query failed because the database could not be reached, not because of the query:
 * SQLSTATE class 08 (connection exception), 57P01–57P03 (the server shut down or is starting),
 * or the driver's own words for a connection that broke or never opened. Such a request is
 * answered 503 with Retry-After (issue 24): the next one succeeds once the database is back.
 */
export function isConnectionError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, cause, message } = e as { code?: unknown; cause?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      /^(08[0-9A-Z]{3}|57P0[123]|ECONNREFUSED|ECONNRESET|EPIPE)$/.test(code)
    )
      return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
    e = cause;
  }
  return false;
}

/** The JSON error response for any thrown value: `{ error: { code, message, fields? } }`. */
export function errorResponse(error: unknown): Response {
  if (!(error instanceof AppError) && isConnectionError(error)) {
    log.warn({ err: error }, 'Database unreachable while answering a request');
    return errorResponse(
      new AppError('database_unavailable', { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS }),
    );
  }
  if (!(error instanceof AppError)) {
    log.error({ err: error }, 'Unexpected error while answering a request');
    return errorResponse(new AppError(isDataError(error) ? 'invalid_input' : 'internal'));
  }
  const headers = new Headers(JSON_HEADERS);
  if (error.retryAfterSeconds !== undefined)
    headers.set('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  const body = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.fields && Object.keys(error.fields).length > 0 ? { fields: error.fields } : {}),
      ...(error.params ? { params: error.params } : {}),
      ...(error.details ? { details: error.details } : {}),
    },
  };
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Unsafe requests must come from our own pages. Astro's `security.checkOrigin` only covers form
 * content types (STACK-NOTES), so the middleware calls this for every request: the `Origin`
 * header must be the public site's (PUBLIC_SITE_URL; a site on localhost is also itself on
 * 127.0.0.1 and [::1]) — never the request's own URL, which a client makes up with its `Host`
 * header. Without an `Origin`, `Sec-Fetch-Site: same-origin` is accepted. Clients sending neither
 * are refused.
 */
export function checkSameOrigin(request: Request, siteUrl: string): void {
  if (
    !isSameOrigin(
      request.method,
      request.headers.get('origin'),
      request.headers.get('sec-fetch-site'),
      siteUrl,
    )
  )
    throw new AppError('forbidden_origin');
}

/** checkSameOrigin's rule on bare header values (the HTTP layer has no Request yet). */
export function isSameOrigin(
  method: string,
  origin: string | null | undefined,
  secFetchSite: string | null | undefined,
  siteUrl: string,
): boolean {
  if (SAFE_METHODS.has(method)) return true;
  if (origin !== null && origin !== undefined) return siteOrigins(siteUrl).has(origin);
  return secFetchSite === 'same-origin';
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
let knownOrigins: { siteUrl: string; origins: ReadonlySet<string> } | undefined;

/** The origins of the site at `siteUrl` (computed once: it never changes in a process). */
function siteOrigins(siteUrl: string): ReadonlySet<string> {
  if (knownOrigins?.siteUrl === siteUrl) return knownOrigins.origins;
  const origins = new Set<string>();
  if (URL.canParse(siteUrl)) {
    const url = new URL(siteUrl);
    origins.add(url.origin);
    if (LOOPBACK_HOSTS.includes(url.hostname))
      for (const host of LOOPBACK_HOSTS) {
        url.hostname = host;
        origins.add(url.origin);
      }
  }
  knownOrigins = { siteUrl, origins };
  return origins;
}

function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The raw body, refusing more than `maxBytes` (declared or streamed). */
export async function readBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw new AppError('payload_too_large');
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new AppError('payload_too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as text, refusing more than `maxBytes` (declared or streamed) and invalid UTF-8. */
export async function readText(request: Request, maxBytes: number): Promise<string> {
  const bytes = await readBytes(request, maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('invalid_json', { message: 'The request body is not valid UTF-8.' });
  }
}

/** The parsed JSON body: 415 unless the content type is JSON, 413 above `maxBytes`, 400 if malformed. */
export async function readJson(request: Request, maxBytes = 16_384): Promise<unknown> {
  const type = mediaType(request);
  if (type !== 'application/json' && !/^application\/[\w.-]+\+json$/.test(type))
    throw new AppError('unsupported_media_type');
  const text = await readText(request, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('invalid_json');
  }
}

/** Whether the body is an HTML form post (the no-JavaScript path of progressively enhanced forms). */
export function isFormPost(request: Request): boolean {
  return mediaType(request) === 'application/x-www-form-urlencoded';
}

/** An urlencoded form body as a plain object (last value wins), with the same size limit. */
export async function readForm(
  request: Request,
  maxBytes = 16_384,
): Promise<Record<string, string>> {
  if (!isFormPost(request))
    throw new AppError('unsupported_media_type', {
      message: 'The request body must be an urlencoded form.',
    });
  return Object.fromEntries(new URLSearchParams(await readText(request, maxBytes)));
}
