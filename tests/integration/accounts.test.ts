// Accounts against a real database, through the middleware and the endpoints as a browser meets
// them: sessions stored only hashed, refused when altered or expired, extended after half-life,
// ended by password change and reset; login throttled per account and per address; signup and
// login that never tell whether an address has an account; cross-origin requests refused; one
// customer never reading another's orders; single-use, expiring reset links and invitations; and
// /api/admin/** closed to customers.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  acceptAdminInvitation,
  createAdminInvitation,
  getSubscription,
  listAccountOrders,
  login,
  requestPasswordReset,
  resetPassword,
} from '#api/accounts/index.ts';
import { argon2Runs, verifyPassword } from '#api/accounts/passwords.ts';
import { afterAnswerSettled } from '#api/background.ts';
import {
  createSession,
  SESSION_LIFETIME_MS,
  sessionCookieOptions,
  validateSessionToken,
} from '#api/accounts/sessions.ts';
import { LOGIN_THROTTLE } from '#api/accounts/throttle.ts';
import { provideDatabase } from '#api/db/context.ts';
import { secureCookies } from '#api/http/client.ts';
import { AppError } from '#api/http/errors.ts';
import { provideMailer, type Mailer, type MailMessage } from '#api/mail/index.ts';
import * as ORDERS from '../../src/pages/api/account/orders.ts';
import * as PASSWORD from '../../src/pages/api/account/password.ts';
import * as ACCEPT from '../../src/pages/api/admin/invitations/accept.ts';
import * as LOGIN from '../../src/pages/api/auth/login.ts';
import * as LOGOUT from '../../src/pages/api/auth/logout.ts';
import * as FORGOT from '../../src/pages/api/auth/password/forgot.ts';
import * as RESET from '../../src/pages/api/auth/password/reset.ts';
import * as SESSION from '../../src/pages/api/auth/session.ts';
import * as SIGNUP from '../../src/pages/api/auth/signup.ts';
import * as VERIFY from '../../src/pages/api/auth/verify-email.ts';
import { onRequest } from '../../src/middleware.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../helpers/db.ts';

const ORIGIN = 'http://localhost:4321';
const PASSWORD_A = 'correct horse battery';

let t: TestDatabase;
const mails: MailMessage[] = [];
const mailer: Mailer = {
  description: 'memory',
  send(message) {
    mails.push(message);
    return Promise.resolve();
  },
};

beforeAll(async () => {
  t = await createTestDatabase();
  provideDatabase(t);
  provideMailer(mailer);
});
afterAll(() => t.dispose());
beforeEach(() => {
  mails.length = 0;
});

// ---------------------------------------------------------------------------------------------
// A browser: a cookie jar and a client address, calling endpoints through the middleware.

type Handler = (context: never) => Response | Promise<Response>;
type Route = { GET?: Handler; POST?: Handler };

interface SentCookie {
  name: string;
  value: string;
  options: Record<string, unknown> | undefined;
  deleted: boolean;
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  cookies: SentCookie[];
  locals: App.Locals;
  /** Whether the middleware let the request through to the endpoint. */
  reached: boolean;
}

let addressSeq = 0;
/** A fresh documentation address per browser, so per-address limits never mix tests. */
function newAddress(): string {
  addressSeq += 1;
  return `198.51.${Math.floor(addressSeq / 250)}.${(addressSeq % 250) + 1}`;
}

let emailSeq = 0;
function newEmail(name = 'buyer'): string {
  emailSeq += 1;
  return `${name}.${emailSeq}.${Date.now()}@example.test`;
}

class Browser {
  readonly jar = new Map<string, string>();
  readonly ip: string;
  constructor(ip: string = newAddress()) {
    this.ip = ip;
  }

  async send(
    route: Route,
    method: 'GET' | 'POST',
    pathAndQuery: string,
    body?: unknown,
    headers: Record<string, string | null> = {},
  ): Promise<Answer> {
    const url = new URL(pathAndQuery, ORIGIN);
    const requestHeaders = new Headers();
    if (method !== 'GET') requestHeaders.set('origin', ORIGIN);
    if (body !== undefined) requestHeaders.set('content-type', 'application/json');
    for (const [name, value] of Object.entries(headers))
      if (value === null) requestHeaders.delete(name);
      else requestHeaders.set(name, value);
    const request = new Request(url, {
      method,
      headers: requestHeaders,
      body: body === undefined ? null : JSON.stringify(body),
    });
    const sent: SentCookie[] = [];
    const cookies = {
      get: (name: string) => {
        const last = sent.findLast((c) => c.name === name);
        if (last) return last.deleted ? undefined : { value: last.value };
        const value = this.jar.get(name);
        return value === undefined ? undefined : { value };
      },
      has: (name: string) => cookies.get(name) !== undefined,
      set: (name: string, value: string, options?: Record<string, unknown>) =>
        sent.push({ name, value, options, deleted: false }),
      delete: (name: string, options?: Record<string, unknown>) =>
        sent.push({ name, value: '', options, deleted: true }),
    };
    const context = {
      request,
      url,
      cookies,
      locals: {} as App.Locals,
      clientAddress: this.ip,
      isPrerendered: false,
      params: {},
    };
    let reached = false;
    const handler = route[method];
    if (!handler) throw new Error(`no ${method} handler`);
    const response = (await onRequest(context as never, () => {
      reached = true;
      return Promise.resolve(handler(context as never));
    })) as Response;
    for (const c of sent)
      if (c.deleted) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? (JSON.parse(text) as unknown) : null,
      cookies: sent,
      locals: context.locals,
      reached,
    };
  }

  get session(): string | undefined {
    return this.jar.get('session');
  }

  signup(input: Record<string, unknown>) {
    return this.send(SIGNUP, 'POST', '/api/auth/signup', {
      password: PASSWORD_A,
      confirmPassword: PASSWORD_A,
      fullName: 'Ana Buyer',
      locale: 'fr',
      ...input,
    });
  }

  login(email: string, password: string) {
    return this.send(LOGIN, 'POST', '/api/auth/login', { email, password });
  }

  whoami() {
    return this.send(SESSION, 'GET', '/api/auth/session');
  }
}

