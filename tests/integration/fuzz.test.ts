// Issue 14: every endpoint under src/pages/api, found on disk rather than listed by hand, answers
// random and hostile requests — any JSON or none, broken JSON, a body over the limit, NUL bytes,
// lone surrogates, ids beyond their column, odd content types, headers, query strings and route
// params, and each endpoint's own valid body changed in one place — as an anonymous visitor, a
// signed-in customer with a cart, forged cookies and the gallery owner, through the real
// middleware, a real database and the payment emulator. For every answer: never a 5xx nor a thrown error; a refusal is a
// 4xx in the one JSON shape `{error:{code,message}}` with no stack trace or SQL in it; no log line
// carries SQL, a cookie or a session token; and a refused request writes nothing (the database
// fingerprint below is the same before and after).
//
// FUZZ_RUNS (default 60) is the number of requests per endpoint and method; FUZZ_SEED replays a
// run (fast-check prints the seed and the shrunk request of a failure); FUZZ_DEBUG=1 prints how
// often each endpoint answered each status and code, to see how far the requests get.
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { APIRoute } from 'astro';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterAnswerSettled } from '#api/background.ts';
import { Publisher } from '#api/build/publisher.ts';
import { providePublisher } from '#api/build/publish.ts';
import { addToCart, CART_COOKIE, newCartId } from '#api/cart/index.ts';
import { provideDatabase } from '#api/db/context.ts';
import { createStripeEmulator, type StripeEmulator } from '#api/emulator/index.ts';
import { log, setLogSink, type LogSink } from '#api/log.ts';
import { provideMailer, type Mailer } from '#api/mail/index.ts';
import { createEmulatedPayments, providePayments, type Payments } from '#api/payments/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';

const ORIGIN = 'http://localhost:4321';
const API_DIR = path.resolve(import.meta.dirname, '../../src/pages/api');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 60);
const SEED = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : undefined;

/**
 * Tables left out of the fingerprint, each because writing to it on a refusal is the point:
 * throttles and rate limits count refused attempts (a wrong password, a 429), and the visit
 * tables are written by the page views a request stands for, not by a refusal. Everything else —
 * users, sessions, carts, holds, orders, artworks, settings, the audit log… — must not move.
 */
const UNFINGERPRINTED = new Set([
  'login_throttle',
  'rate_limits',
  'visit_counts',
  'visitor_days',
  'visitor_hashes',
  'work_views',
]);

interface Route {
  /** `/api/cart/lines/[id]` */
  pattern: string;
  params: string[];
  handlers: Partial<Record<(typeof METHODS)[number], APIRoute>>;
}

async function discoverRoutes(): Promise<Route[]> {
  const files: string[] = [];
  for await (const file of fs.glob('**/*.ts', { cwd: API_DIR })) {
    if (path.basename(file).startsWith('_') || file.endsWith('.test.ts')) continue;
    files.push(file);
  }
  const routes: Route[] = [];
  for (const file of files.sort()) {
    const module = (await import(path.join(API_DIR, file))) as Record<string, unknown>;
    const pattern = `/api/${file.replace(/\.ts$/, '').replace(/(^|\/)index$/, '')}`.replace(
      /\/$/,
      '',
    );
    const handlers: Route['handlers'] = {};
    for (const method of METHODS) {
      if (typeof module[method] === 'function') handlers[method] = module[method] as APIRoute;
    }
    routes.push({
      pattern,
      params: [...pattern.matchAll(/\[(\w+)\]/g)].map((m) => m[1]!),
      handlers,
    });
  }
  return routes;
}

// Discovered before the suite is declared, so each endpoint and method is its own test.
const ROUTES = await discoverRoutes();

