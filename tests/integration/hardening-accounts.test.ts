// Issue 14 §1, "Lockout as a weapon", through the real endpoints and middleware against a real
// database: wrong passwords from one client address lock that address out of the account, never
// its owner elsewhere; the account itself locks only past a limit one address cannot reach; the
// owner can always reset the password, which lifts every lock; and the most common passwords are
// refused wherever a password is chosen (signup, reset, change, admin invitation), with the field
// error the forms show under the password.
import type { APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MAIL_LIMITS, createAdminInvitation } from '#api/accounts/index.ts';
import { isCommonPassword, PASSWORD_TOO_COMMON } from '#api/accounts/passwords.ts';
import { LOGIN_THROTTLE } from '#api/accounts/throttle.ts';
import { provideDatabase } from '#api/db/context.ts';
import { provideMailer, type Mailer, type MailMessage } from '#api/mail/index.ts';
import { POST as CHANGE_PASSWORD } from '../../src/pages/api/account/password.ts';
import { POST as ACCEPT_INVITATION } from '../../src/pages/api/admin/invitations/accept.ts';
import { POST as ADMIN_LOGIN } from '../../src/pages/api/admin/session.ts';
import { POST as LOGIN } from '../../src/pages/api/auth/login.ts';
import { POST as FORGOT } from '../../src/pages/api/auth/password/forgot.ts';
import { POST as RESET } from '../../src/pages/api/auth/password/reset.ts';
import { POST as SIGNUP } from '../../src/pages/api/auth/signup.ts';
import { GET as VERIFY } from '../../src/pages/api/auth/verify-email.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';

const ORIGIN = 'http://localhost:4321';
/** Six characters, in no list: the spec's minimum is all a password needs besides not being common. */
const SHORT_UNCOMMON = 'k7#qz!';

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
/** A fresh documentation address (IPv4, or an IPv6 /64 of its own) per client. */
function newAddress(): string {
  addressSeq += 1;
  return `203.0.${Math.floor(addressSeq / 250)}.${(addressSeq % 250) + 1}`;
}

let emailSeq = 0;
function newEmail(name: string): string {
  emailSeq += 1;
  return `${name}.${emailSeq}.${Date.now()}@example.test`;
}

interface Answer {
  status: number;
  retryAfter: number | null;
  body: { error?: { code?: string; fields?: Record<string, string> } } | null;
}

/** A browser at one client address, keeping its cookies. */
class Client {
  readonly jar = new Map<string, string>();
  readonly ip: string;
  constructor(ip: string = newAddress()) {
    this.ip = ip;
  }

  async post(route: APIRoute, path: string, body: unknown): Promise<Answer> {
    const jar = this.jar;
    const response = await callEndpoint(route, {
      request: new Request(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      clientAddress: this.ip,
      cookies: {
        get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined),
        has: (name: string) => jar.has(name),
        set: (name: string, value: unknown) => void jar.set(name, String(value)),
        delete: (name: string) => void jar.delete(name),
      } as never,
    });
    const text = await response.text();
    const retryAfter = response.headers.get('retry-after');
    return {
      status: response.status,
      retryAfter: retryAfter === null ? null : Number(retryAfter),
      body: text ? (JSON.parse(text) as Answer['body']) : null,
    };
  }

  login(email: string, password: string, route: APIRoute = LOGIN) {
    return this.post(route, route === LOGIN ? '/api/auth/login' : '/api/admin/session', {
      email,
      password,
    });
  }

  forgot(email: string) {
    return this.post(FORGOT, '/api/auth/password/forgot', { email, locale: 'en' });
  }

  reset(token: string, password: string) {
    return this.post(RESET, '/api/auth/password/reset', {
      token,
      password,
      confirmPassword: password,
    });
  }

  signup(email: string, password: string) {
    return this.post(SIGNUP, '/api/auth/signup', {
      email,
      password,
      confirmPassword: password,
      fullName: 'Ana Buyer',
      locale: 'fr',
    });
  }
}

/** The mails to `email` once there are `count` of them (they leave after the answer). */
function mailsTo(email: string, count: number): Promise<MailMessage[]> {
  return vi.waitFor(
    () => {
      const found = mails.filter((m) => m.to === email);
      if (found.length < count) throw new Error(`${found.length} mail(s) to ${email} so far`);
      return found;
    },
    { timeout: 120_000 },
  );
}

/** The reset link mailed to `email` after `client` asked for one. */
async function resetToken(client: Client, email: string): Promise<string> {
  mails.length = 0;
  expect((await client.forgot(email)).status).toBe(200);
  const [mail] = await mailsTo(email, 1);
  const token = /reset-password\?token=([a-z2-7]{32})/.exec(mail!.text)?.[1];
  if (!token) throw new Error(`no reset link in:\n${mail!.text}`);
  return token;
}

