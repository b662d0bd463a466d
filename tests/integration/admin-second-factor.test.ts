// Issue 24, "The owner's account" (docs/decisions/037): an administrator's second factor (TOTP
// with recovery codes) asked at every sign-in, and a re-authentication before erasing a customer,
// refunding, changing payment settings and inviting an administrator.
import { generateHOTP } from '@oslojs/otp';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import type { APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { login } from '#api/accounts/index.ts';
import { hashPassword } from '#api/accounts/passwords.ts';
import {
  beginTotpSetup,
  CHALLENGE_TTL_MS,
  completeSecondFactor,
  confirmTotpSetup,
  REAUTH_TTL_MS,
  TOTP_PERIOD_SECONDS,
} from '#api/accounts/second-factor.ts';
import { readAudit } from '#api/admin/audit.ts';
import { afterAnswerSettled } from '#api/background.ts';
import { provideDatabase } from '#api/db/context.ts';
import { AppError } from '#api/http/errors.ts';
import { provideMailer, type Mailer, type MailMessage } from '#api/mail/index.ts';
import { liveSettings } from '#api/settings/index.ts';
import { POST as ERASE } from '../../src/pages/api/admin/customers/erase.ts';
import { POST as INVITE } from '../../src/pages/api/admin/invitations/index.ts';
import { PATCH as ORDER } from '../../src/pages/api/admin/orders/[id].ts';
import { POST as ADMIN_LOGIN } from '../../src/pages/api/admin/session.ts';
import { POST as REAUTH_ROUTE } from '../../src/pages/api/admin/reauth.ts';
import { PATCH as SETTINGS } from '../../src/pages/api/admin/settings.ts';
import { POST as SETUP } from '../../src/pages/api/admin/second-factor/setup.ts';
import { POST as CONFIRM } from '../../src/pages/api/admin/second-factor/confirm.ts';
import { POST as DISABLE } from '../../src/pages/api/admin/second-factor/disable.ts';
import { POST as LOGIN } from '../../src/pages/api/auth/login.ts';
import { POST as SECOND_FACTOR } from '../../src/pages/api/auth/second-factor.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';
import { ADMIN_PASSWORD, reauthenticate } from '../helpers/reauth.ts';

const ORIGIN = 'http://localhost:4321';
const PASSWORD = 'atelier de Lisbonne 2026';

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

let addressSeq = 0;
const newAddress = () => `198.51.100.${++addressSeq}`;

/** A browser: a cookie jar and a client address, calling endpoints through the middleware. */
class Browser {
  readonly jar = new Map<string, string>();
  readonly ip = newAddress();

  async send(route: APIRoute, method: string, path: string, body?: unknown) {
    const headers = new Headers({ origin: ORIGIN });
    if (body !== undefined) headers.set('content-type', 'application/json');
    const jar = this.jar;
    const response = await callEndpoint(route, {
      request: new Request(`${ORIGIN}${path}`, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
      }),
      clientAddress: this.ip,
      params: { id: path.split('/').pop() },
      cookies: {
        get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined),
        set: (name: string, value: string) => void jar.set(name, value),
        delete: (name: string) => void jar.delete(name),
      } as never,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as never as Body };
  }

  get session() {
    return this.jar.get('session');
  }
}

interface Body {
  ok?: boolean;
  secondFactor?: boolean;
  recoveryCodes?: string[];
  secret?: string;
  uri?: string;
  url?: string;
  error?: { code: string; details?: { method?: string } };
}

/** An administrator with a password, signed in (no second factor yet). */
async function admin(): Promise<{ id: string; email: string; browser: Browser }> {
  const user = await makeUser(t.db, { role: 'admin', password_hash: await passwordHash });
  const browser = new Browser();
  const answer = await browser.send(ADMIN_LOGIN, 'POST', '/api/admin/session', {
    email: user.email,
    password: PASSWORD,
  });
  expect(answer.status).toBe(200);
  return { id: user.id, email: user.email, browser };
}
let passwordHash: Promise<string>;
beforeAll(() => {
  passwordHash = hashPassword(PASSWORD);
});