let t: TestDatabase;
let dataDir: string;
let previousSink: LogSink;
let previousLevel: string;
let publisher: Publisher;
let server: http.Server;
let emulator: StripeEmulator;
let payments: Payments;
const lines: string[] = [];
const called = new Map<string, number>();
const statuses = new Map<string, number>();
const principals: Record<'anonymous' | 'customer' | 'admin', Record<string, string>> = {
  anonymous: {},
  customer: {},
  admin: {},
};
let knownIds: string[] = [];

const mailer: Mailer = { description: 'memory', send: () => Promise.resolve() };

/**
 * A row as text, without the columns that record that a request was made rather than what it
 * changed: an administrator's session notes when it was last seen at most once a minute
 * (api/accounts/sessions.ts), so a run that crosses a minute would otherwise "write" on a refusal
 * — a failure that depends on the machine's speed.
 */
const ROW = sql.raw(`(to_jsonb(x) - 'last_seen_at')::text`);

interface Fingerprint {
  /** Each fingerprinted table's rows, hashed. */
  sums: Record<string, string>;
  /** The WAL insert position once they were read. */
  wal: string;
}

/** Where the database's write-ahead log ends: every change to a table's rows moves it. */
async function walPosition(): Promise<string> {
  const result = await sql<{
    wal: string;
  }>`select pg_current_wal_insert_lsn()::text as wal`.execute(t.db);
  return result.rows[0]!.wal;
}

/** One text per table: every row of it, in order. Equal texts, nothing written. */
async function tableSums(): Promise<Record<string, string>> {
  // From the catalogue itself: the same tables as information_schema.tables' base tables of
  // `public`, whose view cost as much as the fingerprint (2.7 against 0.5 ms on PGlite, twice
  // per request).
  const tables = await sql<{ name: string }>`
    select relname as name from pg_catalog.pg_class
    where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')
      and relname not like 'kysely_%'
    order by relname`.execute(t.db);
  const wanted = tables.rows.map((r) => r.name).filter((name) => !UNFINGERPRINTED.has(name));
  const union = sql.join(
    wanted.map(
      (name) =>
        sql`select ${name}::text as name, md5(coalesce(string_agg(${ROW}, '|' order by ${ROW}), '')) as sum from ${sql.table(name)} x`,
    ),
    sql` union all `,
  );
  const result = await sql<{ name: string; sum: string }>`${union}`.execute(t.db);
  return Object.fromEntries(result.rows.map((r) => [r.name, r.sum]));
}

async function fingerprint(): Promise<Fingerprint> {
  // The sums first: reading a table may itself write to the log (pruning, hint bits).
  const sums = await tableSums();
  return { sums, wal: await walPosition() };
}

/**
 * The tables' sums now, when something may have written since `before`: a change to a row of
 * any table writes to the log first (the schema has no unlogged or temporary table), so a log
 * that has not moved means no table did, and the sums — 4 ms a request on PGlite, most of this
 * file's time — are read again only when it moved (a refusal rolled back, a rate limit counted,
 * a page pruned, or, on PostgreSQL, another database of the cluster written).
 */
async function sumsSince(before: Fingerprint): Promise<Record<string, string>> {
  return (await walPosition()) === before.wal ? before.sums : tableSums();
}

/**
 * The fingerprint once the work an endpoint does after answering (the reset link a forgotten
 * password asks for is written after the answer, so that its timing says nothing) is over.
 */
async function settledFingerprint(): Promise<Fingerprint> {
  await afterAnswerSettled();
  return fingerprint();
}

// ── What a request is made of ────────────────────────────────────────────────────────────────

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'N\u0000L',
    '\ud800',
    'a\udfffb',
    '\u007f\u0085',
    "'; drop table users; --",
    '%00',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    'é'.repeat(300),
    'x'.repeat(5000),
    'person-1@example.test',
    'FR',
    'fr',
    'en',
    'BIENVENUE',
    'confirm',
    'check',
  ),
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    0,
    -1,
    1,
    2,
    2147483647,
    2147483648,
    -2147483649,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    0.5,
  ),
);

