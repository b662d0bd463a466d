// Getting in the first time without stopping anything (issue 27 item 0, docs/decisions/048),
// against the real server on the embedded database: the setup link printed at start and shown on
// /admin/login to a request from this machine only (never one a proxy forwarded), `npm run
// admin:invite` beside the running server through its local channel, and nothing of it once an
// administrator exists.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_HEADER, CHANNEL_PATH } from '#api/accounts/admin-channel.ts';
import { testDbKind } from '../helpers/db.ts';
import {
  freshShop,
  root,
  startServer,
  type FreshShop,
  type RunningServer,
} from '../helpers/server.ts';

const SETUP_LINE =
  /No administrator yet\. .*\n(https:\/\/galerie\.test\/admin\/invitation\?token=([a-z2-7]{32}))\n/;

interface Answer {
  status: number;
  body: string;
}

/** A request from one of this machine's loopback addresses, with exactly the headers given. */
function call(
  base: string,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined)
      headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = http.request(
      `${base}${pathname}`,
      {
        method: options.method ?? 'GET',
        headers,
        agent: false,
        localAddress: options.from ?? '127.0.0.1',
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function invite(
  dataDir: string,
  email: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['api/cli/admin-invite.ts', email], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', PUBLIC_SITE_URL: '', PORT: '', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const owner = {
  fullName: 'Première Propriétaire',
  password: 'atelier first pw',
  confirmPassword: 'atelier first pw',
};

function accept(base: string, site: string, body: Record<string, string>): Promise<Answer> {
  return call(base, '/api/admin/invitations/accept', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site },
    body: JSON.stringify(body),
  });
}

// Two fresh shops copied from one golden shop (it has no administrator, as after a newcomer's
// first `npm start`): one served directly, one behind a proxy.
const embedded = testDbKind() === 'pglite';
let shop: FreshShop;
let proxiedShop: FreshShop;
beforeAll(async () => {
  if (!embedded) return;
  shop = await freshShop('first-admin');
  proxiedShop = await freshShop('first-admin-proxy');
});
afterAll(() => {
  shop?.remove();
  proxiedShop?.remove();
});

