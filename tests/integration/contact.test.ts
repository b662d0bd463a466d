// The contact form really delivers: messages reach contact_messages and a real SMTP server
// (smtp-server on 127.0.0.1), bots and floods are refused, and a failed delivery keeps the message.
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONTACT_RATE_LIMITS,
  ipBucket,
  submitContactMessage,
  type ContactMessageInput,
} from '#api/contact/index.ts';
import { provideDatabase } from '#api/db/context.ts';
import { AppError, type ErrorCode } from '#api/http/errors.ts';
import { createMailer, provideMailer, type Mailer } from '#api/mail/index.ts';
import { hit, pruneRateLimits, rateLimitKey } from '#api/ratelimit/index.ts';
import { POST } from '../../src/pages/api/contact.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';

const OWNER = 'owner@atelier-test.example';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP receiver, plain text (no STARTTLS), collecting what it is sent. */
async function startSmtp(): Promise<{ url: string; received: Received[]; stop(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Header value, unfolded, with RFC 2047 encoded words decoded. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (line === undefined) return undefined;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`)
    .replace(/%(?![0-9A-F]{2})/gi, '%25');
  return decodeURIComponent(bytes);
}

/** The text body, decoded from its transfer encoding. */
function body(raw: string): string {
  const [, ...rest] = raw.split(/\r?\n\r?\n/);
  const text = rest.join('\n\n');
  const encoding = header(raw, 'Content-Transfer-Encoding')?.toLowerCase();
  const decoded =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(text)
      : encoding === 'base64'
        ? Buffer.from(text, 'base64').toString('utf8')
        : text;
  return decoded.replace(/\r\n/g, '\n');
}

const NOW = new Date('2026-11-22T10:15:00.000Z');
let sequence = 0;

function input(overrides: Partial<ContactMessageInput> = {}): ContactMessageInput {
  sequence += 1;
  return {
    name: 'Ana Souza',
    email: `ana.${sequence}@example.pt`,
    subject: 'private_visit',
    message: `Bonjour,\nje voudrais visiter l’atelier (demande n° ${sequence}).`,
    website: '',
    locale: 'fr',
    ...overrides,
  };
}

async function codeOf(promise: Promise<unknown>): Promise<ErrorCode | 'no error'> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('contact messages', () => {
  let t: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let mailer: Mailer;
  const deps = () => ({ db: t.db, mailer, now: () => NOW });
  const rowCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('contact_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestDatabase();
    await t.db
      .insertInto('site_settings')
      .values({ key: 'contact_email', value: JSON.stringify(OWNER) })
      .execute();
    smtp = await startSmtp();
    mailer = createMailer({ smtpUrl: smtp.url, dataDir: os.tmpdir() });
  });
  afterAll(async () => {
    await smtp.stop();
    await t.dispose();
  });
  beforeEach(async () => {
    smtp.received.length = 0;
    await t.db.deleteFrom('rate_limits').execute();
  });

  it('stores a message, mails it to the gallery’s contact address and marks it delivered', async () => {
    const message = input({
      name: 'Ana Souza',
      email: 'Ana.Souza@example.pt',
      subject: 'private_visit',
      message: 'Bonjour,\nje voudrais visiter l’atelier un samedi. — Ana',
      locale: 'en',
    });
    const { id } = await submitContactMessage(deps(), message, { ip: '203.0.113.7' });

    const row = await t.db
      .selectFrom('contact_messages')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Ana Souza',
      email: 'Ana.Souza@example.pt',
      subject: 'private_visit',
      message: message.message,
      locale: 'en',
      delivery_error: null,
    });
    expect(row.delivered_at).toBeInstanceOf(Date);

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual([OWNER]);
    expect(mail.from).toBe('no-reply@atelier-test.example');
    expect(header(mail.raw, 'To')).toBe(OWNER);
    expect(header(mail.raw, 'Reply-To')).toBe('Ana Souza <Ana.Souza@example.pt>');
    expect(header(mail.raw, 'Subject')).toBe('[Galerie] Visite privée — Ana Souza');
    const text = body(mail.raw);
    expect(text).toContain(message.message);
    expect(text).toContain('Nom\u00a0: Ana Souza');
    expect(text).toContain('E-mail\u00a0: Ana.Souza@example.pt');
    expect(text).toContain('Sujet\u00a0: Visite privée');
    expect(text).toContain('Langue\u00a0: anglais');
    expect(text).toContain(`Référence\u00a0: ${id}`);
    // Issue 26: the owner reads the time in Paris, never the ISO UTC form.
    expect(text).toMatch(/Reçu le\u00a0: \d{1,2} \S+ \d{4} à \d{2}:\d{2} \(heure de Paris\)/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).not.toMatch(/ [:;?!]/);
  });

  it('keeps a multi-line name out of the mail headers', async () => {
    await submitContactMessage(deps(), input({ name: 'Eve\r\nBcc: victim@example.com' }), {
      ip: '203.0.113.8',
    });
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual([OWNER]);
    expect(header(mail.raw, 'Bcc')).toBeUndefined();
    expect(header(mail.raw, 'Subject')).toBe(
      '[Galerie] Visite privée — Eve Bcc: victim@example.com',
    );
  });

  it('refuses a filled honeypot: nothing stored, nothing sent, nothing counted', async () => {
    const before = await rowCount();
    expect(
      await codeOf(
        submitContactMessage(deps(), input({ website: 'https://spam.example' }), {
          ip: '198.51.100.1',
        }),
      ),
    ).toBe('rejected');
    expect(await rowCount()).toBe(before);
    expect(smtp.received).toHaveLength(0);
    expect(await t.db.selectFrom('rate_limits').selectAll().execute()).toEqual([]);
  });

  it('refuses the 4th message from one address within the hour, whatever its case', async () => {
    const before = await rowCount();
    for (let i = 0; i < CONTACT_RATE_LIMITS.perEmail.limit; i++)
      await submitContactMessage(deps(), input({ email: 'lea@example.fr' }), {
        ip: `198.51.100.${i}`,
      });
    const refused = submitContactMessage(deps(), input({ email: ' LEA@Example.FR' }), {
      ip: '198.51.100.99',
    });
    await expect(refused).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
    const error = (await refused.catch((e: unknown) => e)) as AppError;
    // 10:15 in a fixed one-hour window: 45 minutes to wait
    expect(error.retryAfterSeconds).toBe(45 * 60);
    expect(await rowCount()).toBe(before + 3);
    expect(smtp.received).toHaveLength(3);

    // the next hour's window lets the address write again
    const later = { ...deps(), now: () => new Date(NOW.getTime() + 3600_000) };
    await submitContactMessage(later, input({ email: 'lea@example.fr' }), { ip: '198.51.100.100' });
    expect(smtp.received).toHaveLength(4);
  });

  it('refuses the 11th message from one network within the hour', async () => {
    for (let i = 0; i < CONTACT_RATE_LIMITS.perIp.limit; i++)
      await submitContactMessage(deps(), input(), { ip: `2001:db8:1:2:${i}::1` });
    const error = (await submitContactMessage(deps(), input(), {
      ip: '2001:db8:1:2:ffff::9',
    }).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    // another network is not affected
    await submitContactMessage(deps(), input(), { ip: '2001:db8:1:3::1' });
    expect(smtp.received).toHaveLength(CONTACT_RATE_LIMITS.perIp.limit + 1);
  });

  it('keeps the message with its delivery error when the SMTP server is down', async () => {
    const down = await startSmtp();
    await down.stop();
    const logged = vi.mocked(console.error).mockImplementation(() => {});
    const deadMailer = createMailer({ smtpUrl: down.url, dataDir: os.tmpdir() });

    const before = await rowCount();
    const failure = submitContactMessage(
      { ...deps(), mailer: deadMailer },
      input({ name: 'Kept' }),
      {
        ip: '192.0.2.10',
      },
    );
    await expect(failure).rejects.toMatchObject({ code: 'delivery_failed', status: 502 });

    expect(await rowCount()).toBe(before + 1);
    const row = await t.db
      .selectFrom('contact_messages')
      .selectAll()
      .where('name', '=', 'Kept')
      .executeTakeFirstOrThrow();
    expect(row.delivered_at).toBeNull();
    expect(row.delivery_error).toMatch(/ECONNREFUSED|connect/i);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining(row.id));
  });

  it('writes an .eml file under DATA_DIR/mail when SMTP_URL is unset', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-mail-'));
    try {
      const fileMailer = createMailer({ smtpUrl: undefined, dataDir });
      expect(fileMailer.description).toBe(path.join(dataDir, 'mail'));
      await submitContactMessage({ ...deps(), mailer: fileMailer }, input({ name: 'Eml Test' }), {
        ip: '192.0.2.20',
      });
      const files = await fs.readdir(path.join(dataDir, 'mail'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}\.eml$/);
      const raw = await fs.readFile(path.join(dataDir, 'mail', files[0]!), 'utf8');
      expect(raw).toContain('\r\n');
      expect(header(raw, 'To')).toBe(OWNER);
      expect(header(raw, 'Subject')).toBe('[Galerie] Visite privée — Eml Test');
      expect(body(raw)).toContain('Nom\u00a0: Eml Test');
      expect(smtp.received).toHaveLength(0);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  describe('POST /api/contact', () => {
    const ORIGIN = 'http://localhost:4321';
    const call = (init: { body?: string; headers?: Record<string, string> }, ip = '192.0.2.50') =>
      callEndpoint(POST, {
        request: new Request(`${ORIGIN}/api/contact`, {
          method: 'POST',
          headers: { origin: ORIGIN, 'content-type': 'application/json', ...init.headers },
          body: init.body ?? null,
        }),
        clientAddress: ip,
      });
    const json = (value: unknown) => JSON.stringify(value);
    const valid = () => {
      const { website: _w, ...rest } = input();
      return rest;
    };

    beforeAll(() => {
      provideDatabase(t);
      provideMailer(mailer);
    });

    it('answers 201 { ok: true } and delivers', async () => {
      const response = await call({ body: json(valid()) });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ ok: true });
      expect(smtp.received).toHaveLength(1);
    });

    it.each([
      [
        'a missing email',
        400,
        'invalid_input',
        json({ ...valid(), email: '' }),
        { email: 'contact.error.email' },
      ],
      [
        'an unknown subject',
        400,
        'invalid_input',
        json({ ...valid(), subject: 'x' }),
        { subject: 'contact.error.subject' },
      ],
      [
        'an unknown field',
        400,
        'invalid_input',
        json({ ...valid(), phone: '1' }),
        { _: 'contact.error.invalid' },
      ],
      ['a JSON array', 400, 'invalid_input', '[]', { _: expect.any(String) as string }],
      ['malformed JSON', 400, 'invalid_json', '{"name":', undefined],
      ['a filled honeypot', 400, 'rejected', json({ ...valid(), website: 'x' }), undefined],
      [
        'a body over 32 KiB',
        413,
        'payload_too_large',
        json({ ...valid(), message: 'x'.repeat(40_000) }),
        undefined,
      ],
    ])('answers %s with %i %s', async (_label, status, code, requestBody, fields) => {
      const response = await call({ body: requestBody });
      expect(response.status).toBe(status);
      const payload = (await response.json()) as { error: Record<string, unknown> };
      expect(payload.error['code']).toBe(code);
      expect(typeof payload.error['message']).toBe('string');
      expect(payload.error['fields']).toEqual(fields);
      expect(smtp.received).toHaveLength(0);
    });

    it('answers a foreign origin with 403 and a text body with 415', async () => {
      const foreign = await call({
        body: json(valid()),
        headers: { origin: 'https://evil.example' },
      });
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toMatchObject({ error: { code: 'forbidden_origin' } });
      const text = await call({ body: json(valid()), headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      expect(await text.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
    });

    it('answers 429 with Retry-After once the address has written 3 times', async () => {
      const message = { ...valid(), email: 'flood@example.com' };
      for (let i = 0; i < 3; i++) expect((await call({ body: json(message) })).status).toBe(201);
      const response = await call({ body: json(message) });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await response.json()).toMatchObject({ error: { code: 'rate_limited' } });
    });

    it('answers a form post without JavaScript with a redirect back to the page', async () => {
      const form = (fields: Record<string, string>) =>
        call({
          body: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      const sent = await form({ ...valid(), website: '', locale: 'en' });
      expect(sent.status).toBe(303);
      expect(sent.headers.get('location')).toBe('/en/contact#contact-result-sent');
      expect(smtp.received).toHaveLength(1);
      const invalid = await form({ ...valid(), email: 'nope', website: '' });
      expect(invalid.headers.get('location')).toBe('/contact#contact-result-invalid_input');
    });
  });
});

describe('rate limiter', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ maxConnections: 10 });
  });
  afterAll(() => t.dispose());
  afterEach(async () => {
    await t.db.deleteFrom('rate_limits').execute();
  });

  const rule = { limit: 5, windowSeconds: 60 };

  it('counts hits in fixed windows and says how long to wait', async () => {
    const now = new Date('2026-11-22T10:00:45.000Z');
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await hit(t.db, 'test:a', rule, now));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false]);
    expect(results.map((r) => r.retryAfterSeconds)).toEqual([0, 0, 0, 0, 0, 15]);
    expect((await hit(t.db, 'test:b', rule, now)).allowed).toBe(true);
    expect((await hit(t.db, 'test:a', rule, new Date('2026-11-22T10:01:00.000Z'))).allowed).toBe(
      true,
    );
  });

  it(
    'lets exactly `limit` of many concurrent hits through',
    { tags: ['concurrency'] },
    async () => {
      const now = new Date();
      const results = await Promise.all(
        Array.from({ length: 25 }, () => hit(t.db, 'test:race', rule, now)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(rule.limit);
      expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
      // PGlite has one connection and serializes these; the PostgreSQL project really races them.
    },
  );

  it('prunes windows older than a day and refuses longer windows', async () => {
    const now = new Date('2026-11-22T10:00:00.000Z');
    await hit(t.db, 'test:new', rule, now);
    // inserted directly: a hit may prune on its own (now and then), which would hide this row
    await t.db
      .insertInto('rate_limits')
      .values({ key: 'test:old', window_start: new Date('2026-11-20T09:00:00.000Z'), hits: 3 })
      .execute();
    expect(await pruneRateLimits(t.db, now)).toBe(1);
    const keys = await t.db.selectFrom('rate_limits').select('key').execute();
    expect(keys).toEqual([{ key: 'test:new' }]);
    await expect(hit(t.db, 'test:x', { limit: 1, windowSeconds: 2 * 86_400 })).rejects.toThrow(
      RangeError,
    );
  });

  it('stores hashed keys, and buckets IPv6 clients by /64', () => {
    expect(rateLimitKey('contact:email', 'ana@example.pt')).toMatch(/^contact:email:[\w-]{32}$/);
    expect(rateLimitKey('contact:email', 'ana@example.pt')).not.toContain('ana');
    expect(ipBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(ipBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(ipBucket('2001:db8:0001:2::1')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:DB8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipBucket('::1')).toBe('0:0:0:0::/64');
    expect(ipBucket('')).toBe('');
    expect(ipBucket('not an ip')).toBe('');
  });
});