const FIELD_NAMES = [
  'email',
  'password',
  'currentPassword',
  'newPassword',
  'fullName',
  'name',
  'message',
  'subject',
  'artworkId',
  'quantity',
  'code',
  'token',
  'locale',
  'items',
  'customer',
  'shippingAddress',
  'billingAddress',
  'billingSameAsShipping',
  'acceptTerms',
  'status',
  'orderNumber',
  'step',
  'id',
  'ids',
  'order',
  'direction',
  'titleFr',
  'titleEn',
  'price',
  'stock',
  'artworkType',
  'published',
  'version',
  'promoCodes',
  'shipping',
  'reason',
  'website',
  'userId',
  'type',
  'data',
];

const leaf = fc.oneof(hostileText, hostileNumber, fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELD_NAMES), tie('value'), { maxKeys: 6 }),
  ),
})).value;

/** A body: JSON built from the schemas' own field names, any JSON, broken JSON, or too much. */
const body = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 8 })
      .map((v) => JSON.stringify(v)),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{',
      '{"a":',
      'null',
      '[]',
      '""',
      'undefined',
      '\u0000',
      '{"a":1}{"b":2}',
    ),
  },
  { weight: 1, arbitrary: fc.constant(JSON.stringify({ message: 'x'.repeat(70_000) })) },
  { weight: 1, arbitrary: fc.constant(null) },
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  null,
);

const QUERY_KEYS = [
  'id',
  'email',
  'page',
  'q',
  'from',
  'to',
  'token',
  'locale',
  'status',
  'sort',
  'ids',
  'orderNumber',
  'period',
  'format',
  'session_id',
];
const query = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 })),
    fc.oneof(hostileText, hostileNumber.map(String)),
  ),
  { maxLength: 4 },
);

// A route param comes decoded from a URL path: well-formed text (a lone surrogate cannot be in one).
const param = () =>
  fc
    .oneof(
      fc.constantFrom(...knownIds),
      hostileText,
      hostileNumber.map(String),
      fc.constantFrom('99999999999', '-1', '0', '1e3', '0x10', ' 1', '1 ', '%00'),
    )
    .map((text) => text.toWellFormed());

/** Ids and addresses the examples below refer to, made in beforeAll. */
const fixture = {
  original: 0,
  /** The original's work page key (/oeuvres/<key>), for an enquiry. */
  originalKey: '',
  print: 0,
  orderNumber: '',
  customerEmail: '',
  adminEmail: '',
  victimEmail: '',
};

/**
 * A valid body for each endpoint that takes one: mutated one place at a time (below), a request
 * gets past the JSON and shape checks to the rules, the database and the payment provider, where
 * purely random bodies almost never reach.
 */
