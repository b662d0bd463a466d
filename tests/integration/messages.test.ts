// "Ask about this work" and the back office's Messages (issue 25, docs/decisions/042): an enquiry
// reaches the gallery's mailbox (.eml) and the messages table, names its work as the database has
// it, shares the contact form's limits; the Messages endpoints list, page and mark read, for
// administrators only; the dashboard counts what is unread.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dashboard } from '#api/admin/dashboard.ts';
import { CONTACT_RATE_LIMITS, submitContactMessage } from '#api/contact/index.ts';
import { provideDatabase } from '#api/db/context.ts';
import { createMailer, provideMailer } from '#api/mail/index.ts';
import { MESSAGES_PAGE_SIZE, type MessageList } from '../../src/schemas/admin-messages.ts';
import { POST as CONTACT } from '../../src/pages/api/contact.ts';
import { POST as ENQUIRY } from '../../src/pages/api/enquiry.ts';
import { GET as LIST } from '../../src/pages/api/admin/messages/index.ts';
import { PATCH as MARK } from '../../src/pages/api/admin/messages/[id].ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeUser } from '../helpers/factories.ts';
import { mailsTo } from '../helpers/mail.ts';

const ORIGIN = 'http://localhost:4321';
const OWNER = 'galerie@atelier-messages.example';

let t: TestDatabase;
let dataDir: string;
let mailDir: string;
let work: { id: number; slug: string; key: string };
let admin: { token: string };
let customer: { token: string };
let sequence = 0;

function post(
  route: APIRoute,
  url: string,
  body: unknown,
  options: { ip?: string; form?: boolean; origin?: string } = {},
) {
  const form = options.form === true;
  return callEndpoint(route, {
    request: new Request(`${ORIGIN}${url}`, {
      method: 'POST',
      headers: {
        origin: options.origin ?? ORIGIN,
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      },
      body: form
        ? new URLSearchParams(body as Record<string, string>).toString()
        : JSON.stringify(body),
    }),
    clientAddress: options.ip ?? `198.51.100.${(sequence % 200) + 1}`,
  });
}

