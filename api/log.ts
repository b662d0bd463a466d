// The server's one logger (docs/decisions/022): pino, one JSON line per record on stdout (a
// readable line at a terminal), the id of the request being answered on every line written while
// answering it, and nothing secret — no cookie, token, password, card number, mail body or SQL
// parameter, whatever a call site hands it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';

/** Where log lines go: stdout by default; tests capture them (tests/setup). */
export interface LogSink {
  write(line: string): void;
}

interface RequestContext {
  reqId: string;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type Level = (typeof LEVELS)[number];

/** `LOG_LEVEL` (default info); an unknown value falls back to info and says so once. */
export function levelFrom(value: string | undefined): { level: Level; unknown?: string } {
  const wanted = value?.trim().toLowerCase();
  if (!wanted) return { level: 'info' };
  return (LEVELS as readonly string[]).includes(wanted)
    ? { level: wanted as Level }
    : { level: 'info', unknown: wanted };
}

/** `LOG_FORMAT=json|pretty`; by default readable at a terminal, JSON lines anywhere else. */
export function prettyWanted(value: string | undefined, isTTY: boolean): boolean {
  const wanted = value?.trim().toLowerCase();
  if (wanted === 'json') return false;
  if (wanted === 'pretty') return true;
  return isTTY;
}

// ---------------------------------------------------------------------------------------------
// Redaction. Three layers: errors are copied field by field from a short list (a PGlite error
// carries its `query` and `params`, a pg one its `detail` with the row's values); keys that name a
// secret are censored in the first three levels of a logged object; and the finished line is
// scrubbed of anything that looks like a secret in free text (messages, stacks).

const CENSOR = '[redacted]';

const SECRET_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'cookie',
  'cookies',
  'authorization',
  'set-cookie',
  'secret',
  'params',
  'parameters',
  'body',
  'html',
  'text',
  'card',
  'cardNumber',
];
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const path = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const nested = path.startsWith('[') ? path : `.${path}`;
  return [path, `*${nested}`, `*.*${nested}`];
});

/** The fields of an error worth logging: what failed, where, and never the data it failed on. */
const ERROR_FIELDS = [
  'code',
  'status',
  'statusCode',
  'errno',
  'syscall',
  'address',
  'port',
  'severity',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
  'responseCode',
] as const;

/** A PostgreSQL error (pg or PGlite): a five-character SQLSTATE and a severity. */
function sqlState(error: Record<string, unknown>): string | undefined {
  const { code, severity } = error;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string'
    ? code
    : undefined;
}

/**
 * A data exception's message quotes the value refused (`invalid input syntax for type integer:
 * "…"`, `value "…" is out of range for type integer`, `…: 0x00`): the value goes, the rest stays.
 */
function withoutValues(message: string): string {
  return message
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\b0x[0-9a-f]{2}(?: 0x[0-9a-f]{2})*/gi, '0x…');
}

/** pino's `err` serializer: a whitelist, so what an error carries beyond it never reaches a line. */
export function serializeError(value: unknown, depth = 0): Record<string, unknown> {
  if (typeof value !== 'object' || value === null)
    return { type: typeof value, message: String(value) };
  const error = value as Record<string, unknown> & Partial<Error>;
  const out: Record<string, unknown> = {
    type: typeof error.name === 'string' ? error.name : (error.constructor?.name ?? 'Object'),
  };
  let message = typeof error.message === 'string' ? error.message : '';
  let stack = typeof error.stack === 'string' ? error.stack : undefined;
  const state = sqlState(error);
  if (state?.startsWith('22')) {
    const cleaned = withoutValues(message);
    if (stack && message) stack = stack.split(message).join(cleaned);
    message = cleaned;
  }
  out['message'] = message;
  for (const field of ERROR_FIELDS) {
    const v = error[field];
    if (typeof v === 'string' || typeof v === 'number') out[field] = v;
  }
  if (stack) out['stack'] = stack;
  if (depth < 4) {
    if (error.cause !== undefined) out['cause'] = serializeError(error.cause, depth + 1);
    if (Array.isArray(error['errors']))
      out['errors'] = (error['errors'] as unknown[])
        .slice(0, 10)
        .map((inner) => serializeError(inner, depth + 1));
  }
  return out;
}