/**
 * An account through the real signup, its address verified as its owner would: the link of the
 * mail, opened in another browser (so no session comes of it). `verified: false` leaves the link
 * unopened: such an account cannot sign in (docs/decisions/038).
 */
async function account(
  options: { email?: string; password?: string; verified?: boolean; role?: 'admin' } = {},
): Promise<{ id: string; email: string; password: string }> {
  const email = options.email ?? newEmail();
  const password = options.password ?? PASSWORD_A;
  const browser = new Browser();
  const answer = await browser.signup({ email, password, confirmPassword: password });
  expect(answer.status).toBe(201);
  const mail = await mailTo(email);
  // The signup's verification mail is not what the tests look for afterwards.
  for (let i = mails.length - 1; i >= 0; i--) if (mails[i]!.to === email) mails.splice(i, 1);
  if (options.verified !== false) {
    const token = linkToken(mail.text, '/api/auth/verify-email');
    const opened = await new Browser().send(VERIFY, 'GET', `/api/auth/verify-email?token=${token}`);
    expect(opened.headers.get('location')).toBe('/login?emailVerified=1');
  }
  const row = await t.db
    .updateTable('users')
    .set({ role: options.role ?? 'customer' })
    .where('email', '=', email)
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email, password };
}

/**
 * A browser signed in to a new account. An unverified one cannot sign in: its session is made
 * directly, as one opened before decision 038 would be.
 */
async function signedIn(
  options: Parameters<typeof account>[0] = {},
): Promise<{ browser: Browser; id: string; email: string; password: string }> {
  const user = await account(options);
  const browser = new Browser();
  if (options.verified === false) {
    browser.jar.set('session', (await createSession(t.db, user.id)).token);
    return { browser, ...user };
  }
  const answer = await browser.login(user.email, user.password);
  expect(answer.status).toBe(200);
  return { browser, ...user };
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'ok';
}

const mailTo = (address: string) =>
  vi.waitFor(
    () => {
      const mail = mails.find((m) => m.to === address);
      if (!mail) throw new Error(`no mail to ${address} yet`);
      return mail;
    },
    { timeout: 120_000 },
  );

const linkToken = (text: string, pathname: string) => {
  const match = new RegExp(`${ORIGIN}${pathname}\\?token=([a-z2-7]{32})`).exec(text);
  if (!match?.[1]) throw new Error(`no ${pathname} link in:\n${text}`);
  return match[1];
};

async function sessionsOf(userId: string) {
  return t.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
}

// ---------------------------------------------------------------------------------------------