// Processes, sockets and the data folder are under test: run once, on the embedded database.
describe.skipIf(!embedded)('the first administrator, server running', () => {
  let server: RunningServer | undefined;
  let token: string;

  beforeAll(async () => {
    server = await startServer(shop);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('prints a single-use setup link at start; the log line says where, without it', async () => {
    await server!.printed(SETUP_LINE);
    // The log line follows the plain one (pino writes on its own schedule).
    const output = await server!.printed(/no administrator yet: the setup link is printed/);
    const printed = SETUP_LINE.exec(output)!;
    token = printed[2]!;
    // The JSON log never carries the token; the plain line on stdout does.
    const logLines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.some((line) => line.includes('no administrator yet'))).toBe(true);
    expect(logLines.some((line) => line.includes(token))).toBe(false);
    const kept = path.join(shop.dataDir, 'setup-link.json');
    expect(fs.statSync(kept).mode & 0o777).toBe(0o600);
  });

  it('shows the link on /admin/login to this machine only, never through a proxy', async () => {
    const base = server!.base;
    const local = await call(base, '/admin/login');
    expect(local.status).toBe(200);
    expect(local.body).toContain('Aucun administrateur n’existe encore');
    expect(local.body).toContain(`/admin/invitation?token=${token}`);
    // Any of 127/8 is this machine.
    expect((await call(base, '/admin/login', { from: '127.0.0.2' })).body).toContain(token);
    // What a proxy passes on carries its headers: never local, whatever address they name.
    for (const headers of [
      { 'x-forwarded-for': '127.0.0.1' },
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
      { via: '1.1 proxy' },
    ]) {
      const forwarded = await call(base, '/admin/login', { headers });
      expect(forwarded.status, JSON.stringify(headers)).toBe(200);
      expect(forwarded.body, JSON.stringify(headers)).toContain('Espace administrateur');
      expect(forwarded.body, JSON.stringify(headers)).not.toContain(token);
      expect(forwarded.body, JSON.stringify(headers)).not.toContain('Aucun administrateur');
    }
  });

  it('refuses its local channel without the token or through a proxy', async () => {
    const base = server!.base;
    const body = JSON.stringify({ email: 'intruder@example.org' });
    const headers = { 'content-type': 'application/json' };
    const noToken = await call(base, CHANNEL_PATH, { method: 'POST', headers, body });
    expect(noToken.status).toBe(401);
    const wrong = await call(base, CHANNEL_PATH, {
      method: 'POST',
      headers: { ...headers, [CHANNEL_HEADER]: 'guessed' },
      body,
    });
    expect(wrong.status).toBe(401);
    const channel = JSON.parse(
      fs.readFileSync(path.join(shop.dataDir, 'admin-channel.json'), 'utf8'),
    ) as { token: string };
    expect(fs.statSync(path.join(shop.dataDir, 'admin-channel.json')).mode & 0o777).toBe(0o600);
    const proxied = await call(base, CHANNEL_PATH, {
      method: 'POST',
      headers: { ...headers, [CHANNEL_HEADER]: channel.token, 'x-forwarded-for': '203.0.113.9' },
      body,
    });
    expect(proxied.status).toBe(403);
    expect(server!.output()).not.toContain('intruder@example.org');
  });

  it('npm run admin:invite asks the running server, and its link names its address', async () => {
    const result = await invite(shop.dataDir, 'Second.Owner@example.org');
    expect(result.code, result.stderr).toBe(0);
    const url = /^(https:\/\/galerie\.test\/admin\/invitation\?token=[a-z2-7]{32})$/m.exec(
      result.stdout,
    )?.[1];
    expect(url, result.stdout).toBeDefined();
    expect(result.stdout).toContain('Invitation for second.owner@example.org');
    const named = new URL(url!).searchParams.get('token')!;
    const page = await call(server!.base, `/admin/invitation?token=${named}`);
    expect(page.body).toContain(
      'Cette invitation crée le compte administrateur de second.owner@example.org.',
    );
    // An address that already has an account: one line saying why.
    const again = await invite(shop.dataDir, 'second.owner@example.org');
    expect(again.code).toBe(0);
    const accepted = await accept(server!.base, shop.siteUrl, { token: named, ...owner });
    expect(accepted.status, accepted.body).toBe(201);
    const refused = await invite(shop.dataDir, 'second.owner@example.org');
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^admin:invite failed: .*already has an account/);
  });

  it('the setup link is void once an administrator exists: not shown, not accepted, not printed', async () => {
    const page = await call(server!.base, '/admin/login');
    expect(page.body).not.toContain(token);
    expect(page.body).not.toContain('Aucun administrateur');
    const late = await accept(server!.base, shop.siteUrl, {
      token,
      email: 'late@example.org',
      ...owner,
    });
    expect(late.status).toBe(400);
    expect(late.body).toContain('invalid_token');
    await server!.stop();
    server = await startServer(shop);
    await call(server.base, '/admin/login');
    expect(server.output()).not.toContain('No administrator yet');
    expect(fs.existsSync(path.join(shop.dataDir, 'setup-link.json'))).toBe(false);
  });
});

describe.skipIf(!embedded)('the first administrator behind a proxy', () => {
  let server: RunningServer | undefined;
  const behindProxy = () => ({ ...proxiedShop, env: { TRUST_PROXY: '127.0.0.1' } });

  beforeAll(async () => {
    // A proxy on this machine: every visitor it passes on connects from 127.0.0.1.
    server = await startServer(behindProxy());
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('shows the link to no request from the proxy, and the printed one makes the first account', async () => {
    const output = await server!.printed(SETUP_LINE);
    const token = SETUP_LINE.exec(output)![2]!;
    const base = server!.base;
    // From the proxy's address, with or without its header: not this machine's owner.
    for (const headers of [{}, { 'x-forwarded-for': '127.0.0.1' }]) {
      const page = await call(base, '/admin/login', { headers });
      expect(page.status).toBe(200);
      expect(page.body).not.toContain(token);
    }
    // A restart prints the same link while it is valid.
    await server!.stop();
    server = await startServer(behindProxy());
    expect(SETUP_LINE.exec(await server.printed(SETUP_LINE))![2]).toBe(token);

    // The setup page asks for the address; the link then makes the first administrator, once.
    const page = await call(server.base, `/admin/invitation?token=${token}`);
    expect(page.body).toContain('Ce lien crée le premier compte administrateur');
    const noEmail = await accept(server.base, proxiedShop.siteUrl, { token, ...owner });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body).toContain('invalid_input');
    const made = await accept(server.base, proxiedShop.siteUrl, {
      token,
      email: 'first.owner@example.org',
      ...owner,
    });
    expect(made.status, made.body).toBe(201);
    const again = await accept(server.base, proxiedShop.siteUrl, {
      token,
      email: 'another@example.org',
      ...owner,
    });
    expect(again.status).toBe(400);
  });
});