const EXAMPLES: Record<string, () => unknown> = {
  'POST /api/auth/signup': () => ({
    email: `fuzz-${randomBytes(4).toString('hex')}@example.test`,
    password: 'Correct-horse-9',
    confirmPassword: 'Correct-horse-9',
    fullName: 'Ana Fuzz',
    locale: 'fr',
  }),
  'POST /api/auth/login': () => ({ email: fixture.customerEmail, password: 'not-the-password' }),
  'POST /api/auth/password/forgot': () => ({ email: fixture.customerEmail, locale: 'en' }),
  'POST /api/auth/password/reset': () => ({
    token: 'a'.repeat(43),
    password: 'Correct-horse-9',
    confirmPassword: 'Correct-horse-9',
  }),
  'POST /api/account/password': () => ({
    currentPassword: 'not-the-password',
    password: 'Correct-horse-9',
    confirmPassword: 'Correct-horse-9',
  }),
  'POST /api/account/verify-email': () => ({ locale: 'fr' }),
  'POST /api/admin/invitations/accept': () => ({
    token: 'b'.repeat(43),
    fullName: 'Nouvelle Admin',
    password: 'Correct-horse-9',
    confirmPassword: 'Correct-horse-9',
  }),
  'POST /api/admin/session': () => ({ email: fixture.adminEmail, password: 'not-the-password' }),
  'POST /api/cart': () => ({ artworkId: fixture.print, quantity: 1 }),
  'PATCH /api/cart/lines/[id]': () => ({ quantity: 2 }),
  'POST /api/cart/promo': () => ({ code: 'BIENVENUE' }),
  'POST /api/checkout': () => ({
    locale: 'fr',
    items: [{ artworkId: fixture.print, quantity: 1 }],
    customer: { name: 'Ana Buyer', email: 'ana@example.test', phone: '+33 6 00 00 00 00' },
    shippingAddress: {
      street: '1 rue de la Paix',
      city: 'Paris',
      postalCode: '75002',
      country: 'FR',
      additionalInfo: 'Code 1234',
    },
    billingSameAsShipping: true,
    acceptTerms: true,
  }),
  'POST /api/contact': () => ({
    name: 'Ana Visiteuse',
    email: 'ana@example.test',
    subject: 'information',
    message: 'Bonjour,\nLa toile est-elle encore visible à l’atelier ?',
    locale: 'fr',
  }),
  'POST /api/enquiry': () => ({
    name: 'Ana Visiteuse',
    email: 'ana@example.test',
    message: 'Bonjour,\nPeut-on voir la toile à l’atelier ?',
    work: fixture.originalKey,
    locale: 'fr',
  }),
  'POST /api/withdrawal': () => ({
    orderNumber: fixture.orderNumber,
    email: fixture.customerEmail,
    step: 'check',
    locale: 'fr',
  }),
  'POST /api/admin/artworks': () => ({
    type: 'print',
    title: { fr: 'Titre', en: 'Title' },
    description: { fr: 'Une ligne.\nUne autre.', en: 'One line.' },
    technique: { fr: 'Giclée', en: 'Giclée' },
    category: 'painting',
    collection: '',
    year: 2024,
    dimensions: '30 × 40 cm',
    priceCents: 12_000,
    stock: 5,
    editionSize: 30,
    isAvailable: true,
    isSold: false,
    originalId: fixture.original,
    imageSha256: 'c'.repeat(64),
  }),
  // Signed with the shop's webhook secret (send() signs what it sends): past the signature, the
  // event's own shape is what is tested.
  'POST /api/stripe/webhook': () => ({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_test_${randomBytes(8).toString('hex')}`,
        object: 'checkout.session',
        payment_status: 'paid',
        payment_intent: 'pi_test_1',
        amount_total: 12_000,
        currency: 'eur',
        metadata: { order_id: '00000000-0000-4000-8000-000000000000', order_number: 'GAL-1' },
      },
    },
  }),
  'PATCH /api/admin/artworks/[id]': () => ({ version: 1, title: { fr: 'Titre', en: 'Title' } }),
  'POST /api/admin/artworks/[id]/move': () => ({ direction: 'up' }),
  'POST /api/admin/artworks/order': () => ({ ids: [fixture.print, fixture.original] }),
  'POST /api/admin/artworks/bulk': () => ({ action: 'hide', ids: [fixture.print] }),
  'POST /api/admin/artworks/[id]/highlight': () => ({ highlight: 'featured' }),
  'POST /api/admin/customers/erase': () => ({
    email: fixture.victimEmail,
    confirmation: fixture.victimEmail,
  }),
  'PATCH /api/admin/messages/[id]': () => ({ read: true }),
  'PATCH /api/admin/orders/[id]': () => ({ status: 'confirmed' }),
  'PATCH /api/admin/settings': () => ({
    site_title: 'Atelier',
    shipping_info: { default_cost_cents: 1500, free_threshold_cents: 30_000 },
    promo_codes: [{ code: 'ETE', discount: 10, active: true }],
  }),
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every place in a JSON value, the root included. */
function places(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const inner =
    value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) =>
          places(v, [...at, Array.isArray(value) ? Number(k) : k]),
        )
      : [];
  return [at, ...inner];
}

type Change =
  | { kind: 'replace'; value: unknown }
  | { kind: 'append'; text: string }
  | { kind: 'delete' }
  | { kind: 'add'; key: string; value: unknown };

/** `example` with one change at one place: what a form, a script or an attacker might send. */
function mutate(example: Json, pick: number, change: Change): unknown {
  const copy = structuredClone(example);
  // A character is appended to one of the texts; other changes go anywhere.
  const everywhere = places(copy);
  const texts = everywhere.filter(
    (at) => typeof at.reduce<unknown>((node, key) => (node as never)[key], copy) === 'string',
  );
  const all = change.kind === 'append' && texts.length > 0 ? texts : everywhere;
  const at = all[pick % all.length]!;
  if (at.length === 0) {
    if (change.kind === 'replace') return change.value;
    if (change.kind === 'add' && copy && typeof copy === 'object' && !Array.isArray(copy))
      return { ...copy, [change.key]: change.value };
    return copy;
  }
  const parent = at.slice(0, -1).reduce<Json>((node, key) => (node as never)[key], copy) as Record<
    string | number,
    unknown
  >;
  const last = at.at(-1)!;
  const current = parent[last];
  if (change.kind === 'replace') parent[last] = change.value;
  else if (change.kind === 'append')
    parent[last] = typeof current === 'string' ? `${current}${change.text}` : change.text;
  else if (change.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (current && typeof current === 'object' && !Array.isArray(current))
    (current as Record<string, unknown>)[change.key] = change.value;
  else parent[last] = { [change.key]: change.value };
  return copy;
}

const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replace' as const), value }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      text: fc.constantFrom(
        '\u0000',
        '\u0000',
        '\u0007',
        '\u007f',
        '\u0085',
        '\ud800',
        '\n',
        'x'.repeat(6000),
        'é',
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      key: fc.constantFrom(...FIELD_NAMES, '__proto__', 'constructor'),
      value,
    }),
  },
);

/** The endpoint's example mutated, or sent as it is (a valid request must work too). */
function mutatedExample(key: string): fc.Arbitrary<string | null> | null {
  const example = EXAMPLES[key];
  if (!example) return null;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null).map(() => JSON.stringify(example())) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.nat(), change)
        .map(([pick, c]) => JSON.stringify(mutate(example() as Json, pick, c))),
    },
  );
}

/** What a header or a cookie can carry: visible ASCII and spaces (a client can send nothing else). */
const headerText = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 60,
  }),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1.1.1.1, 2.2.2.2',
    'x'.repeat(4000),
    't=1,v1=abc',
    'fr-FR,en;q=0.5',
  ),
);
const cookieText = fc.oneof(
  headerText,
  fc.constantFrom('sess' + '0'.repeat(60), '00000000-0000-0000-0000-000000000000', "' or 1=1 --"),
);
const HEADER_NAMES = [
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  'accept-language',
  'stripe-signature',
  'sec-fetch-site',
  'x-request-id',
  'accept',
  'if-none-match',
  'range',
];

interface Sample {
  /** `forged`: made-up session and cart cookies. */
  principal: keyof typeof principals | 'forged';
  forged: Record<string, string>;
  headers: [string, string][];
  /** A webhook call signed with the shop's secret. */
  signed: boolean;
  params: Record<string, string>;
  query: [string, string][];
  body: string | null;
  contentType: string | null;
  origin: 'same' | 'other' | 'none';
}

function sample(route: Route, method: string): fc.Arbitrary<Sample> {
  const unsafe = method !== 'GET';
  const examples = mutatedExample(`${method} ${route.pattern}`);
  return fc.record({
    // The back office's own endpoints mostly as its owner, so that they get past the guard.
    principal: route.pattern.startsWith('/api/admin/')
      ? fc.constantFrom('admin', 'admin', 'admin', 'customer', 'anonymous', 'forged')
      : fc.constantFrom('anonymous', 'customer', 'admin', 'forged'),
    forged: fc.record({ session: cookieText, [CART_COOKIE]: cookieText }),
    signed: fc.boolean(),
    headers: fc.array(fc.tuple(fc.constantFrom(...HEADER_NAMES), headerText), { maxLength: 3 }),
    params: fc.record(Object.fromEntries(route.params.map((name) => [name, param()]))),
    query,
    body: !unsafe
      ? fc.constant(null)
      : examples
        ? fc.oneof({ weight: 3, arbitrary: examples }, { weight: 1, arbitrary: body })
        : body,
    contentType: !unsafe
      ? fc.constant(null)
      : examples
        ? fc.oneof(
            { weight: 3, arbitrary: fc.constant('application/json') },
            { weight: 1, arbitrary: contentType },
          )
        : contentType,
    // Mostly our own pages' origin, so that requests get past the CSRF check to the endpoint.
    origin: fc.constantFrom('same', 'same', 'same', 'same', 'other', 'none'),
  });
}

/** SQL text: what neither an answer nor a log line may show (the logger drops queries). */
const SQL =
  /\bselect\b[^"]*\bfrom\b|\binsert into\b|\bupdate \w+ set\b|\bdelete from\b|\bsyntax error\b|\bviolates\b/i;
/** A stack frame: fine in a log line, never in an answer. */
const STACK = /\n\s+at |\bat [\w.<>]+ \(.*:\d+:\d+\)/;

async function send(route: Route, method: string, input: Sample) {
  const url = new URL(
    route.pattern.replace(/\[(\w+)\]/g, (_, name: string) =>
      encodeURIComponent(input.params[name] ?? ''),
    ),
    ORIGIN,
  );
  for (const [key, val] of input.query) url.searchParams.append(key, val);
  const headers = new Headers(input.headers);
  if (input.origin === 'same') headers.set('origin', ORIGIN);
  if (input.origin === 'other') headers.set('origin', 'https://evil.example');
  if (input.contentType) headers.set('content-type', input.contentType);
  const jar = new Map(
    Object.entries(input.principal === 'forged' ? input.forged : principals[input.principal]),
  );
  if (route.pattern === '/api/stripe/webhook' && input.signed && input.body !== null)
    headers.set(
      'stripe-signature',
      payments.stripe.webhooks.generateTestHeaderString({
        payload: input.body,
        secret: payments.webhookSecret,
      }),
    );
  return callEndpoint(route.handlers[method as (typeof METHODS)[number]]!, {
    request: new Request(url, { method, headers, body: input.body }),
    params: input.params,
    clientAddress: `198.51.100.${1 + (called.size % 200)}`,
    cookies: {
      get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined),
      has: (name: string) => jar.has(name),
      set: (name: string, v: unknown) => void jar.set(name, String(v)),
      delete: (name: string) => void jar.delete(name),
    } as never,
  });
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-fuzz-'));
  process.env['DATA_DIR'] = dataDir;
  t = await createTestDatabase();
  provideDatabase(t);
  provideMailer(mailer);
  // The payment emulator on a port of its own: checkouts that pass every check get a session.
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  server = http.createServer((req, res) => {
    if (!emulator.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  emulator = createStripeEmulator({
    // Nobody pays here: no event is ever sent.
    webhookUrl: `http://127.0.0.1:${port}/nowhere`,
    webhookSecret,
    publicBaseUrl: ORIGIN,
  });
  payments = createEmulatedPayments(port, webhookSecret, emulator.secretKey);
  providePayments(payments);
  publisher = new Publisher({ publish: () => Promise.resolve('fuzz'), debounceMs: 60_000 });
  providePublisher(publisher);

  const admin = await makeUser(t.db, { role: 'admin' });
  const customer = await makeUser(t.db);
  const original = await makeArtwork(t.db, { artwork_type: 'original' });
  const print = await makeArtwork(t.db, { artwork_type: 'print', stock: 50 });
  const order = await makeOrder(t.db, {
    email: customer.email,
    lines: [{ artworkId: print.id, type: 'print', unitPriceCents: 12_000 }],
  });
  const cart = newCartId();
  await addToCart(t.db, cart, print.id, 1);
  principals.customer = { session: customer.token, [CART_COOKIE]: cart };
  principals.admin = { session: admin.token };
  const victim = await makeUser(t.db);
  Object.assign(fixture, {
    original: original.id,
    originalKey: original.slug.replace(/-original$/, ''),
    print: print.id,
    orderNumber: order.orderNumber,
    customerEmail: customer.email,
    adminEmail: admin.email,
    victimEmail: victim.email,
  });
  knownIds = [String(original.id), String(print.id), String(order.id), customer.id];

  previousLevel = log.level;
  log.level = 'debug';
  previousSink = setLogSink({
    write: (line) => {
      lines.push(line);
      const { level } = JSON.parse(line) as { level?: string };
      if (level === 'error' || level === 'fatal') previousSink.write(line);
    },
  });
});