describe('sessions', () => {
  it('stores only the SHA-256 of the secret: no token or secret in the sessions table', async () => {
    const { browser, id } = await signedIn();
    const token = browser.session!;
    const [sessionId, secret] = token.split('.') as [string, string];
    expect(sessionId).toMatch(/^[a-z2-7]{32}$/);
    expect(secret).toMatch(/^[a-z2-7]{32}$/);
    const { rows } = await sql<Record<string, unknown>>`
      SELECT id, user_id::text, expires_at::text, created_at::text,
             encode(secret_hash, 'hex') AS hex, encode(secret_hash, 'base64') AS b64,
             encode(secret_hash, 'escape') AS raw
      FROM sessions WHERE user_id = ${id}`.execute(t.db);
    expect(rows).toHaveLength(1);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(token);
    for (let i = 0; i + 8 <= secret.length; i += 4)
      expect(dump).not.toContain(secret.slice(i, i + 8));
    const stored = await sessionsOf(id);
    expect(Buffer.from(stored[0]!.secret_hash).toString('hex')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sets an HttpOnly, SameSite=Lax cookie on /, Secure outside localhost', async () => {
    const user = await account();
    const browser = new Browser();
    const answer = await browser.login(user.email, user.password);
    expect(answer.body).toEqual({ ok: true, user: { name: 'Ana Buyer', email: user.email } });
    const cookie = answer.cookies.find((c) => c.name === 'session');
    expect(cookie?.options).toMatchObject({
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: false,
    });
    const expires = (cookie?.options?.['expires'] as Date).getTime();
    expect(Math.abs(expires - (Date.now() + SESSION_LIFETIME_MS))).toBeLessThan(60_000);
    const later = new Date(Date.now() + 1000);
    // Secure follows PUBLIC_SITE_URL and the trusted protocol, never the Host (issue 14).
    const client = (protocol: 'http' | 'https') => ({ address: '192.0.2.1', protocol });
    expect(
      sessionCookieOptions(secureCookies('https://galerie.example', client('http')), later).secure,
    ).toBe(true);
    expect(secureCookies('http://galerie.example', client('https'))).toBe(true);
    expect(secureCookies('http://127.0.0.1:4321', client('http'))).toBe(false);
  });

  it('puts the user in Astro.locals, and nobody for a cookie with one character altered', async () => {
    const { browser, id, email } = await signedIn();
    const me = await browser.whoami();
    expect(me.body).toEqual({
      user: { name: 'Ana Buyer', email, role: 'customer', emailVerified: true },
    });
    expect(me.locals.user).toMatchObject({ id, email, role: 'customer' });

    const token = browser.session!;
    for (const position of [0, token.length - 1, token.indexOf('.') + 5]) {
      const forged = new Browser();
      const char = token[position] === 'a' ? 'b' : 'a';
      forged.jar.set('session', token.slice(0, position) + char + token.slice(position + 1));
      const answer = await forged.whoami();
      expect(answer.body).toEqual({ user: null });
      expect(answer.locals.user).toBeNull();
      expect(answer.cookies).toContainEqual(
        expect.objectContaining({ name: 'session', deleted: true }),
      );
    }
    // A wrong secret does not end the real session.
    expect((await browser.whoami()).body).toMatchObject({ user: { email } });
    expect(await sessionsOf(id)).toHaveLength(1);
  });

  it('refuses an expired session and deletes it', async () => {
    const { browser, id } = await signedIn();
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', id)
      .execute();
    const answer = await browser.whoami();
    expect(answer.body).toEqual({ user: null });
    expect(browser.session).toBeUndefined();
    expect(await sessionsOf(id)).toHaveLength(0);
  });

  it('is extended to 30 days when used after half its life, not before', async () => {
    const { browser, id } = await signedIn();
    const day = 24 * 3600 * 1000;
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() + 20 * day) })
      .where('user_id', '=', id)
      .execute();
    const early = await browser.whoami();
    expect(early.cookies).toEqual([]);
    expect((await sessionsOf(id))[0]!.expires_at.getTime()).toBeLessThan(Date.now() + 21 * day);

    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() + 10 * day) })
      .where('user_id', '=', id)
      .execute();
    const late = await browser.whoami();
    expect(late.body).toMatchObject({ user: { role: 'customer' } });
    const renewed = (await sessionsOf(id))[0]!.expires_at.getTime();
    expect(Math.abs(renewed - (Date.now() + 30 * day))).toBeLessThan(60_000);
    const cookie = late.cookies.find((c) => c.name === 'session');
    expect(cookie?.value).toBe(browser.session);
    expect((cookie?.options?.['expires'] as Date).getTime()).toBe(renewed);

    // A publicly cacheable answer never carries the session cookie (a shared cache would keep it).
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() + 10 * day) })
      .where('user_id', '=', id)
      .execute();
    const image = {
      GET: () =>
        Response.json('img', {
          headers: { 'Cache-Control': 'public, max-age=31536000, immutable' },
        }),
    };
    const cached = await browser.send(image, 'GET', '/media/abc/file.avif');
    expect(cached.cookies).toEqual([]);
    const expired = new Browser();
    expired.jar.set('session', `${'a'.repeat(32)}.${'b'.repeat(32)}`);
    expect((await expired.send(image, 'GET', '/media/abc/file.avif')).cookies).toEqual([]);

    // The same rule with an explicit clock, at the service level.
    const { token } = await createSession(t.db, id, new Date('2030-01-01T00:00:00Z'));
    const at = (iso: string) => validateSessionToken(t.db, token, new Date(iso));
    expect((await at('2030-01-10T00:00:00Z'))?.refreshed).toBe(false);
    const half = await at('2030-01-20T00:00:00Z');
    expect(half?.refreshed).toBe(true);
    expect(half?.session.expiresAt.toISOString()).toBe('2030-02-19T00:00:00.000Z');
    expect(await at('2030-02-19T00:00:01Z')).toBeNull();
  });

  it('opens a new session at every login and ends the one the browser held', async () => {
    const user = await account();
    const browser = new Browser();
    await browser.login(user.email, user.password);
    const first = browser.session!;
    browser.jar.set('cart-session-id', 'cart_kept_across_login');
    const again = await browser.login(user.email, user.password);
    expect(again.status).toBe(200);
    expect(browser.session).not.toBe(first);
    const ids = (await sessionsOf(user.id)).map((s) => s.id);
    expect(ids).toEqual([browser.session!.split('.')[0]]);
    // The anonymous cart is kept across login and logout.
    expect(again.cookies.map((c) => c.name)).toEqual(['session']);
    expect(browser.jar.get('cart-session-id')).toBe('cart_kept_across_login');

    const out = await browser.send(LOGOUT, 'POST', '/api/auth/logout');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });
    expect(browser.session).toBeUndefined();
    expect(await sessionsOf(user.id)).toHaveLength(0);
    expect(browser.jar.get('cart-session-id')).toBe('cart_kept_across_login');
  });

  it('ends every other session when the password changes, keeping this browser signed in', async () => {
    const { browser, id, email } = await signedIn();
    const other = new Browser();
    await other.login(email, PASSWORD_A);
    expect(await sessionsOf(id)).toHaveLength(2);
    const oldToken = browser.session;

    const wrong = await browser.send(PASSWORD, 'POST', '/api/account/password', {
      currentPassword: 'not it at all',
      password: 'a new secret',
      confirmPassword: 'a new secret',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: { code: 'invalid_credentials' } });

    const changed = await browser.send(PASSWORD, 'POST', '/api/account/password', {
      currentPassword: PASSWORD_A,
      password: 'a new secret',
      confirmPassword: 'a new secret',
    });
    expect(changed.status).toBe(200);
    expect(browser.session).not.toBe(oldToken);
    expect((await browser.whoami()).body).toMatchObject({ user: { email } });
    expect((await other.whoami()).body).toEqual({ user: null });
    expect(await sessionsOf(id)).toHaveLength(1);
    expect((await new Browser().login(email, PASSWORD_A)).status).toBe(401);
    expect((await new Browser().login(email, 'a new secret')).status).toBe(200);

    const signedOut = await new Browser().send(PASSWORD, 'POST', '/api/account/password', {
      currentPassword: 'a new secret',
      password: 'another one',
      confirmPassword: 'another one',
    });
    expect(signedOut.status).toBe(401);
    expect(signedOut.body).toMatchObject({ error: { code: 'unauthorized' } });
  });
});

