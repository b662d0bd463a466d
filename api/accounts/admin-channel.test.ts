// The local channel `npm run admin:invite` uses beside a server on the embedded database
// (docs/decisions/048): a token file only the shop's account reads, and calls refused unless they
// come straight from this machine with that token.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNEL_HEADER, CHANNEL_PATH, openAdminChannel } from './admin-channel.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function channel() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-channel-'));
  dirs.push(dataDir);
  const asked: string[] = [];
  const opened = openAdminChannel({
    dataDir,
    host: '127.0.0.1',
    port: 4321,
    invite: (email) => {
      asked.push(email);
      return Promise.resolve({
        email,
        url: 'http://localhost:4321/admin/invitation?token=x',
        expiresAt: new Date('2026-11-30T00:00:00Z'),
      });
    },
  });
  const file = path.join(dataDir, 'admin-channel.json');
  const token = (JSON.parse(fs.readFileSync(file, 'utf8')) as { token: string }).token;
  return { opened, asked, file, token };
}

/** A request as Node gives it (its socket's peer) and a response that records its answer. */
function call(
  handle: (req: IncomingMessage, res: ServerResponse) => boolean,
  options: { peer: string; headers?: Record<string, string>; body?: string; url?: string },
): Promise<{ handled: boolean; status: number; body: string }> {
  const req = Object.assign(Readable.from([Buffer.from(options.body ?? '')]), {
    url: options.url ?? CHANNEL_PATH,
    method: 'POST',
    headers: options.headers ?? {},
    socket: { remoteAddress: options.peer },
  }) as unknown as IncomingMessage;
  return new Promise((resolve) => {
    const res = {
      statusCode: 200,
      headersSent: false,
      setHeader: () => res,
      end: (body: string) => resolve({ handled: true, status: res.statusCode, body }),
    };
    if (!handle(req, res as unknown as ServerResponse))
      resolve({ handled: false, status: 0, body: '' });
  });
}

describe('the admin channel', () => {
  it('keeps its token in a file only the server’s account reads', () => {
    const { file, opened } = channel();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    opened.close();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('answers a call from this machine with the token, and only its own path', async () => {
    const { opened, asked, token } = channel();
    const handle = opened.handle.bind(opened);
    const body = JSON.stringify({ email: 'owner@example.org' });
    const other = await call(handle, { peer: '127.0.0.1', url: '/admin/login' });
    expect(other.handled).toBe(false);
    const made = await call(handle, { peer: '::1', headers: { [CHANNEL_HEADER]: token }, body });
    expect(made.status).toBe(201);
    expect(JSON.parse(made.body)).toMatchObject({ email: 'owner@example.org' });
    expect(asked).toEqual(['owner@example.org']);
  });

  it('refuses another machine, a proxied call and a missing or wrong token', async () => {
    const { opened, asked, token } = channel();
    const handle = opened.handle.bind(opened);
    const body = JSON.stringify({ email: 'intruder@example.org' });
    const withToken = { [CHANNEL_HEADER]: token };
    for (const [peer, headers, status] of [
      ['203.0.113.7', withToken, 403],
      ['::ffff:192.0.2.1', withToken, 403],
      ['127.0.0.1', { ...withToken, 'x-forwarded-for': '203.0.113.7' }, 403],
      ['127.0.0.1', { ...withToken, forwarded: 'for=203.0.113.7' }, 403],
      ['127.0.0.1', {}, 401],
      ['127.0.0.1', { [CHANNEL_HEADER]: `${token}x` }, 401],
    ] as const) {
      const answer = await call(handle, { peer, headers, body });
      expect(answer.status, `${peer} ${JSON.stringify(headers)}`).toBe(status);
    }
    expect(asked).toEqual([]);
  });
});