afterAll(async () => {
  if (process.env['FUZZ_DEBUG']) console.log([...statuses].sort().join('\n'));
  setLogSink(previousSink);
  log.level = previousLevel;
  providePublisher(undefined);
  await publisher?.close();
  emulator?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.dispose();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('every endpoint under random and hostile requests', { tags: ['pg-driver'] }, () => {
  for (const route of ROUTES) {
    for (const method of Object.keys(route.handlers)) {
      it(`${method} ${route.pattern}`, async () => {
        let before = await fingerprint();
        await fc.assert(
          fc.asyncProperty(sample(route, method), async (input) => {
            const key = `${method} ${route.pattern}`;
            called.set(key, (called.get(key) ?? 0) + 1);
            const logged = lines.length;
            const response = await send(route, method, input);
            const text = await response.text();
            const tally = `${key} ${response.status} ${/"code":"(\w+)"/.exec(text)?.[1] ?? ''}`;
            statuses.set(tally, (statuses.get(tally) ?? 0) + 1);
            const what = `${key} as ${input.principal}: ${response.status} ${text.slice(0, 300)}`;
            expect(response.status, what).toBeLessThan(500);
            if (response.status >= 400) {
              expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
              const answer = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
              expect(typeof answer.error?.code, what).toBe('string');
              expect(typeof answer.error?.message, what).toBe('string');
              expect(String(answer.error?.message).length, what).toBeGreaterThan(0);
              expect(text, what).not.toMatch(SQL);
              expect(text, what).not.toMatch(STACK);
              expect(await sumsSince(before), `${what}: a refusal wrote to the database`).toEqual(
                before.sums,
              );
            } else {
              // Only an unsafe method does work after answering; a read is read once.
              before = method === 'GET' ? await fingerprint() : await settledFingerprint();
            }
            for (const line of lines.slice(logged)) {
              expect(line, `${what}: a log line`).not.toMatch(SQL);
              for (const secret of [
                ...Object.values(principals.customer),
                ...Object.values(principals.admin),
              ])
                expect(line, `${what}: a log line carries a cookie`).not.toContain(secret);
            }
          }),
          { numRuns: RUNS, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) },
        );
      });
    }
  }

  it('reached every endpoint and method found on disk', () => {
    const found = ROUTES.flatMap((route) =>
      Object.keys(route.handlers).map((method) => `${method} ${route.pattern}`),
    ).sort();
    // A broken discovery (wrong folder, no exports read) would pass every property vacuously.
    expect(found.length).toBeGreaterThanOrEqual(50);
    expect(found).toContain('POST /api/checkout');
    expect(found).toContain('PATCH /api/cart/lines/[id]');
    expect(found).toContain('POST /api/stripe/webhook');
    expect([...called.keys()].sort()).toEqual(found);
    for (const [key, n] of called) expect(n, key).toBe(RUNS);
  });
});