/** Luhn's checksum: a run of digits that passes it is taken for a card number. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

const SCRUBS: [RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
  // Our cookies by name (api/accounts/sessions.ts, api/cart, the signup cookie), in a header or a
  // message; their `__Host-` names over HTTPS end the same way (docs/decisions/038).
  [/\b(session|cart-session-id|signup)=(?!\[redacted\])[^;\s"\\&,]+/gi, `$1=${CENSOR}`],
  [/\bBearer\s+(?!\[redacted\])[\w.~+/=-]+/gi, `Bearer ${CENSOR}`],
  // `password=…`, `token: …`, `"secret":"…"` (also JSON-escaped inside a message).
  [
    /\b((?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|authorization|cookie)\\?["']?\s*[:=]\s*\\?["']?)(?!\[redacted\])[^\s"'\\&,;}]+/gi,
    `$1${CENSOR}`,
  ],
  [/\b(sk|rk)_(test|live)_[0-9A-Za-z]+/g, `$1_$2_${CENSOR}`],
  [/\bwhsec_[0-9A-Za-z+/=_-]+/g, `whsec_${CENSOR}`],
  // Credentials in a URL (postgres://user:password@host, smtp://…).
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"]+:)[^\s@/"]+@/gi, '$1***@'],
  // Card numbers: 14 to 19 digits, spaced or not, that pass Luhn's check — standing alone, not
  // inside an id (a request id's UUID can hold four groups of digits in a row).
  [
    /(?<![\w.-])\d(?:[ -]?\d){13,18}(?![\w.-])/g,
    (match) => (luhn(match.replace(/[ -]/g, '')) ? '[card]' : match),
  ],
];

/** The last layer, over the finished line: free text that looks like a secret is censored. */
export function scrubSecrets(line: string): string {
  let out = line;
  for (const [pattern, replacement] of SCRUBS)
    out = out.replace(pattern, replacement as (match: string, ...groups: string[]) => string);
  return out;
}

// ---------------------------------------------------------------------------------------------
// A readable line for a person at a terminal (npm start): time, level, message, fields, stack.

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function describeError(err: Record<string, unknown>): string {
  const head =
    typeof err['stack'] === 'string'
      ? err['stack']
      : `${String(err['type'])}: ${String(err['message'])}`;
  const code =
    typeof err['code'] === 'string' || typeof err['code'] === 'number' ? ` [${err['code']}]` : '';
  const cause =
    err['cause'] && typeof err['cause'] === 'object'
      ? `\nCaused by: ${describeError(err['cause'] as Record<string, unknown>)}`
      : '';
  const [first, ...rest] = head.split('\n');
  return [`${first ?? ''}${code}`, ...rest].join('\n') + cause;
}

export function prettyLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, reqId, err, part, pid: _pid, hostname: _host, ...fields } = record;
  const clock = typeof time === 'string' ? time.slice(11, 19) : '';
  const where = typeof part === 'string' ? `${part} │ ` : '';
  const extra = Object.entries(fields)
    .map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('');
  const request = typeof reqId === 'string' ? ` (request ${reqId.slice(0, 8)})` : '';
  const stack =
    err && typeof err === 'object'
      ? `\n${indent(describeError(err as Record<string, unknown>))}`
      : '';
  const text = typeof msg === 'string' ? msg : '';
  return `${clock} ${String(level).toUpperCase().padEnd(5)} ${where}${text}${extra}${request}${stack}\n`;
}

// ---------------------------------------------------------------------------------------------
// One logger and one request context per process: Astro's bundled handler imports its own copy of
// this module, and must log with the server's request id (as api/settings shares its cache).

interface LogState {
  logger: Logger;
  context: AsyncLocalStorage<RequestContext>;
  sink: LogSink;
  defaultSink: LogSink;
}

const KEY = Symbol.for('galerie.log');
const ignore = () => {};
const holder = globalThis as { [KEY]?: LogState };

function createState(): LogState {
  const pretty = prettyWanted(process.env['LOG_FORMAT'], process.stdout.isTTY === true);
  // process.stdout is synchronous for files and pipes on Linux: the last line before exit is written.
  const defaultSink: LogSink = {
    // As console.log does: a closed stdout (EPIPE) loses the line, never the process.
    write: (line) => {
      const out = process.stdout;
      out.once('error', ignore);
      try {
        out.write(pretty ? prettyLine(line) : line, ignore);
      } catch {
        // the line is lost
      } finally {
        out.removeListener('error', ignore);
      }
    },
  };
  const context = new AsyncLocalStorage<RequestContext>();
  const { level, unknown } = levelFrom(process.env['LOG_LEVEL']);
  const state: LogState = { context, sink: defaultSink, defaultSink } as LogState;
  state.logger = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const store = context.getStore();
        return store ? { reqId: store.reqId } : {};
      },
      serializers: { err: serializeError, error: serializeError, cause: serializeError },
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      hooks: { streamWrite: scrubSecrets },
    },
    { write: (line: string) => state.sink.write(line) },
  );
  if (unknown)
    state.logger.warn(`LOG_LEVEL=${unknown} is not a level (${LEVELS.join(', ')}); using info`);
  return state;
}

const state = (holder[KEY] ??= createState());

/** The process's logger: `log.info('…')`, `log.error({ err }, '…')`, `log.child({ part })`. */
export const log: Logger = state.logger;

/** Sends lines elsewhere (tests); `undefined` restores stdout. Returns the sink it replaced. */
export function setLogSink(sink: LogSink | undefined): LogSink {
  const previous = state.sink;
  state.sink = sink ?? state.defaultSink;
  return previous;
}

/** A new request id (also answered as `X-Request-Id`, so a person can quote it). */
export function newRequestId(): string {
  return randomUUID();
}

/** Runs `fn` as the answer to request `reqId`: every line logged inside carries `reqId`. */
export function runInRequest<T>(reqId: string, fn: () => T): T {
  return state.context.run({ reqId }, fn);
}

/** The id of the request being answered, if any. */
export function currentRequestId(): string | undefined {
  return state.context.getStore()?.reqId;
}