const stepOf = (now: Date) => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
const codeAt = (key: Uint8Array, step: number) => generateHOTP(key, BigInt(step), 6);

/** A code of the current time the server has not accepted yet (the step after the last used). */
async function freshCode(userId: string, now = new Date()): Promise<string> {
  const row = await t.db
    .selectFrom('totp_credentials')
    .select(['key', 'last_counter'])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const step = Math.max(stepOf(now) - 1, (row.last_counter ?? -1) + 1);
  if (step > stepOf(now) + 1) throw new Error('no unused code left in this 90 s window');
  return codeAt(new Uint8Array(row.key), step);
}

/** Turns an administrator's second factor on through the setup endpoints; its recovery codes. */
async function enable(user: { id: string; browser: Browser }): Promise<string[]> {
  const setup = await user.browser.send(SETUP, 'POST', '/api/admin/second-factor/setup');
  expect(setup.status).toBe(200);
  expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=[A-Z2-7]{32}/);
  const key = decodeBase32IgnorePadding(setup.body.secret!);
  const wrong = await user.browser.send(CONFIRM, 'POST', '/api/admin/second-factor/confirm', {
    code: codeAt(key, stepOf(new Date()) + 5),
  });
  expect(wrong.body.error?.code).toBe('invalid_second_factor');
  const confirmed = await user.browser.send(CONFIRM, 'POST', '/api/admin/second-factor/confirm', {
    code: codeAt(key, stepOf(new Date())),
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.recoveryCodes).toHaveLength(10);
  return confirmed.body.recoveryCodes!;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('the second factor at sign-in', () => {
  it('opens no session after the password, then one after the code, on both login pages', async () => {
    const owner = await admin();
    const recovery = await enable(owner);
    // The back office's login with the app's code, the storefront's with a recovery code.
    for (const [route, path, code] of [
      [ADMIN_LOGIN, '/api/admin/session', () => freshCode(owner.id)],
      [LOGIN, '/api/auth/login', () => Promise.resolve(recovery[0]!)],
    ] as const) {
      const browser = new Browser();
      const first = await browser.send(route, 'POST', path, {
        email: owner.email,
        password: PASSWORD,
      });
      expect(first).toEqual({ status: 200, body: { secondFactor: true } });
      expect(browser.session).toBeUndefined();
      expect(browser.jar.get('login-challenge')).toMatch(/^[a-z2-7]{32}$/);
      // The challenge is stored only hashed.
      const stored = await t.db.selectFrom('login_challenges').select('token_hash').execute();
      expect(JSON.stringify(stored)).not.toContain(browser.jar.get('login-challenge'));

      const wrong = await browser.send(SECOND_FACTOR, 'POST', '/api/auth/second-factor', {
        code: '000000',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error?.code).toBe('invalid_second_factor');
      expect(browser.session).toBeUndefined();

      const used = await code();
      const right = await browser.send(SECOND_FACTOR, 'POST', '/api/auth/second-factor', {
        code: used,
      });
      expect(right.status).toBe(200);
      expect(browser.session).toMatch(/^[a-z2-7]{32}\.[a-z2-7]{32}$/);
      expect(browser.jar.has('login-challenge')).toBe(false);

      // The same code, replayed by someone who saw it, opens nothing. (It used to ask for a code
      // again, which is a fresh valid one whenever a 30-s step begins between the two logins.)
      const thief = new Browser();
      await thief.send(route, 'POST', path, { email: owner.email, password: PASSWORD });
      const replayed = await thief.send(SECOND_FACTOR, 'POST', '/api/auth/second-factor', {
        code: used,
      });
      expect(replayed.body.error?.code).toBe('invalid_second_factor');
      expect(thief.session).toBeUndefined();
    }
  });

  it('refuses a code without a pending sign-in', async () => {
    const owner = await admin();
    await enable(owner);
    const stranger = new Browser();
    const none = await stranger.send(SECOND_FACTOR, 'POST', '/api/auth/second-factor', {
      code: await freshCode(owner.id),
    });
    expect(none).toMatchObject({ status: 400, body: { error: { code: 'invalid_token' } } });
  });

  describe('with a fixed clock', () => {
    const start = new Date('2026-11-26T09:00:10Z');
    const at = (ms: number) => () => new Date(start.getTime() + ms);
    let user: { id: string; email: string };
    let key: Uint8Array;
    let recovery: string[];

    beforeEach(async () => {
      const made = await makeUser(t.db, { role: 'admin', password_hash: await passwordHash });
      user = { id: made.id, email: made.email };
      const setup = await beginTotpSetup({ db: t.db, now: at(0) }, user);
      key = decodeBase32IgnorePadding(setup.secret);
      recovery = (
        await confirmTotpSetup({ db: t.db, now: at(0) }, user, codeAt(key, stepOf(start)), {
          ip: newAddress(),
        })
      ).recoveryCodes;
    });

    async function challenge(now: () => Date) {
      const result = await login(
        { db: t.db, now },
        { email: user.email, password: PASSWORD },
        { ip: newAddress(), requireRole: 'admin' },
      );
      expect(result.secondFactor).toBeDefined();
      return result.secondFactor!.token;
    }

    it('takes a code one step either side, and each step once', async () => {
      const ip = newAddress();
      const s = stepOf(start);
      // The setup used step s: it is spent.
      const token = await challenge(at(0));
      const deps = { db: t.db, now: at(0) };
      expect(await codeOf(completeSecondFactor(deps, token, codeAt(key, s), { ip }))).toBe(
        'invalid_second_factor',
      );
      expect(await codeOf(completeSecondFactor(deps, token, codeAt(key, s + 2), { ip }))).toBe(
        'invalid_second_factor',
      );
      const signedIn = await completeSecondFactor(deps, token, codeAt(key, s + 1), { ip });
      expect(signedIn.user.id).toBe(user.id);
      // A minute later, the code of s + 1 is still in the window (s + 2 - 1): used, refused.
      const later = await challenge(at(60_000));
      expect(
        await codeOf(
          completeSecondFactor({ db: t.db, now: at(60_000) }, later, codeAt(key, s + 1), { ip }),
        ),
      ).toBe('invalid_second_factor');
      await completeSecondFactor({ db: t.db, now: at(60_000) }, later, codeAt(key, s + 2), {
        ip,
      });
    });

    it('lets a pending sign-in wait 5 minutes and take five codes, no more', async () => {
      const ip = newAddress();
      const expired = await challenge(at(0));
      expect(
        await codeOf(
          completeSecondFactor(
            { db: t.db, now: at(CHALLENGE_TTL_MS + 1000) },
            expired,
            codeAt(key, stepOf(at(CHALLENGE_TTL_MS + 1000)())),
            { ip },
          ),
        ),
      ).toBe('invalid_token');

      const token = await challenge(at(0));
      for (let i = 0; i < 5; i++)
        expect(
          await codeOf(completeSecondFactor({ db: t.db, now: at(0) }, token, '123456', { ip })),
        ).toBe('invalid_second_factor');
      // The sixth, even right, finds the challenge void: the password is asked again.
      expect(
        await codeOf(
          completeSecondFactor({ db: t.db, now: at(0) }, token, codeAt(key, stepOf(start) + 1), {
            ip,
          }),
        ),
      ).toBe('invalid_token');
    });

    it('counts wrong codes in the login throttle', async () => {
      const ip = newAddress();
      let refused = '';
      for (let i = 0; i < 8 && refused !== 'rate_limited'; i++) {
        const token = await challenge(at(0)).catch(() => '');
        refused = token
          ? await codeOf(completeSecondFactor({ db: t.db, now: at(0) }, token, '654321', { ip }))
          : 'rate_limited';
      }
      expect(refused).toBe('rate_limited');
    });

    it('takes each recovery code once, audits its use and mails the administrator', async () => {
      const ip = newAddress();
      const deps = { db: t.db, now: at(0), mailer, siteUrl: ORIGIN };
      const [first] = recovery;
      // Typed in capitals, without its hyphens: the same code.
      const typed = first!.replaceAll('-', '').toUpperCase();
      const signedIn = await completeSecondFactor(deps, await challenge(at(0)), typed, { ip });
      await signedIn.delivered;
      await afterAnswerSettled();
      expect(signedIn.session.userId).toBe(user.id);
      expect(await codeOf(completeSecondFactor(deps, await challenge(at(0)), first!, { ip }))).toBe(
        'invalid_second_factor',
      );

      const entries = await readAudit(t.db, { entity: 'user', entityId: user.id });
      expect(entries[0]).toMatchObject({
        action: 'account.recovery_code_used',
        actor: user.email,
        after: { left: 9 },
      });
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to: user.email });
      expect(mails[0]!.subject).toContain('Un code de secours a été utilisé');
      expect(mails[0]!.text).toContain('Il vous reste 9 codes de secours.');
      // Only hashes are kept.
      const stored = await t.db.selectFrom('recovery_codes').select('code_hash').execute();
      expect(JSON.stringify(stored)).not.toContain(first!.replaceAll('-', ''));
    });
  });

  it('turns the factor off only with the password or a code', async () => {
    const owner = await admin();
    await enable(owner);
    const wrong = await owner.browser.send(DISABLE, 'POST', '/api/admin/second-factor/disable', {
      password: 'not the password',
    });
    expect(wrong.body.error?.code).toBe('invalid_credentials');
    const off = await owner.browser.send(DISABLE, 'POST', '/api/admin/second-factor/disable', {
      password: PASSWORD,
    });
    expect(off.status).toBe(200);
    const browser = new Browser();
    const again = await browser.send(ADMIN_LOGIN, 'POST', '/api/admin/session', {
      email: owner.email,
      password: PASSWORD,
    });
    expect(again.body.ok).toBe(true);
    expect(browser.session).toBeDefined();
  });
});

