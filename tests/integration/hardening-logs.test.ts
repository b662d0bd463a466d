// Issue 14 §1, "Logs leak": the 500s of a failing query logged the SQL with its parameters, the
// visitor's `cart-session-id` among them. Requests here go through the real HTTP layer
// (api/http/app.ts), the middleware and the real endpoints against a real database: every line
// logged is JSON carrying the request's id (also answered as X-Request-Id), and no line carries
// a cookie, a password, an address given as a query parameter, or any other SQL parameter.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { APIRoute } from 'astro';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '#api/accounts/passwords.ts';
import { CART_COOKIE, newCartId } from '#api/cart/index.ts';
import { loadConfig } from '#api/config.ts';
import { getDb, provideDatabase } from '#api/db/context.ts';
import { createGalerieServer, type GalerieServer } from '#api/http/app.ts';
import { StaticFiles } from '#api/http/static-files.ts';
import { log, setLogSink, type LogSink } from '#api/log.ts';
import { provideMailer, type Mailer } from '#api/mail/index.ts';
import { POST as LOGIN } from '../../src/pages/api/auth/login.ts';
import { GET as CART } from '../../src/pages/api/cart/index.ts';
import { onRequest } from '../../src/middleware.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeUser } from '../helpers/factories.ts';

let t: TestDatabase;
let clientDir: string;
let app: GalerieServer;
let base: string;
let lines: string[];
let previousSink: LogSink;
let previousLevel: string;

const mailer: Mailer = { description: 'memory', send: () => Promise.resolve() };

/** What must never be written: each is unique to this run. */
const secret = {
  cart: newCartId(),
  session: `sess${randomBytes(16).toString('hex')}`,
  email: `leak-${randomBytes(6).toString('hex')}@example.test`,
  password: `pw-${randomBytes(9).toString('hex')}`,
};
const COOKIE = `${CART_COOKIE}=${secret.cart}; session=${secret.session}`;

const ROUTES: Record<string, Partial<Record<string, APIRoute>>> = {
  '/api/cart': { GET: CART },
  '/api/auth/login': { POST: LOGIN },
};

async function bodyOf(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
}

/**
 * The server's handler in place of Astro's: real endpoints through the real middleware, cookies
 * from the request. `/boom` runs a query carrying every secret as a parameter and lets its error
 * escape; `/boom/data` one whose error message quotes the value PostgreSQL refused.
 */
const handler = async (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
  locals?: object,
) => {
  const url = new URL(req.url ?? '/', base);
  if (url.pathname === '/boom') {
    const db = await getDb();
    await sql`insert into nowhere values (${secret.cart}, ${secret.email}, ${secret.password})`.execute(
      db,
    );
    return;
  }
  if (url.pathname === '/boom/data') {
    await sql`select ${secret.password}::int4`.execute(await getDb());
    return;
  }
  const route = ROUTES[url.pathname]?.[req.method ?? 'GET'];
  if (!route) return next?.();
  const jar = new Map(
    (req.headers.cookie ?? '').split(/;\s*/).map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)] as const;
    }),
  );
  const body = await bodyOf(req);
  const request = new Request(url, {
    method: req.method ?? 'GET',
    headers: Object.entries(req.headers).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value] as [string, string]] : [],
    ),
    body,
  });
  const context = {
    request,
    url,
    cookies: {
      get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined),
      has: (name: string) => jar.has(name),
      set: () => {},
      delete: () => {},
    },
    locals: { ...locals },
    clientAddress: '192.0.2.44',
    isPrerendered: false,
    params: {},
    routePattern: url.pathname,
  };
  const response = (await onRequest(context as never, () =>
    Promise.resolve(route(context as never)),
  )) as Response;
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(Buffer.from(await response.arrayBuffer()));
};