/**
 * A customer signed up through the real endpoint, with an uncommon password, and its address
 * verified by the mail's link (an unverified account cannot sign in: docs/decisions/038).
 */
async function customer(): Promise<{ email: string; password: string }> {
  const email = newEmail('owner');
  const password = `toile de lin ${emailSeq}`;
  expect((await new Client().signup(email, password)).status).toBe(201);
  await openVerificationLink(email);
  return { email, password };
}

/** The verification mail of a signup, opened elsewhere, and out of the way of the reset links. */
async function openVerificationLink(email: string): Promise<void> {
  const [mail] = await mailsTo(email, 1);
  const link = /https?:\/\/[^\s/]+(\/api\/auth\/verify-email\?token=[a-z2-7]{32})/.exec(
    mail!.text,
  )?.[1];
  if (!link) throw new Error(`no verification link in:\n${mail!.text}`);
  const opened = await callEndpoint(VERIFY, {
    request: new Request(new URL(link, 'http://localhost:4321')),
  });
  expect(opened.headers.get('location')).toBe('/login?emailVerified=1');
}

const tooCommon = { error: { code: 'invalid_input', fields: { password: PASSWORD_TOO_COMMON } } };

describe('login throttle keyed on (account, client address)', () => {
  it('locks an attacking address out of the account, never the owner signing in from elsewhere', async () => {
    const owner = await customer();
    const attacker = new Client();
    const free = LOGIN_THROTTLE.accountAddress.freeFailures;
    for (let i = 0; i < free; i++)
      expect((await attacker.login(owner.email, `guess ${i}`)).status).toBe(401);
    for (let i = 0; i < 3; i++) {
      const refused = await attacker.login(owner.email, `guess ${free + i}`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: { code: 'rate_limited' } });
      expect(refused.retryAfter).toBeGreaterThan(0);
    }
    // Even the right password is refused from the attacking address while its lock lasts…
    expect((await attacker.login(owner.email, owner.password)).status).toBe(429);
    // …while the owner, from their own address, signs in at once.
    const home = new Client();
    const signedIn = await home.login(owner.email, owner.password);
    expect(signedIn.status).toBe(200);
    expect(home.jar.get('session')).toMatch(/./);
    // The lock is that account's only: the same address still reaches other accounts.
    const other = await customer();
    expect((await attacker.login(other.email, other.password)).status).toBe(200);
  });

  it('does the same for the back office login', async () => {
    const email = newEmail('admin');
    const password = 'atelier du port 9';
    const invitation = await createAdminInvitation(t.db, email, { siteUrl: ORIGIN });
    const token = new URL(invitation.url).searchParams.get('token')!;
    const accepted = await new Client().post(ACCEPT_INVITATION, '/api/admin/invitations/accept', {
      token,
      fullName: 'Gallery Owner',
      password,
      confirmPassword: password,
    });
    expect(accepted.status).toBe(201);
    const attacker = new Client();
    for (let i = 0; i < LOGIN_THROTTLE.accountAddress.freeFailures; i++)
      expect((await attacker.login(email, `guess ${i}`, ADMIN_LOGIN)).status).toBe(401);
    expect((await attacker.login(email, password, ADMIN_LOGIN)).status).toBe(429);
    expect((await new Client().login(email, password, ADMIN_LOGIN)).status).toBe(200);
  });

  it('locks the account for everyone only past the account-wide limit, which a password reset lifts', async () => {
    const owner = await customer();
    const { account, accountAddress } = LOGIN_THROTTLE;
    const bots = async (count: number, failuresEach: number) => {
      for (let a = 0; a < count; a++) {
        const bot = new Client();
        for (let i = 0; i < failuresEach; i++)
          expect((await bot.login(owner.email, `bot ${a} guess ${i}`)).status).toBe(401);
      }
    };
    // Ten addresses, each spending all the failures it may, do not keep the owner out…
    await bots(10, accountAddress.freeFailures);
    expect((await new Client().login(owner.email, owner.password)).status).toBe(200);
    // …enough of them to reach the account-wide limit do.
    const left = account.freeFailures - 10 * accountAddress.freeFailures;
    await bots(Math.floor(left / accountAddress.freeFailures), accountAddress.freeFailures);
    await bots(1, left % accountAddress.freeFailures);
    // Now the account is locked from any address, for the account rule's first delay.
    const locked = await new Client().login(owner.email, owner.password);
    expect(locked.status).toBe(429);
    expect(locked.retryAfter).toBeGreaterThan(0);
    expect(locked.retryAfter).toBeLessThanOrEqual(account.baseDelaySeconds);

    // The owner resets the password while locked: the link is mailed, the new password set…
    const home = new Client();
    const token = await resetToken(home, owner.email);
    const newPassword = 'une toile bleue 42';
    expect((await home.reset(token, newPassword)).status).toBe(200);
    // …and every lock of the account is gone.
    expect((await home.login(owner.email, newPassword)).status).toBe(200);
  });

  it('lets an owner sharing the attacker’s address reset the password and sign in there', async () => {
    const owner = await customer();
    const sharedAddress = new Client();
    for (let i = 0; i < LOGIN_THROTTLE.accountAddress.freeFailures; i++)
      expect((await sharedAddress.login(owner.email, `guess ${i}`)).status).toBe(401);
    expect((await sharedAddress.login(owner.email, owner.password)).status).toBe(429);

    const token = await resetToken(sharedAddress, owner.email);
    const newPassword = 'une toile verte 17';
    expect((await sharedAddress.reset(token, newPassword)).status).toBe(200);
    expect((await sharedAddress.login(owner.email, newPassword)).status).toBe(200);
  });

  it('lets the owner get a reset link even after someone else used up their own quota for it', async () => {
    const owner = await customer();
    const attacker = new Client();
    let refused: Answer | undefined;
    for (let i = 0; i <= ACCOUNT_MAIL_LIMITS.perEmailFromIp.limit && !refused; i++) {
      const answer = await attacker.forgot(owner.email);
      if (answer.status === 429) refused = answer;
      else expect(answer.status).toBe(200);
    }
    expect(refused?.body).toMatchObject({ error: { code: 'rate_limited' } });
    // The verification mail, then the links the attacker got.
    await mailsTo(owner.email, 1 + ACCOUNT_MAIL_LIMITS.perEmailFromIp.limit);
    const token = await resetToken(new Client(), owner.email);
    expect(token).toMatch(/^[a-z2-7]{32}$/);
  });
});