function admincall(
  route: APIRoute,
  url: string,
  options: {
    token?: string | undefined;
    method?: string;
    body?: unknown;
    id?: string | undefined;
  } = {},
) {
  const headers = new Headers({ origin: ORIGIN });
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  return callEndpoint(route, {
    request: new Request(`${ORIGIN}${url}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
    }),
    cookies: {
      get: (name: string) =>
        name === 'session' && options.token ? { value: options.token } : undefined,
    } as never,
    params: { id: options.id },
  });
}

function enquiry(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    name: 'Inès Collectionneuse',
    email: `ines.${sequence}@example.fr`,
    message: `Bonjour,\nl’original est-il encadré ? (demande ${sequence})`,
    work: work.key,
    locale: 'fr',
    ...overrides,
  };
}

const stored = () =>
  t.db.selectFrom('contact_messages').selectAll().orderBy('created_at', 'desc').execute();

beforeAll(async () => {
  t = await createTestDatabase();
  provideDatabase(t);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-messages-'));
  mailDir = path.join(dataDir, 'mail');
  provideMailer(createMailer({ smtpUrl: undefined, dataDir }));
  await t.db
    .insertInto('site_settings')
    .values({ key: 'contact_email', value: JSON.stringify(OWNER) })
    .execute();
  const made = await makeArtwork(t.db, {
    title_fr: 'Le grand large',
    title_en: 'The open sea',
  });
  work = { ...made, key: made.slug.replace(/-original$/, '') };
  admin = await makeUser(t.db, { role: 'admin' });
  customer = await makeUser(t.db);
});
afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
  await t.dispose();
});
beforeEach(async () => {
  await t.db.deleteFrom('rate_limits').execute();
  await t.db.deleteFrom('contact_messages').execute();
  await fs.rm(mailDir, { recursive: true, force: true });
});

describe('POST /api/enquiry', () => {
  it('mails the enquiry to the gallery (.eml) and stores it, naming the work from the database', async () => {
    const sent = enquiry({ email: 'Ines@Example.fr' });
    const response = await post(ENQUIRY, '/api/enquiry', sent);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ ok: true });

    const mails = mailsTo(mailDir, OWNER);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.headers).toMatch(/^Reply-To: .*<Ines@Example\.fr>/im);
    expect(mail.text).toContain('Œuvre\u00a0: Le grand large');
    expect(mail.text).toContain(`/oeuvres/${work.key}`);
    expect(mail.text.replace(/\r\n/g, '\n')).toContain(sent.message);

    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'enquiry',
      artwork_id: work.id,
      work_title: 'Le grand large',
      subject: null,
      name: 'Inès Collectionneuse',
      email: 'Ines@Example.fr',
      message: sent.message,
      locale: 'fr',
      read_at: null,
      delivery_error: null,
    });
    expect(rows[0]!.delivered_at).toBeInstanceOf(Date);
    expect(mail.text).toContain(`Référence\u00a0: ${rows[0]!.id}`);
    // Issue 26: received in Paris time, not ISO UTC.
    expect(mail.text).toMatch(/Reçu le\u00a0: .+ \(heure de Paris\)/);
    expect(mail.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });

  it('never takes a title from the browser', async () => {
    const response = await post(ENQUIRY, '/api/enquiry', { ...enquiry(), title: 'Faux titre' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_input' } });
    expect(await stored()).toEqual([]);
    expect(mailsTo(mailDir, OWNER)).toEqual([]);
  });

  it('refuses an unknown or hidden work with 404, storing and mailing nothing', async () => {
    const hidden = await makeArtwork(t.db, { is_available: false });
    for (const key of ['aucune-oeuvre', hidden.slug.replace(/-original$/, '')]) {
      const response = await post(ENQUIRY, '/api/enquiry', enquiry({ work: key }));
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    const malformed = await post(ENQUIRY, '/api/enquiry', enquiry({ work: '../admin' }));
    expect(malformed.status).toBe(400);
    expect(await stored()).toEqual([]);
    expect(mailsTo(mailDir, OWNER)).toEqual([]);
  });

  it('refuses a filled honeypot and an oversized body like the contact form', async () => {
    const bot = await post(ENQUIRY, '/api/enquiry', enquiry({ website: 'https://spam.example' }));
    expect(bot.status).toBe(400);
    expect(await bot.json()).toMatchObject({ error: { code: 'rejected' } });
    const big = await post(ENQUIRY, '/api/enquiry', enquiry({ message: 'x'.repeat(40_000) }));
    expect(big.status).toBe(413);
    const long = await post(ENQUIRY, '/api/enquiry', enquiry({ message: 'x'.repeat(5001) }));
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({
      error: { fields: { message: 'contact.error.message' } },
    });
    expect(await stored()).toEqual([]);
  });

  it('shares the contact form’s limit: 3 messages an hour per address, whichever form', async () => {
    const email = 'pressee@example.fr';
    const contact = {
      name: 'Pressée',
      email,
      subject: 'information',
      message: 'Bonjour',
      locale: 'fr',
    };
    expect((await post(CONTACT, '/api/contact', contact, { ip: '192.0.2.1' })).status).toBe(201);
    expect((await post(CONTACT, '/api/contact', contact, { ip: '192.0.2.2' })).status).toBe(201);
    expect(
      (await post(ENQUIRY, '/api/enquiry', enquiry({ email }), { ip: '192.0.2.3' })).status,
    ).toBe(201);
    const refused = await post(ENQUIRY, '/api/enquiry', enquiry({ email }), { ip: '192.0.2.4' });
    expect(CONTACT_RATE_LIMITS.perEmail.limit).toBe(3);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // And the network's: 10 from one address, both forms counted.
    await t.db.deleteFrom('rate_limits').execute();
    for (let i = 0; i < CONTACT_RATE_LIMITS.perIp.limit; i++) {
      const route = i % 2 ? CONTACT : ENQUIRY;
      const body = i % 2 ? { ...contact, email: `n${i}@example.fr` } : enquiry();
      const url = i % 2 ? '/api/contact' : '/api/enquiry';
      expect((await post(route, url, body, { ip: '203.0.113.9' })).status).toBe(201);
    }
    const network = await post(ENQUIRY, '/api/enquiry', enquiry(), { ip: '203.0.113.9' });
    expect(network.status).toBe(429);
  });

  it('keeps the enquiry when the mail fails, and the screen says so', async () => {
    const logged = vi.mocked(console.error).mockImplementation(() => {});
    const broken = { description: 'broken', send: () => Promise.reject(new Error('SMTP down')) };
    provideMailer(broken);
    try {
      const response = await post(ENQUIRY, '/api/enquiry', enquiry({ name: 'Gardée' }));
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ error: { code: 'delivery_failed' } });
    } finally {
      provideMailer(createMailer({ smtpUrl: undefined, dataDir }));
    }
    const [row] = await stored();
    expect(row).toMatchObject({ name: 'Gardée', kind: 'enquiry', delivered_at: null });
    expect(row!.delivery_error).toContain('SMTP down');
    expect(logged).toHaveBeenCalledWith(expect.stringContaining(row!.id));
    const list = (await (
      await admincall(LIST, '/api/admin/messages', { token: admin.token })
    ).json()) as MessageList;
    expect(list.messages[0]).toMatchObject({ name: 'Gardée', deliveryFailed: true });
  });

  it('sends a form posted without JavaScript back to the work’s page', async () => {
    const sent = await post(
      ENQUIRY,
      '/api/enquiry',
      { ...enquiry({ locale: 'en' }), website: '' },
      { form: true },
    );
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/en/works/${work.key}#enquiry-result-sent`);
    const unknown = await post(
      ENQUIRY,
      '/api/enquiry',
      { ...enquiry({ work: 'disparue' }), website: '' },
      { form: true },
    );
    expect(unknown.headers.get('location')).toBe('/oeuvres/disparue#enquiry-result-not_found');
    const invalid = await post(
      ENQUIRY,
      '/api/enquiry',
      { ...enquiry({ email: 'nope' }), website: '' },
      { form: true },
    );
    expect(invalid.headers.get('location')).toBe(
      `/oeuvres/${work.key}#enquiry-result-invalid_input`,
    );
    // A work key that is no key never reaches the address sent back.
    const hostile = await post(
      ENQUIRY,
      '/api/enquiry',
      { ...enquiry({ work: '//evil.example' }), website: '' },
      { form: true },
    );
    expect(hostile.headers.get('location')).toBe('/gallery');
  });
});