function send(method: string, path: string, body?: unknown) {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      cookie: COOKIE,
      // The site's own pages (PUBLIC_SITE_URL), as the middleware's origin check wants.
      origin: new URL(loadConfig().siteUrl).origin,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

function expectNoSecret() {
  const text = lines.join('');
  for (const [what, value] of Object.entries(secret))
    expect(text.includes(value), `${what} in the log:\n${text}`).toBe(false);
}

beforeAll(async () => {
  t = await createTestDatabase();
  provideDatabase(t);
  provideMailer(mailer);
  clientDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-logs-'));
  app = createGalerieServer({ staticFiles: await StaticFiles.load(clientDir), handler });
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => app.server.close(resolve));
  await t.dispose();
  await fs.rm(clientDir, { recursive: true, force: true });
});

beforeEach(() => {
  lines = [];
  previousSink = setLogSink({ write: (line) => lines.push(line) });
  previousLevel = log.level;
  log.level = 'trace'; // everything the server could write, not only errors
});
afterEach(() => {
  setLogSink(previousSink);
  log.level = previousLevel;
});

describe('a query failing inside a request', { tags: ['pg-driver'] }, () => {
  it('thrown out of the handler: one JSON error line with the request id, no parameter', async () => {
    const response = await send('GET', '/boom');
    expect(response.status).toBe(500);
    const reqId = response.headers.get('x-request-id');
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(records()).toEqual([
      expect.objectContaining({
        level: 'error',
        reqId,
        msg: 'Request GET /boom failed',
        err: expect.objectContaining({
          code: '42P01',
          stack: expect.any(String) as unknown,
        }) as unknown,
      }),
    ]);
    expectNoSecret();
  });

  it('answered by an endpoint (errorResponse): the cart id the query carried is not logged', async () => {
    await sql`ALTER TABLE cart_items RENAME TO cart_items_away`.execute(t.db);
    try {
      const response = await send('GET', '/api/cart');
      expect(response.status).toBe(500);
      expect(records()).toEqual([
        expect.objectContaining({
          level: 'error',
          reqId: response.headers.get('x-request-id'),
          msg: 'Unexpected error while answering a request',
          err: expect.objectContaining({
            code: '42P01',
            message: 'relation "cart_items" does not exist',
          }) as unknown,
        }),
      ]);
    } finally {
      await sql`ALTER TABLE cart_items_away RENAME TO cart_items`.execute(t.db);
    }
    expectNoSecret();
  });

  it('a value PostgreSQL quotes in its error message is not logged either', async () => {
    const response = await send('GET', '/boom/data');
    expect(response.status).toBe(500);
    expect(records()).toEqual([
      expect.objectContaining({
        reqId: response.headers.get('x-request-id'),
        err: expect.objectContaining({
          code: '22P02',
          message: 'invalid input syntax for type integer: "…"',
        }) as unknown,
      }),
    ]);
    expectNoSecret();
  });
});

describe('signing in', () => {
  it('with a wrong password: nothing logged carries the password or the cookies', async () => {
    await makeUser(t.db, {
      email: secret.email,
      password_hash: await hashPassword(`${secret.password}-right`),
    });
    const response = await send('POST', '/api/auth/login', {
      email: secret.email,
      password: secret.password,
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const record of records())
      expect(record['reqId']).toBe(response.headers.get('x-request-id'));
    expectNoSecret();
  });

  it(
    'while the accounts table is missing: a logged 500, without the address or the password',
    { tags: ['pg-driver'] },
    async () => {
      await sql`ALTER TABLE users RENAME TO users_away`.execute(t.db);
      try {
        const response = await send('POST', '/api/auth/login', {
          email: secret.email,
          password: secret.password,
        });
        expect(response.status).toBe(500);
        expect(records()).toEqual([
          expect.objectContaining({
            level: 'error',
            reqId: response.headers.get('x-request-id'),
            err: expect.objectContaining({ code: '42P01' }) as unknown,
          }),
        ]);
      } finally {
        await sql`ALTER TABLE users_away RENAME TO users`.execute(t.db);
      }
      expectNoSecret();
    },
  );
});