describe('common passwords refused wherever a password is chosen', () => {
  it('uses passwords that are in the list and one that is not', () => {
    for (const common of ['password', 'Password123', 'azerty', 'iloveyou', 'Marseille'])
      expect(isCommonPassword(common), common).toBe(true);
    expect(isCommonPassword(SHORT_UNCOMMON)).toBe(false);
  });

  it('refuses one at signup with the password field error, creating nothing and mailing nobody', async () => {
    const email = newEmail('common');
    const answer = await new Client().signup(email, 'Password123');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject(tooCommon);
    const users = await t.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toEqual([]);
    expect(mails.filter((m) => m.to === email)).toEqual([]);
  });

  it('accepts an uncommon password of the minimum 6 characters at signup', async () => {
    const email = newEmail('short');
    expect((await new Client().signup(email, SHORT_UNCOMMON)).status).toBe(201);
    await openVerificationLink(email);
    expect((await new Client().login(email, SHORT_UNCOMMON)).status).toBe(200);
  });

  it('refuses one at reset, leaving the link usable for a better one', async () => {
    const owner = await customer();
    const home = new Client();
    const token = await resetToken(home, owner.email);
    const refused = await home.reset(token, 'azerty');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject(tooCommon);
    expect((await home.login(owner.email, owner.password)).status).toBe(200);
    expect((await home.reset(token, SHORT_UNCOMMON)).status).toBe(200);
    expect((await home.login(owner.email, SHORT_UNCOMMON)).status).toBe(200);
  });

  it('refuses one at password change, before the current password is even checked', async () => {
    const owner = await customer();
    const home = new Client();
    expect((await home.login(owner.email, owner.password)).status).toBe(200);
    const change = (currentPassword: string, password: string) =>
      home.post(CHANGE_PASSWORD, '/api/account/password', {
        currentPassword,
        password,
        confirmPassword: password,
      });
    // More refusals than the free failures: none of them counts as a wrong password.
    for (let i = 0; i <= LOGIN_THROTTLE.accountAddress.freeFailures; i++) {
      const refused = await change(`not it ${i}`, 'iloveyou');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject(tooCommon);
    }
    expect((await change(owner.password, SHORT_UNCOMMON)).status).toBe(200);
    expect((await new Client().login(owner.email, SHORT_UNCOMMON)).status).toBe(200);
  });

  it('refuses one when accepting an admin invitation, leaving the invitation usable', async () => {
    const email = newEmail('new-admin');
    const invitation = await createAdminInvitation(t.db, email, { siteUrl: ORIGIN });
    const token = new URL(invitation.url).searchParams.get('token')!;
    const accept = (password: string) =>
      new Client().post(ACCEPT_INVITATION, '/api/admin/invitations/accept', {
        token,
        fullName: 'Gallery Owner',
        password,
        confirmPassword: password,
      });
    const refused = await accept('Marseille');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject(tooCommon);
    expect((await accept(SHORT_UNCOMMON)).status).toBe(201);
  });
});