describe('re-authentication before the sensitive actions', () => {
  function expectRefused(answer: { status: number; body: Body }, method = 'password') {
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'reauth_required', details: { method } });
  }

  async function stale(browser: Browser) {
    const [id] = browser.session!.split('.');
    await t.db
      .updateTable('sessions')
      .set({ reauthenticated_at: new Date(Date.now() - REAUTH_TTL_MS - 1000) })
      .where('id', '=', id!)
      .execute();
  }

  it('erasing a customer', async () => {
    const owner = await admin();
    const customer = await makeUser(t.db, { full_name: 'Client Effacé' });
    const body = { email: customer.email, confirmation: customer.email };
    expectRefused(await owner.browser.send(ERASE, 'POST', '/api/admin/customers/erase', body));
    expect(await t.db.selectFrom('users').where('id', '=', customer.id).execute()).toHaveLength(1);

    const wrong = await owner.browser.send(REAUTH_ROUTE, 'POST', '/api/admin/reauth', {
      password: 'wrong password',
    });
    expect(wrong.body.error?.code).toBe('invalid_credentials');
    const reauth = await owner.browser.send(REAUTH_ROUTE, 'POST', '/api/admin/reauth', {
      password: PASSWORD,
    });
    expect(reauth.status).toBe(200);
    const erased = await owner.browser.send(ERASE, 'POST', '/api/admin/customers/erase', body);
    expect(erased.status).toBe(200);
    expect(await t.db.selectFrom('users').where('id', '=', customer.id).execute()).toHaveLength(0);
  });

  it('refunding an order (other status changes need nothing)', async () => {
    const owner = await admin();
    const work = await makeArtwork(t.db);
    const order = await makeOrder(t.db, {
      lines: [{ artworkId: work.id, type: 'print', unitPriceCents: 12_000, title: 'Le Tage' }],
    });
    const path = `/api/admin/orders/${order.id}`;
    expectRefused(
      await owner.browser.send(ORDER, 'PATCH', path, {
        status: 'cancelled',
        refund: true,
        restock: false,
      }),
    );
    const row = () =>
      t.db.selectFrom('orders').select(['status', 'refunded_cents']).where('id', '=', order.id);
    const untouched = await row().executeTakeFirstOrThrow();
    expect(untouched.status).not.toBe('cancelled');
    const shipped = await owner.browser.send(ORDER, 'PATCH', path, { status: 'shipped' });
    expect(shipped.status).toBe(200);

    await owner.browser.send(REAUTH_ROUTE, 'POST', '/api/admin/reauth', { password: PASSWORD });
    const refund = await owner.browser.send(ORDER, 'PATCH', path, {
      status: 'cancelled',
      refund: true,
      restock: false,
    });
    // Past the guard: what happens now is the refund's own business (no payment provider here).
    expect(refund.body.error?.code).not.toBe('reauth_required');
    await stale(owner.browser);
    expectRefused(
      await owner.browser.send(ORDER, 'PATCH', path, {
        status: 'cancelled',
        refund: true,
        restock: false,
      }),
    );
  });

  it('changing payment settings (currency, shipping), not the others', async () => {
    const owner = await admin();
    const before = await liveSettings(t.db);
    expectRefused(
      await owner.browser.send(SETTINGS, 'PATCH', '/api/admin/settings', {
        currency: before.currency === 'EUR' ? 'USD' : 'EUR',
      }),
    );
    expectRefused(
      await owner.browser.send(SETTINGS, 'PATCH', '/api/admin/settings', {
        site_title: 'Atelier renommé',
        shipping_info: { default_cost_cents: 1, free_threshold_cents: 2 },
      }),
    );
    // Nothing of a refused save is kept, the title included.
    expect((await liveSettings(t.db)).site_title).toBe(before.site_title);
    // The same values saved again, or another tab: no question asked.
    const same = await owner.browser.send(SETTINGS, 'PATCH', '/api/admin/settings', {
      currency: before.currency,
      shipping_info: before.shipping_info,
      site_title: 'Atelier renommé',
    });
    expect(same.status).toBe(200);

    await owner.browser.send(REAUTH_ROUTE, 'POST', '/api/admin/reauth', { password: PASSWORD });
    const saved = await owner.browser.send(SETTINGS, 'PATCH', '/api/admin/settings', {
      shipping_info: { default_cost_cents: 990, free_threshold_cents: 40_000 },
    });
    expect(saved.status).toBe(200);
    expect((await liveSettings(t.db)).shipping_info.default_cost_cents).toBe(990);
  });

  it('inviting an administrator, audited; with the factor on, the code is asked', async () => {
    const owner = await admin();
    await enable(owner);
    const email = `new-admin-${Date.now()}@example.test`;
    expectRefused(
      await owner.browser.send(INVITE, 'POST', '/api/admin/invitations', { email }),
      'code',
    );
    // The password alone is not the proof once a second factor is on.
    const password = await owner.browser.send(REAUTH_ROUTE, 'POST', '/api/admin/reauth', {
      password: PASSWORD,
    });
    expect(password.status).toBe(400);
    const reauth = await owner.browser.send(REAUTH_ROUTE, 'POST', '/api/admin/reauth', {
      code: await freshCode(owner.id),
    });
    expect(reauth.status).toBe(200);
    const invited = await owner.browser.send(INVITE, 'POST', '/api/admin/invitations', { email });
    expect(invited.status).toBe(201);
    expect(invited.body.url).toMatch(/\/admin\/invitation\?token=[a-z2-7]{32}$/);
    const [entry] = await readAudit(t.db, { entity: 'invitation' });
    expect(entry).toMatchObject({ action: 'admin.invite', actor: owner.email, entityId: email });
  });

  it('the factory’s administrators re-authenticate with the helper other tests use', async () => {
    const made = await makeUser(t.db, { role: 'admin' });
    expect((await reauthenticate(t.db, made)).status).toBe(200);
    expect(ADMIN_PASSWORD).toBeTruthy();
  });
});