describe('signup', () => {
  it('creates an unverified customer with an Argon2id hash, no session, and mails a verification link', async () => {
    const email = newEmail('new');
    const answer = await new Browser().signup({ email: `  ${email.toUpperCase()} ` });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ ok: true });
    expect(answer.cookies.map((c) => c.name)).toEqual(['signup']);
    const user = await t.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      role: 'customer',
      full_name: 'Ana Buyer',
      email_verified_at: null,
    });
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(user.password_hash!, PASSWORD_A)).toBe(true);

    const mail = await mailTo(email);
    expect(mail.subject).toContain('Confirmez votre adresse e-mail');
    const token = linkToken(mail.text, '/api/auth/verify-email');
    expect(user.email_verification_hash).not.toBeNull();
    expect(JSON.stringify(user)).not.toContain(token);

    // Until the link is opened the account cannot sign in, the right password included.
    expect((await new Browser().login(email, PASSWORD_A)).body).toMatchObject({
      error: { code: 'invalid_credentials' },
    });
    // Opened in another browser than the signup's: verified, but nobody signed in by a link.
    const elsewhere = new Browser();
    const verified = await elsewhere.send(VERIFY, 'GET', `/api/auth/verify-email?token=${token}`);
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toBe('/login?emailVerified=1');
    expect(verified.headers.get('referrer-policy')).toBe('no-referrer');
    expect(elsewhere.session).toBeUndefined();
    expect((await new Browser().login(email, PASSWORD_A)).status).toBe(200);
    const after = await t.db
      .selectFrom('users')
      .select(['email_verified_at', 'email_verification_hash'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.email_verified_at).toBeInstanceOf(Date);
    expect(after.email_verification_hash).toBeNull();

    const again = await new Browser().send(
      VERIFY,
      'GET',
      `/api/auth/verify-email?token=${token}&locale=en`,
    );
    expect(again.headers.get('location')).toBe('/en/login?emailVerified=0');
  });

  it('signs in the browser that signed up when it opens the link, keeping its cart, once', async () => {
    const email = newEmail('link');
    const browser = new Browser();
    // A guest's cart, and an earlier session of someone else in the same browser.
    browser.jar.set('cart-session-id', 'cart_kept_across_signup');
    const other = await account();
    await browser.login(other.email, other.password);
    const before = browser.session!;
    const answer = await browser.signup({ email });
    expect(answer.status).toBe(201);
    expect(answer.cookies.map((c) => c.name)).toEqual(['signup']);
    expect(answer.cookies[0]!.options).toMatchObject({
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      maxAge: 24 * 3600,
    });
    // Signup opened no session: the browser is still the other account's.
    expect(browser.session).toBe(before);
    const token = linkToken((await mailTo(email)).text, '/api/auth/verify-email');
    // The signup cookie holds no form of the token a database dump or the mail would show.
    expect(browser.jar.get('signup')).not.toContain(token);

    const opened = await browser.send(VERIFY, 'GET', `/api/auth/verify-email?token=${token}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/account?emailVerified=1');
    expect(browser.session).not.toBe(before);
    expect((await browser.whoami()).body).toEqual({
      user: { name: 'Ana Buyer', email, role: 'customer', emailVerified: true },
    });
    expect(await sessionsOf(other.id)).toHaveLength(0);
    expect(browser.jar.get('signup')).toBeUndefined();
    expect(browser.jar.get('cart-session-id')).toBe('cart_kept_across_signup');

    // Used: signed in, the account page says so.
    const again = await browser.send(VERIFY, 'GET', `/api/auth/verify-email?token=${token}`);
    expect(again.headers.get('location')).toBe('/account?emailVerified=0');
  });

  it('never signs in with a link whose browser mark is another signup’s, or an administrator', async () => {
    const email = newEmail('mark');
    const attacker = new Browser();
    await attacker.signup({ email: newEmail('attacker') });
    const victim = new Browser();
    await victim.signup({ email });
    const token = linkToken((await mailTo(email)).text, '/api/auth/verify-email');
    // Another signup's cookie does not fit this link.
    victim.jar.set('signup', attacker.jar.get('signup')!);
    const opened = await victim.send(VERIFY, 'GET', `/api/auth/verify-email?token=${token}`);
    expect(opened.headers.get('location')).toBe('/login?emailVerified=1');
    expect(victim.session).toBeUndefined();

    // An administrator's address verified by a link: the back office's sign-in stays its own.
    const adminEmail = newEmail('admin');
    const browser = new Browser();
    await browser.signup({ email: adminEmail });
    const adminToken = linkToken((await mailTo(adminEmail)).text, '/api/auth/verify-email');
    await t.db
      .updateTable('users')
      .set({ role: 'admin' })
      .where('email', '=', adminEmail)
      .execute();
    const admin = await browser.send(VERIFY, 'GET', `/api/auth/verify-email?token=${adminToken}`);
    expect(admin.headers.get('location')).toBe('/login?emailVerified=1');
    expect(browser.session).toBeUndefined();
  });

  it('signup then login tells a taken address from a free one in nothing (issue 24, break 7)', async () => {
    // The attack: sign up with X and a password of one's own, then sign in with it. A free X
    // used to answer 200, a taken X 401. Now both answer the same, attempt after attempt, the
    // throttle included (an unverified login counts as a failure), each after an Argon2 run.
    const taken = await account({ password: 'the owner’s own secret' });
    const free = newEmail('free-x');
    const attempts = LOGIN_THROTTLE.accountAddress.freeFailures + 1;
    const runs = argon2Runs.verify;
    const attack = async (email: string) => {
      const browser = new Browser();
      const password = 'attacker guess 1';
      const signup = await browser.signup({ email, password, confirmPassword: password });
      const seen = [
        `${signup.status} ${JSON.stringify(signup.body)} ${signup.cookies.map((c) => `${c.name}:${c.value.length}`).join()}`,
      ];
      for (let i = 0; i < attempts; i++) {
        const login = await browser.login(email, password);
        seen.push(
          `${login.status} ${JSON.stringify(login.body)} ${login.cookies.map((c) => c.name).join()} retry:${login.headers.has('retry-after')}`,
        );
      }
      return { seen };
    };
    const onFree = await attack(free);
    const onTaken = await attack(taken.email);
    expect(onFree.seen).toEqual(onTaken.seen);
    expect(onFree.seen[0]).toBe('201 {"ok":true} signup:43');
    expect(onFree.seen[1]).toBe(
      '401 {"error":{"code":"invalid_credentials","message":"Incorrect email or password."}}  retry:false',
    );
    expect(onFree.seen.at(-1)).toMatch(/^429 .*rate_limited.* retry:true$/);
    // Every attempt before the lock ran one Argon2 verification, on both addresses: the same
    // work, so the same time. (Counted, not timed: a wall-clock ratio failed on a loaded machine.)
    expect(argon2Runs.verify - runs).toBe(2 * (attempts - 1));
    // The owner of the taken address was told; the free one's link still works for its owner.
    expect((await mailTo(taken.email)).subject).toContain('Tentative d’inscription');
    expect((await mailTo(free)).subject).toContain('Confirmez votre adresse e-mail');
  });

  it('mails the English link to an English signup', async () => {
    const email = newEmail('en');
    await new Browser().signup({ email, locale: 'en' });
    const mail = await mailTo(email);
    expect(mail.subject).toContain('Confirm your email address');
    expect(mail.text).toMatch(/\/api\/auth\/verify-email\?token=[a-z2-7]{32}&locale=en/);
  });

  it('answers a taken address exactly like a free one, mails its owner, and costs the same hash', async () => {
    // The owner's account is made directly: the three signups below are all the address gets
    // within the hourly mail limit.
    const owner = { email: newEmail('owner') };
    await t.db
      .insertInto('users')
      .values({ email: owner.email, full_name: 'Ana Buyer', password_hash: 'unused' })
      .execute();
    const runs = argon2Runs.hash;
    const durations = { free: [] as number[], taken: [] as number[] };
    const bodies = new Set<string>();
    for (let i = 0; i < 3; i++) {
      for (const kind of ['free', 'taken'] as const) {
        const email = kind === 'free' ? newEmail('free') : owner.email.toUpperCase();
        const started = performance.now();
        const answer = await new Browser().signup({ email, fullName: 'Someone Else' });
        durations[kind].push(performance.now() - started);
        const cookies = answer.cookies.map((c) => `${c.name}:${/^[\w-]{43}$/.test(c.value)}`);
        bodies.add(`${answer.status} ${JSON.stringify(answer.body)} ${cookies.join()}`);
      }
    }
    // The signup cookie too: the same name, and 32 bytes that look alike either way.
    expect([...bodies]).toEqual(['201 {"ok":true} signup:true']);
    // Every attempt ran one Argon2 hash, taken address included.
    expect(argon2Runs.hash - runs).toBe(6);
    // Timing is dominated by that hash on both paths (generous bounds: this is not a benchmark).
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    const ratio = median(durations.taken) / median(durations.free);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);

    const users = await t.db
      .selectFrom('users')
      .select(['full_name', 'password_hash'])
      .where(sql<string>`lower(email)`, '=', owner.email)
      .execute();
    expect(users).toHaveLength(1);
    expect(users[0]!.full_name).toBe('Ana Buyer');
    const notice = await mailTo(owner.email);
    expect(notice.subject).toContain('Tentative d’inscription');
    expect(notice.text).toContain(`${ORIGIN}/login`);
    expect(notice.text).not.toContain('Someone Else');
  });

  it('answers invalid fields with translation keys', async () => {
    const answer = await new Browser().send(SIGNUP, 'POST', '/api/auth/signup', {
      email: 'not-an-email',
      password: 'abc',
      confirmPassword: 'abd',
      fullName: ' ',
      locale: 'fr',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        code: 'invalid_input',
        message: 'Some fields are missing or invalid.',
        fields: {
          email: 'auth.error.emailInvalid',
          password: 'auth.error.passwordTooShort',
          confirmPassword: 'auth.error.passwordsDontMatch',
          fullName: 'auth.error.nameRequired',
        },
      },
    });
    const empty = await new Browser().send(SIGNUP, 'POST', '/api/auth/signup', {
      email: '',
      password: '',
      confirmPassword: '',
      fullName: '',
    });
    expect(empty.body).toMatchObject({
      error: {
        fields: {
          email: 'auth.error.emailRequired',
          password: 'auth.error.passwordRequired',
          fullName: 'auth.error.nameRequired',
        },
      },
    });
    const long = await new Browser().signup({
      email: newEmail(),
      password: 'x'.repeat(257),
      confirmPassword: 'x'.repeat(257),
    });
    expect(long.body).toMatchObject({
      error: { fields: { password: 'auth.error.passwordTooLong' } },
    });
    const ok = await new Browser().signup({
      email: newEmail(),
      password: 'x'.repeat(256),
      confirmPassword: 'x'.repeat(256),
    });
    expect(ok.status).toBe(201);
  });
});

describe('login', () => {
  it('answers an unknown address exactly like a wrong password, each after an Argon2 verification', async () => {
    const user = await account();
    const runs = argon2Runs.verify;
    const unknown = await new Browser().login(newEmail('nobody'), PASSWORD_A);
    const wrong = await new Browser().login(user.email, 'wrong password');
    expect(argon2Runs.verify - runs).toBe(2);
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body).toEqual({
      error: { code: 'invalid_credentials', message: 'Incorrect email or password.' },
    });
    expect(unknown.cookies).toEqual([]);
    expect(wrong.cookies).toEqual([]);
  });

  it('throttles an account from one address after 5 failures, refusing even the right password there, with Retry-After', async () => {
    const user = await account();
    const rule = LOGIN_THROTTLE.accountAddress;
    const attacker = new Browser();
    for (let i = 0; i < rule.freeFailures; i++)
      expect((await attacker.login(user.email, `guess ${i}`)).status).toBe(401);
    // From that address, the right password is refused too while the lock lasts…
    const refused = await attacker.login(user.email, user.password);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: 'rate_limited' } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(rule.baseDelaySeconds);
    expect(refused.cookies).toEqual([]);
    // …whatever the case of the address typed.
    expect((await attacker.login(user.email.toUpperCase(), user.password)).status).toBe(429);

    // Once the delay is over the right password works there, and its failures are forgotten.
    await t.db
      .updateTable('login_throttle')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .execute();
    expect((await attacker.login(user.email, user.password)).status).toBe(200);
    expect((await attacker.login(user.email, 'guess again')).status).toBe(401);

    // Failing on: the delay grows (30 s after the 5th failure, 60 s after the 6th…).
    for (let i = 0; i < rule.freeFailures - 1; i++)
      expect((await attacker.login(user.email, 'x')).status).toBe(401);
    const first = await attacker.login(user.email, 'x');
    expect(first.status).toBe(429);
    await t.db
      .updateTable('login_throttle')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .execute();
    expect((await attacker.login(user.email, 'x')).status).toBe(401);
    const second = await attacker.login(user.email, 'x');
    expect(second.status).toBe(429);
    const firstWait = Number(first.headers.get('retry-after'));
    const secondWait = Number(second.headers.get('retry-after'));
    expect(firstWait).toBeGreaterThan(rule.baseDelaySeconds - 5);
    expect(secondWait).toBeGreaterThan(2 * rule.baseDelaySeconds - 5);
    expect(secondWait).toBeLessThanOrEqual(2 * rule.baseDelaySeconds);
  });

  it('throttles one client address spraying many accounts, not the others', async () => {
    const victim = await account();
    const sprayer = new Browser();
    for (let i = 0; i < LOGIN_THROTTLE.ip.freeFailures; i++)
      expect((await sprayer.login(newEmail('sprayed'), 'password1')).status).toBe(401);
    const blocked = await sprayer.login(victim.email, victim.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The account itself is not locked: its owner elsewhere signs in.
    expect((await new Browser().login(victim.email, victim.password)).status).toBe(200);
  });

  it(
    'counts attempts before checking the password, so parallel guesses cannot slip through',
    { tags: ['concurrency'] },
    async () => {
      const user = await account();
      const attacker = new Browser();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => attacker.login(user.email, `parallel ${i}`)),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(
        LOGIN_THROTTLE.accountAddress.freeFailures,
      );
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(
        12 - LOGIN_THROTTLE.accountAddress.freeFailures,
      );
    },
  );

  it('validates the fields with keys', async () => {
    const answer = await new Browser().send(LOGIN, 'POST', '/api/auth/login', {
      email: '',
      password: '',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: {
        code: 'invalid_input',
        fields: { email: 'auth.error.emailRequired', password: 'auth.error.passwordRequired' },
      },
    });
  });
});

describe('password reset', () => {
  it('mails a single-use link valid 1 hour, and answers the same for an unknown address', async () => {
    const { browser, id, email } = await signedIn();
    const other = new Browser();
    await other.login(email, PASSWORD_A);

    const known = await new Browser().send(FORGOT, 'POST', '/api/auth/password/forgot', {
      email,
      locale: 'en',
    });
    const unknownEmail = newEmail('ghost');
    const unknown = await new Browser().send(FORGOT, 'POST', '/api/auth/password/forgot', {
      email: unknownEmail,
      locale: 'en',
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ ok: true });
    expect(unknown.body).toEqual(known.body);
    const mail = await mailTo(email);
    expect(mail.subject).toContain('Reset your password');
    const token = linkToken(mail.text, '/en/reset-password');
    // Whatever the requests started after answering is over: still no mail to the unknown address.
    await afterAnswerSettled();
    expect(mails.filter((m) => m.to === unknownEmail)).toEqual([]);

    const stored = await t.db
      .selectFrom('password_reset_tokens')
      .selectAll()
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(stored.token_hash).toString('hex')).not.toContain(
      Buffer.from(token).toString('hex'),
    );
    const ttl = stored.expires_at.getTime() - stored.created_at.getTime();
    expect(ttl).toBe(3600 * 1000);

    const mismatch = await new Browser().send(RESET, 'POST', '/api/auth/password/reset', {
      token,
      password: 'brand new pass',
      confirmPassword: 'brand new pas',
    });
    expect(mismatch.body).toMatchObject({
      error: { fields: { confirmPassword: 'auth.error.passwordsDontMatch' } },
    });

    const reset = await browser.send(RESET, 'POST', '/api/auth/password/reset', {
      token,
      password: 'brand new pass',
      confirmPassword: 'brand new pass',
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ok: true });
    // Every session of the user ended, this browser's and the other one.
    expect(await sessionsOf(id)).toHaveLength(0);
    expect((await other.whoami()).body).toEqual({ user: null });
    expect(browser.session).toBeUndefined();
    expect((await new Browser().login(email, PASSWORD_A)).status).toBe(401);
    expect((await new Browser().login(email, 'brand new pass')).status).toBe(200);
    // The link reached the mailbox: the address now counts as verified.
    const user = await t.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(user.email_verified_at).toBeInstanceOf(Date);

    const reused = await new Browser().send(RESET, 'POST', '/api/auth/password/reset', {
      token,
      password: 'third password',
      confirmPassword: 'third password',
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: { code: 'invalid_token' } });
  });

  it('refuses an expired or unknown link', async () => {
    const user = await account();
    const sent = new Date(Date.now() - 2 * 3600 * 1000);
    const deps = { db: t.db, mailer, siteUrl: ORIGIN, now: () => sent };
    await (
      await requestPasswordReset(deps, { email: user.email, locale: 'fr' }, { ip: newAddress() })
    ).delivered;
    const token = linkToken((await mailTo(user.email)).text, '/reset-password');
    const input = { token, password: 'new password', confirmPassword: 'new password' };
    expect(await errorCode(resetPassword({ db: t.db }, input))).toBe('invalid_token');
    // Still valid 59 minutes after it was sent.
    expect(
      await errorCode(
        resetPassword({ db: t.db, now: () => new Date(sent.getTime() + 59 * 60_000) }, input),
      ),
    ).toBe('ok');
    for (const bad of ['', 'x', 'a'.repeat(32), `${token}a`]) {
      const answer = await new Browser().send(RESET, 'POST', '/api/auth/password/reset', {
        ...input,
        token: bad,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 'invalid_token' } });
    }
  });
});

describe('cross-origin requests', () => {
  const attempts: Array<[string, Record<string, string | null>]> = [
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['a look-alike Origin', { origin: 'http://localhost:4321.evil.example' }],
    ['no Origin and a cross-site fetch', { origin: null, 'sec-fetch-site': 'cross-site' }],
    ['neither header', { origin: null }],
  ];

  it.each(attempts)('refuses %s with 403 before the endpoint runs', async (_label, headers) => {
    const user = await account();
    const browser = new Browser();
    for (const [route, path, body] of [
      [LOGIN, '/api/auth/login', { email: user.email, password: user.password }],
      [
        SIGNUP,
        '/api/auth/signup',
        { email: newEmail(), password: 'abcdef', confirmPassword: 'abcdef', fullName: 'X' },
      ],
      [LOGOUT, '/api/auth/logout', undefined],
      [FORGOT, '/api/auth/password/forgot', { email: user.email }],
    ] as const) {
      const answer = await browser.send(route, 'POST', path, body, headers);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: { code: 'forbidden_origin' } });
      expect(answer.reached).toBe(false);
    }
    expect(browser.session).toBeUndefined();
  });

  it('lets same-origin requests through, and the Stripe webhook from anywhere', async () => {
    const user = await account();
    const browser = new Browser();
    const viaFetchMetadata = await browser.login(user.email, user.password);
    expect(viaFetchMetadata.status).toBe(200);
    const sameSite = await new Browser().send(
      LOGIN,
      'POST',
      '/api/auth/login',
      { email: user.email, password: user.password },
      { origin: null, 'sec-fetch-site': 'same-origin' },
    );
    expect(sameSite.status).toBe(200);

    const stripe = { POST: () => Response.json({ received: true }) };
    const webhook = await new Browser().send(
      stripe,
      'POST',
      '/api/stripe/webhook',
      {},
      {
        origin: null,
      },
    );
    expect(webhook.reached).toBe(true);
    const elsewhere = await new Browser().send(
      stripe,
      'POST',
      '/api/stripe/webhook/../other',
      {},
      {
        origin: 'https://evil.example',
      },
    );
    expect(elsewhere.status).toBe(403);
    // Reading is not changing: a cross-origin GET reaches the endpoint (CORS keeps the answer).
    const read = await new Browser().send(SESSION, 'GET', '/api/auth/session', undefined, {
      origin: 'https://evil.example',
    });
    expect(read.status).toBe(200);
  });
});

describe('account orders', () => {
  let sequence = 0;
  async function order(values: {
    email: string;
    userId?: string | null;
    createdAt: string;
    totalCents?: number;
    paymentStatus?: 'paid' | 'unpaid' | 'expired' | 'refunded';
  }): Promise<string> {
    sequence += 1;
    const number = `T-${Date.now()}-${sequence}`;
    const total = values.totalCents ?? 35_000;
    await t.db
      .insertInto('orders')
      .values({
        order_number: number,
        user_id: values.userId ?? null,
        customer_name: 'Buyer',
        customer_email: values.email,
        shipping_address: JSON.stringify({
          street: '1 rue X',
          city: 'Paris',
          postalCode: '75001',
          country: 'FR',
        }),
        subtotal_cents: total,
        total_cents: total,
        payment_status: values.paymentStatus ?? 'paid',
        stripe_session_id: `cs_test_${number}`,
        created_at: new Date(values.createdAt),
      })
      .execute();
    return number;
  }

  it('answers 401 without a session', async () => {
    const answer = await new Browser().send(ORDERS, 'GET', '/api/account/orders');
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('lists the account’s orders newest first, never another customer’s', async () => {
    const a = await signedIn({ verified: true });
    const b = await signedIn({ verified: true });
    const a1 = await order({ email: a.email, userId: a.id, createdAt: '2026-01-05T10:00:00Z' });
    const a2 = await order({
      email: 'typed-another@example.test',
      userId: a.id,
      createdAt: '2026-03-01T10:00:00Z',
      totalCents: 42_000,
    });
    const aGuest = await order({ email: a.email.toUpperCase(), createdAt: '2026-02-01T10:00:00Z' });
    await order({
      email: a.email,
      userId: a.id,
      createdAt: '2026-03-02T10:00:00Z',
      paymentStatus: 'expired',
    });
    const b1 = await order({ email: b.email, userId: b.id, createdAt: '2026-02-10T10:00:00Z' });
    // Placed by B while signed in, with A's address typed in: it stays B's.
    const bWithA = await order({ email: a.email, userId: b.id, createdAt: '2026-02-11T10:00:00Z' });

    const answer = await a.browser.send(ORDERS, 'GET', '/api/account/orders');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const body = answer.body as { orders: Array<Record<string, unknown>>; subscription: unknown };
    expect(body.orders.map((o) => o.number)).toEqual([a2, aGuest, a1]);
    // As the buyer sees it: the works and amounts, no payment provider id (issue 9).
    expect(body.orders[0]).toEqual({
      number: a2,
      date: '2026-03-01T10:00:00.000Z',
      locale: 'fr',
      subtotalCents: 42_000,
      promoCode: null,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 42_000,
      currency: 'EUR',
      paymentStatus: 'paid',
      lines: [],
      invoiceNumber: null,
      refundedCents: 0,
      creditNotes: [],
      withdrawal: null,
    });
    expect(JSON.stringify(body)).not.toContain('cs_test_');
    expect(body.subscription).toBeNull();

    const ofB = await b.browser.send(ORDERS, 'GET', '/api/account/orders');
    expect((ofB.body as { orders: Array<{ number: string }> }).orders.map((o) => o.number)).toEqual(
      [bWithA, b1],
    );
    // A query string cannot widen it: the user comes from the session only.
    const sneaky = await a.browser.send(
      ORDERS,
      'GET',
      `/api/account/orders?userId=${b.id}&email=${b.email}`,
    );
    expect(
      (sneaky.body as { orders: Array<{ number: string }> }).orders.map((o) => o.number),
    ).toEqual([a2, aGuest, a1]);
  });

  it('shows guest orders of an address only once the account has verified it', async () => {
    // B bought as a guest; A signs up with B's address (signup proves nothing) and signs in.
    const bEmail = newEmail('guest');
    const guest = await order({ email: bEmail, createdAt: '2026-04-01T10:00:00Z' });
    await t.db
      .insertInto('subscriptions')
      .values({
        customer_email: bEmail,
        status: 'active',
        price_id: 'price_guest',
        current_period_end: new Date('2026-12-01T00:00:00Z'),
      })
      .execute();
    const a = await signedIn({ email: bEmail, verified: false });

    const before = await a.browser.send(ORDERS, 'GET', '/api/account/orders');
    expect(before.body).toEqual({ orders: [], subscription: null });
    expect(await listAccountOrders(t.db, { id: a.id })).toEqual([]);
    expect(await getSubscription(t.db, { id: a.id })).toBeNull();

    // Proving the mailbox (the verification link) shows them.
    await t.db
      .updateTable('users')
      .set({ email_verified_at: new Date() })
      .where('id', '=', a.id)
      .execute();
    const after = await a.browser.send(ORDERS, 'GET', '/api/account/orders');
    expect(after.body).toEqual({
      orders: [expect.objectContaining({ number: guest })],
      subscription: {
        status: 'active',
        priceId: 'price_guest',
        currentPeriodEnd: '2026-12-01T00:00:00.000Z',
      },
    });
  });
});

describe('administrators', () => {
  const adminRoute = {
    GET: () => Response.json({ secret: 'admin data' }),
    POST: () => Response.json({ done: true }),
  };

  it('refuses /api/admin/** to customers and to the signed-out, with 403 JSON', async () => {
    const customer = await signedIn();
    for (const browser of [customer.browser, new Browser()]) {
      for (const path of [
        '/api/admin/orders',
        '/api/admin',
        '/API/ADMIN/orders',
        '/api/admin/invitations',
      ]) {
        for (const method of ['GET', 'POST'] as const) {
          const answer = await browser.send(
            adminRoute,
            method,
            path,
            method === 'POST' ? {} : undefined,
          );
          expect(answer.status).toBe(403);
          expect(answer.body).toMatchObject({ error: { code: 'forbidden' } });
          expect(answer.reached).toBe(false);
        }
      }
    }
    const admin = await signedIn({ role: 'admin' });
    const allowed = await admin.browser.send(adminRoute, 'GET', '/api/admin/orders');
    expect(allowed.reached).toBe(true);
    expect(allowed.body).toEqual({ secret: 'admin data' });
  });

  it('turns a single-use, expiring invitation into a new administrator', async () => {
    const email = newEmail('owner');
    const invitation = await createAdminInvitation(t.db, email, { siteUrl: ORIGIN });
    expect(invitation.url).toMatch(new RegExp(`^${ORIGIN}/admin/invitation\\?token=[a-z2-7]{32}$`));
    const token = new URL(invitation.url).searchParams.get('token')!;
    expect(invitation.expiresAt.getTime() - Date.now()).toBeGreaterThan(71 * 3600 * 1000);
    const stored = await t.db
      .selectFrom('admin_invitations')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(stored.token_hash).toString('hex')).not.toContain(
      Buffer.from(token).toString('hex'),
    );

    const browser = new Browser();
    const body = {
      token,
      fullName: 'Gallery Owner',
      password: 'owner password',
      confirmPassword: 'owner password',
    };
    const accepted = await browser.send(ACCEPT, 'POST', '/api/admin/invitations/accept', body);
    expect(accepted.status).toBe(201);
    expect(accepted.body).toEqual({ ok: true });
    expect((await browser.whoami()).body).toMatchObject({
      user: { email, role: 'admin', name: 'Gallery Owner' },
    });
    const reached = await browser.send(adminRoute, 'GET', '/api/admin/orders');
    expect(reached.reached).toBe(true);

    const reused = await new Browser().send(ACCEPT, 'POST', '/api/admin/invitations/accept', body);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: { code: 'invalid_token' } });
    expect(
      await t.db.selectFrom('users').select('id').where('email', '=', email).execute(),
    ).toHaveLength(1);
  });

  it(
    'refuses an expired invitation and an address that already has an account',
    { tags: ['pg-driver'] },
    async () => {
      const old = await createAdminInvitation(t.db, newEmail('late'), {
        siteUrl: ORIGIN,
        now: () => new Date(Date.now() - 73 * 3600 * 1000),
      });
      const input = {
        fullName: 'Late',
        password: 'owner password',
        confirmPassword: 'owner password',
      };
      const token = new URL(old.url).searchParams.get('token')!;
      expect(await errorCode(acceptAdminInvitation({ db: t.db }, { token, ...input }))).toBe(
        'invalid_token',
      );

      const customer = await account();
      expect(
        await errorCode(
          createAdminInvitation(t.db, customer.email.toUpperCase(), { siteUrl: ORIGIN }),
        ),
      ).toBe('account_exists');
      // An account created after the invitation: the invitation cannot promote or duplicate it.
      const email = newEmail('raced');
      const invitation = await createAdminInvitation(t.db, email, { siteUrl: ORIGIN });
      await account({ email });
      const answer = await new Browser().send(ACCEPT, 'POST', '/api/admin/invitations/accept', {
        token: new URL(invitation.url).searchParams.get('token'),
        ...input,
      });
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ error: { code: 'account_exists' } });
      const user = await t.db
        .selectFrom('users')
        .select('role')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(user.role).toBe('customer');
      expect(
        await errorCode(createAdminInvitation(t.db, 'not an email', { siteUrl: ORIGIN })),
      ).toBe('invalid_input');
    },
  );

  it.skipIf(testDbKind() !== 'postgres')(
    'npm run admin:invite prints the link, or one line saying why not',
    { tags: ['cluster'] },
    async () => {
      const run = (...args: string[]) =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            [path.resolve('api/cli/admin-invite.ts'), ...args],
            {
              env: {
                ...process.env,
                DATABASE_URL: t.url!,
                PUBLIC_SITE_URL: 'https://galerie.example',
              },
            },
          );
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
          child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
          child.on('exit', (code) => resolve({ code, stdout, stderr }));
        });
      const email = newEmail('cli');
      const ok = await run(email);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(
        /^https:\/\/galerie\.example\/admin\/invitation\?token=[a-z2-7]{32}$/m,
      );
      const existing = await account();
      const refused = await run(existing.email);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^admin:invite failed: .*already has an account/),
      ]);
    },
  );
});

describe('services without HTTP', () => {
  it('login refuses while throttled even with the right password, from that address only (service level)', async () => {
    const user = await account();
    const now = new Date();
    const attempt = (password: string, ip: string) =>
      errorCode(login({ db: t.db, now: () => now }, { email: user.email, password }, { ip }));
    for (let i = 0; i < 5; i++)
      expect(await attempt('nope', '192.0.2.1')).toBe('invalid_credentials');
    expect(await attempt(user.password, '192.0.2.1')).toBe('rate_limited');
    expect(await attempt(user.password, '192.0.2.2')).toBe('ok');
    const later = new Date(now.getTime() + 31_000);
    expect(
      await errorCode(
        login(
          { db: t.db, now: () => later },
          { email: user.email, password: user.password },
          { ip: '192.0.2.1' },
        ),
      ),
    ).toBe('ok');
  });
});