describe('contact messages are kept as messages too', () => {
  it('stores a contact message with its kind and no work', async () => {
    const mailer = createMailer({ smtpUrl: undefined, dataDir });
    await submitContactMessage(
      { db: t.db, mailer },
      {
        name: 'Paul',
        email: 'paul@example.fr',
        subject: 'private_visit',
        message: 'Une visite samedi ?',
        locale: 'fr',
      },
      { ip: '192.0.2.77' },
    );
    const [row] = await stored();
    expect(row).toMatchObject({
      kind: 'contact',
      subject: 'private_visit',
      artwork_id: null,
      work_title: null,
      read_at: null,
    });
    expect(mailsTo(mailDir, OWNER)).toHaveLength(1);
  });
});

describe('the Messages endpoints', () => {
  async function seed(count: number) {
    const base = Date.parse('2026-11-20T08:00:00Z');
    await t.db
      .insertInto('contact_messages')
      .values(
        Array.from({ length: count }, (_, i) =>
          i % 2
            ? {
                kind: 'contact',
                subject: 'purchase',
                name: `Contact ${i}`,
                email: `c${i}@example.fr`,
                message: `Message ${i}`,
                locale: 'en',
                created_at: new Date(base + i * 60_000),
              }
            : {
                kind: 'enquiry',
                artwork_id: work.id,
                work_title: 'Le grand large',
                name: `Enquiry ${i}`,
                email: `e${i}@example.fr`,
                message: `Question ${i}`,
                locale: 'fr',
                created_at: new Date(base + i * 60_000),
              },
        ),
      )
      .execute();
  }
  const list = async (query = '', token: string | undefined = admin.token) => {
    const response = await admincall(LIST, `/api/admin/messages${query}`, { token });
    expect(response.status).toBe(200);
    return (await response.json()) as MessageList;
  };

  it('lists newest first, a bounded page at a time, with the work’s page and a reply subject', async () => {
    await seed(MESSAGES_PAGE_SIZE + 5);
    const first = await list();
    expect(first).toMatchObject({ page: 1, pages: 2, matching: 25, unread: 25, filter: 'all' });
    expect(first.messages).toHaveLength(MESSAGES_PAGE_SIZE);
    expect(first.messages[0]!.name).toBe('Enquiry 24');
    const times = first.messages.map((m) => m.receivedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(first.messages[0]).toMatchObject({
      kind: 'enquiry',
      work: { title: 'Le grand large', href: `/oeuvres/${work.key}` },
      subject: null,
      readAt: null,
      replySubject: 'Votre demande sur « Le grand large »',
    });
    expect(first.messages[1]).toMatchObject({
      kind: 'contact',
      work: null,
      subject: 'Achat d’une œuvre',
      locale: 'en',
      replySubject: 'Your message to the gallery – Buying a work',
    });
    expect((await list('?page=2')).messages).toHaveLength(5);
    // Past the end: the last page; nonsense: the defaults.
    expect((await list('?page=50000')).page).toBe(2);
    expect((await list('?page=99999999999&filter=x')).page).toBe(1);
    expect((await list('?page=-4')).page).toBe(1);
  });

  it('marks read on opening, keeps the first reading, toggles back, filters unread', async () => {
    await seed(3);
    const [newest] = (await list()).messages;
    const read = await admincall(MARK, `/api/admin/messages/${newest!.id}`, {
      token: admin.token,
      method: 'PATCH',
      body: { read: true },
      id: newest!.id,
    });
    expect(read.status).toBe(200);
    const answer = (await read.json()) as { message: { readAt: string | null }; unread: number };
    expect(answer.unread).toBe(2);
    expect(answer.message.readAt).not.toBeNull();
    const again = (await (
      await admincall(MARK, `/api/admin/messages/${newest!.id}`, {
        token: admin.token,
        method: 'PATCH',
        body: { read: true },
        id: newest!.id,
      })
    ).json()) as typeof answer;
    expect(again.message.readAt).toBe(answer.message.readAt);

    const unread = await list('?filter=unread');
    expect(unread.matching).toBe(2);
    expect(unread.messages.map((m) => m.id)).not.toContain(newest!.id);
    expect((await dashboard(t.db)).unreadMessages).toBe(2);

    const back = (await (
      await admincall(MARK, `/api/admin/messages/${newest!.id}`, {
        token: admin.token,
        method: 'PATCH',
        body: { read: false },
        id: newest!.id,
      })
    ).json()) as typeof answer;
    expect(back).toMatchObject({ unread: 3, message: { readAt: null } });
    expect((await dashboard(t.db)).unreadMessages).toBe(3);
  });

  it('answers 4xx JSON to a bad id or body', async () => {
    await seed(1);
    const [message] = (await list()).messages;
    const cases: [string | undefined, unknown, number, string][] = [
      ['00000000-0000-4000-8000-000000000000', { read: true }, 404, 'not_found'],
      ['not-a-uuid', { read: true }, 404, 'not_found'],
      [message!.id, { read: 'yes' }, 400, 'invalid_input'],
      [message!.id, { read: true, extra: 1 }, 400, 'invalid_input'],
    ];
    for (const [id, body, status, code] of cases) {
      const response = await admincall(MARK, `/api/admin/messages/${id}`, {
        token: admin.token,
        method: 'PATCH',
        body,
        id,
      });
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: { code } });
    }
  });

  it('refuses anyone but an administrator, and a foreign origin', async () => {
    await seed(1);
    const [message] = (await list()).messages;
    for (const token of [undefined, customer.token]) {
      const response = await admincall(LIST, '/api/admin/messages', { token });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'forbidden' } });
      const mark = await admincall(MARK, `/api/admin/messages/${message!.id}`, {
        token,
        method: 'PATCH',
        body: { read: true },
        id: message!.id,
      });
      expect(mark.status).toBe(403);
    }
    const foreign = await callEndpoint(MARK, {
      request: new Request(`${ORIGIN}/api/admin/messages/${message!.id}`, {
        method: 'PATCH',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        body: JSON.stringify({ read: true }),
      }),
      cookies: {
        get: (name: string) => (name === 'session' ? { value: admin.token } : undefined),
      } as never,
      params: { id: message!.id },
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: 'forbidden_origin' } });
    expect((await list('?filter=unread')).unread).toBe(1);
  });
});
