// Issue 14 §3, "behind a reverse proxy, on two nodes": nginx (Debian's nginx-light, with the
// shipped docs/deploy/nginx.conf, ports and paths replaced) in front of two `node api/server.ts`
// processes of one checkout on one PostgreSQL database, sharing DATA_DIR and the dist folder as
// the README's Deployment section says. Clients reach nginx over TLS from their own loopback
// addresses (127.0.0.x), so nginx's X-Forwarded-For carries a real, distinct client address.
// Which node answered comes from nginx's own access log (upstream and the node's X-Request-Id).
//
// The payment emulator stands in for Stripe's session creation only: on several nodes the shop
// takes payments through Stripe (docs/decisions/028), so nothing is paid here.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVersions, readCurrent } from '#api/build/versions.ts';
import { CLUSTER_LOCKS, tryClusterLock, withClusterLock } from '#api/cluster/lock.ts';
import { openDatabase } from '#api/db/index.ts';
import { checkoutRequest } from '../helpers/checkout.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../helpers/db.ts';
import { makeUser } from '../helpers/factories.ts';
import { verificationLink } from '../helpers/mail.ts';
import { until } from '../helpers/wait.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const NGINX = '/usr/sbin/nginx';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const skipReason =
  testDbKind() !== 'postgres'
    ? 'PostgreSQL only'
    : fs.existsSync(NGINX)
      ? null
      : `${NGINX} is missing (apt-get install nginx-light; .ci/run does)`;

/**
 * A free port for nginx, below the kernel's ephemeral range: the nodes and every other suite
 * running alongside bind port 0, and the kernel hands those out from the ephemeral range only, so
 * nothing can take this port between the probe and nginx's start.
 */
function nginxPort(): Promise<number> {
  const [low = 32768] = fs
    .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  const candidate = 10_000 + Math.floor(Math.random() * (low - 10_000));
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(nginxPort()));
    probe.listen(candidate, '127.0.0.1', () => probe.close(() => resolve(candidate)));
  });
}

interface Proc {
  child: ChildProcess;
  output: () => string;
  done: Promise<number | null>;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, done };
}

async function stop(proc: Proc | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill(signal);
  await Promise.race([proc.done, sleep(15_000)]);
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
}

/** Lines of a node's output saying `text` (its log is one JSON object per line). */
const count = (proc: Proc, text: string) =>
  proc
    .output()
    .split('\n')
    .filter((line) => line.includes(text)).length;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * The shipped nginx.conf with this test's ports and paths: the two upstream nodes, the HTTP and
 * HTTPS listeners on loopback, the certificate, the access log. Nothing else is changed.
 */
function nginxSite(
  shipped: string,
  o: {
    nodes: [number, number];
    http: number;
    https: number;
    cert: string;
    key: string;
    accessLog: string;
  },
): string {
  const replace = (text: string, from: RegExp, to: string) => {
    if (!from.test(text)) throw new Error(`docs/deploy/nginx.conf no longer has ${from}`);
    return text.replace(from, to);
  };
  let site = shipped;
  site = replace(site, /server 127\.0\.0\.1:4321\b/, `server 127.0.0.1:${o.nodes[0]}`);
  site = replace(site, /server 127\.0\.0\.1:4322\b/, `server 127.0.0.1:${o.nodes[1]}`);
  site = replace(site, /^\s*listen \[::\]:80;\n/m, '');
  site = replace(site, /^\s*listen \[::\]:443 ssl http2;\n/m, '');
  site = replace(site, /listen 80;/, `listen 127.0.0.1:${o.http};`);
  site = replace(site, /listen 443 ssl http2;/, `listen 127.0.0.1:${o.https} ssl http2;`);
  site = replace(site, /ssl_certificate \S+;/, `ssl_certificate ${o.cert};`);
  site = replace(site, /ssl_certificate_key \S+;/, `ssl_certificate_key ${o.key};`);
  return site.replaceAll('/var/log/nginx/galerie.access.log', o.accessLog);
}

describe.skipIf(skipReason !== null)(
  `two nodes behind nginx on one PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { tags: ['cluster'] },
  () => {
    let db: TestDatabase;
    let work: string;
    let ngx: string;
    let dist: string;
    let dataDir: string;
    let ca: Buffer;
    let site: string;
    let httpPort: number;
    let ports: Record<'A' | 'B', number>;
    let nodes: Record<'A' | 'B', Proc>;
    let nginx: Proc | undefined;
    let accessLog: string;
    let admin: string;

    /** A request from client address `from` (127.0.0.x) to nginx, or straight to a node. */
    function send(
      url: string,
      options: {
        method?: string;
        headers?: Record<string, string>;
        body?: unknown;
        from?: string;
      } = {},
    ): Promise<Reply> {
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const method = options.method ?? (body ? 'POST' : 'GET');
      const headers: Record<string, string> = {
        ...(method !== 'GET' && method !== 'HEAD' && { origin: site }),
        ...(body && { 'content-type': 'application/json' }),
        ...options.headers,
      };
      return new Promise((resolve, reject) => {
        const req = (url.startsWith('https:') ? https : http).request(
          url,
          { method, headers, ca, agent: false, localAddress: options.from ?? '127.0.0.1' },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
            );
          },
        );
        req.setTimeout(60_000, () => req.destroy(new Error(`timeout: ${method} ${url}`)));
        req.on('error', reject);
        req.end(body);
      });
    }

    /** A visitor of the shop through nginx: its own address and cookie jar. */
    class Visitor {
      readonly from: string;
      readonly cookies = new Map<string, string>();
      constructor(from: string) {
        this.from = from;
      }
      async call(
        method: string,
        pathname: string,
        body?: unknown,
        headers: Record<string, string> = {},
      ): Promise<Reply & { json: Record<string, unknown> }> {
        const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        const reply = await send(`${site}${pathname}`, {
          method,
          body,
          from: this.from,
          headers: { ...(cookie && { cookie }), ...headers },
        });
        for (const line of reply.headers['set-cookie'] ?? []) {
          const [pair = ''] = line.split(';');
          const eq = pair.indexOf('=');
          this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(reply.body) as Record<string, unknown>;
        } catch {
          // a page
        }
        return { ...reply, json };
      }
    }

    /** Which node answered a request that went through nginx (its access log line). */
    async function nodeOf(reply: Reply): Promise<'A' | 'B'> {
      const id = reply.headers['x-request-id'];
      expect(typeof id).toBe('string');
      // nginx writes its line once it has answered.
      const port = await until(`request ${id as string} in nginx's access log`, () => {
        const line = fs
          .readFileSync(accessLog, 'utf8')
          .split('\n')
          .find((l) => l.endsWith(` id=${id as string}`));
        return line && /upstream=127\.0\.0\.1:(\d+)/.exec(line)?.[1];
      });
      return Number(port) === ports.A ? 'A' : 'B';
    }

    /** Nodes that served the access log's lines for `request` ("POST /api/checkout"). */
    function upstreamsOf(request: string): Record<'A' | 'B', number> {
      const served = { A: 0, B: 0 };
      for (const line of fs.readFileSync(accessLog, 'utf8').split('\n')) {
        if (!line.includes(`"${request} HTTP/`)) continue;
        const port = Number(/upstream=127\.0\.0\.1:(\d+)/.exec(line)?.[1]);
        if (port === ports.A) served.A += 1;
        else if (port === ports.B) served.B += 1;
      }
      return served;
    }

    /** The port a node listens on, from its own "ready at" line (it binds port 0). */
    async function readyPort(name: string, proc: Proc): Promise<number> {
      return until(`node ${name} to start`, () => {
        if (proc.child.exitCode !== null)
          throw new Error(`node ${name} stopped:\n${proc.output().slice(-4000)}`);
        const ready = /Galerie: ready at http:\/\/[^:]+:(\d+)\//.exec(proc.output());
        return ready ? Number(ready[1]) : undefined;
      });
    }

    beforeAll(async () => {
      db = await createTestDatabase();
      // Inside the checkout: the built server bundle resolves its packages from node_modules.
      work = fs.mkdtempSync(path.join(root, `.test-two-nodes-`));
      dist = path.join(work, 'dist');
      dataDir = path.join(work, 'data');
      ngx = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-nginx-'));
      // nginx's workers (not root) create and use their temporary folders under it.
      fs.chmodSync(ngx, 0o755);
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
          '-keyout',
          path.join(ngx, 'key.pem'),
          '-out',
          path.join(ngx, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      fs.chmodSync(path.join(ngx, 'key.pem'), 0o600);
      ca = fs.readFileSync(path.join(ngx, 'cert.pem'));

      httpPort = await nginxPort();
      const httpsPort = await nginxPort();
      site = `https://127.0.0.1:${httpsPort}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        GALERIE_DIST_DIR: dist,
        HOST: '127.0.0.1',
        // Each node binds a port of the kernel's choosing and prints it (no race for it).
        PORT: '0',
        PUBLIC_SITE_URL: site,
        TRUST_PROXY: '127.0.0.1',
        // Session creation by the emulator on an https:// site (a test, not a shop).
        PAYMENT_EMULATOR: 'on',
        STRIPE_SECRET_KEY: '',
        SMTP_URL: '',
        BACKUPS: 'off',
        VISIT_COUNTING: 'off',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      };
      // Both at once, on a database neither has seeded and a dist folder nobody has built.
      nodes = {
        A: start(process.execPath, ['api/server.ts'], env),
        B: start(process.execPath, ['api/server.ts'], env),
      };
      const [portA, portB] = await Promise.all([readyPort('A', nodes.A), readyPort('B', nodes.B)]);
      ports = { A: portA, B: portB };
      accessLog = path.join(ngx, 'access.log');
      fs.writeFileSync(
        path.join(ngx, 'galerie.conf'),
        nginxSite(fs.readFileSync(path.join(root, 'docs/deploy/nginx.conf'), 'utf8'), {
          nodes: [ports.A, ports.B],
          http: httpPort,
          https: httpsPort,
          cert: path.join(ngx, 'cert.pem'),
          key: path.join(ngx, 'key.pem'),
          accessLog,
        }),
      );
      // The main configuration a distribution's /etc/nginx/nginx.conf would be, in a folder of ours.
      fs.writeFileSync(
        path.join(ngx, 'nginx.conf'),
        [
          'worker_processes 1;',
          'daemon off;',
          `pid ${path.join(ngx, 'nginx.pid')};`,
          `error_log ${path.join(ngx, 'error.log')} warn;`,
          'events { worker_connections 512; }',
          'http {',
          ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
            (kind) => `  ${kind}_temp_path ${path.join(ngx, `${kind}_temp`)};`,
          ),
          `  access_log ${path.join(ngx, 'other.log')};`,
          `  include ${path.join(ngx, 'galerie.conf')};`,
          '}',
          '',
        ].join('\n'),
      );
      execFileSync(NGINX, ['-t', '-p', ngx, '-c', path.join(ngx, 'nginx.conf'), '-e', 'stderr'], {
        stdio: 'pipe',
      });

      const proxy = start(
        NGINX,
        ['-p', ngx, '-c', path.join(ngx, 'nginx.conf'), '-e', 'stderr'],
        {},
      );
      nginx = proxy;
      await until('nginx to serve the shop', async () => {
        if (proxy.child.exitCode !== null)
          throw new Error(`nginx stopped:\n${proxy.output().slice(-4000)}`);
        return send(`${site}/api/health`).then(
          (r) => r.status === 200,
          () => false,
        );
      });
      ({ secureCookie: admin } = await makeUser(db.db, { role: 'admin' }));
    });

    afterAll(async () => {
      await Promise.all([stop(nodes?.A), stop(nodes?.B), stop(nginx, 'SIGQUIT')]);
      await db?.dispose();
      if (work) fs.rmSync(work, { recursive: true, force: true });
      if (ngx) fs.rmSync(ngx, { recursive: true, force: true });
    });

    it('starts once: one node seeds and builds, the other waits and serves that build', async () => {
      expect(
        count(nodes.A, 'seeded the demo catalogue') + count(nodes.B, 'seeded the demo catalogue'),
      ).toBe(1);
      expect(count(nodes.A, 'built the site') + count(nodes.B, 'built the site')).toBe(1);
      expect(
        fs.readdirSync(path.join(dist, 'logs')).filter((f) => f.endsWith('.log')),
      ).toHaveLength(1);
      expect(listVersions(dist)).toEqual([readCurrent(dist)]);
      // Plain HTTP is sent to HTTPS.
      const plain = await send(`http://127.0.0.1:${httpPort}/gallery`);
      expect(plain.status).toBe(301);
      expect(plain.headers.location).toBe('https://127.0.0.1/gallery');
      // Through nginx, each node answers in turn.
      const visitor = new Visitor('127.0.0.2');
      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const page = await visitor.call('GET', '/gallery');
        expect(page.status).toBe(200);
        seen.add(await nodeOf(page));
      }
      expect([...seen].sort()).toEqual(['A', 'B']);
    });

    it('keeps a session and a cart made on one node on the other', async () => {
      const ana = new Visitor('127.0.0.3');
      const email = `ana-${randomBytes(4).toString('hex')}@example.test`;
      const password = 'Aquarelle-sur-lin-2026';
      const signup = await ana.call('POST', '/api/auth/signup', {
        email,
        password,
        confirmPassword: password,
        fullName: 'Ana Deux Nœuds',
        locale: 'fr',
      });
      expect(signup.status, signup.body).toBe(201);
      // The link of the mail, in the browser that signed up, verifies the address and signs in.
      const link = await verificationLink(path.join(dataDir, 'mail'), email);
      const verified = await ana.call('GET', link);
      expect(verified.headers['location']).toBe('/account?emailVerified=1');
      const login = await ana.call('POST', '/api/auth/login', { email, password });
      expect(login.status, login.body).toBe(200);
      // https:// through a trusted proxy: the cookie is __Host- and Secure although the node
      // speaks http (docs/decisions/038).
      expect(String(login.headers['set-cookie'])).toMatch(/^__Host-session=[^;]+;.*Secure/i);
      const loggedOn = await nodeOf(login);

      const { id: artworkId } = await db.db
        .selectFrom('artworks')
        .select('id')
        .where('artwork_type', '=', 'print')
        .where('is_available', '=', true)
        .where('stock', '>', 1)
        .where('archived_at', 'is', null)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const added = await ana.call('POST', '/api/cart', { artworkId, quantity: 2 });
      expect(added.status, added.body).toBe(200);
      const addedOn = await nodeOf(added);

      // Each answer, from whichever node, knows the session and the cart; both nodes answer.
      const answeredBy = new Set<string>([loggedOn, addedOn]);
      for (let i = 0; i < 4; i++) {
        const session = await ana.call('GET', '/api/auth/session');
        expect(session.json).toMatchObject({ user: { email } });
        answeredBy.add(await nodeOf(session));
        const cart = await ana.call('GET', '/api/cart');
        expect(cart.json).toMatchObject({
          cart: { count: 2, lines: [{ artworkId, quantity: 2 }] },
        });
        answeredBy.add(await nodeOf(cart));
      }
      expect([...answeredBy].sort()).toEqual(['A', 'B']);
      // And straight on each node, without nginx.
      for (const port of [ports.A, ports.B]) {
        const direct = await send(`http://127.0.0.1:${port}/api/auth/session`, {
          headers: { cookie: `__Host-session=${ana.cookies.get('__Host-session')}` },
        });
        expect(JSON.parse(direct.body)).toMatchObject({ user: { email } });
      }
    });

    it('sells an original once to 50 buyers checking out at the same time on both nodes', async () => {
      const { id: artworkId } = await db.db
        .selectFrom('artworks')
        .select('id')
        .where('artwork_type', '=', 'original')
        .where('is_available', '=', true)
        .where('is_sold', '=', false)
        .where('archived_at', 'is', null)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      // Fifty buyers, each from its own address with its own cart.
      const buyers = Array.from({ length: 50 }, (_, i) => new Visitor(`127.0.1.${i + 10}`));
      for (const buyer of buyers) {
        const added = await buyer.call('POST', '/api/cart', { artworkId });
        expect(added.status, added.body).toBe(200);
      }
      const before = upstreamsOf('POST /api/checkout');
      const replies = await Promise.all(
        buyers.map((buyer, i) =>
          buyer.call(
            'POST',
            '/api/checkout',
            checkoutRequest([{ artworkId, quantity: 1 }], {
              customer: { name: `Acheteur ${i}`, email: `buyer-${i}@example.test` },
            }),
          ),
        ),
      );
      const statuses = replies.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 201),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      const refused = replies.filter((r) => r.status !== 201);
      expect(refused.map((r) => r.status)).toEqual(Array(49).fill(409));
      for (const r of refused)
        expect((r.json['error'] as { code: string }).code, r.body).toBe('artwork_held');
      // nginx logs a request once it has answered it: wait for the last lines.
      const after = await until('nginx to log the 50 checkouts', () => {
        const now = upstreamsOf('POST /api/checkout');
        return now.A - before.A + now.B - before.B >= 50 && now;
      });
      expect(after.A - before.A, 'checkouts served by node A').toBeGreaterThan(0);
      expect(after.B - before.B, 'checkouts served by node B').toBeGreaterThan(0);
      expect(after.A - before.A + after.B - before.B).toBe(50);
      const holds = await db.db
        .selectFrom('holds')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', '=', 'active')
        .where('artwork_id', '=', artworkId)
        .executeTakeFirstOrThrow();
      expect(Number(holds.n)).toBe(1);
    });

    it('throttles logins per client address as nginx saw it, not per proxy', async () => {
      const email = `owner-${randomBytes(4).toString('hex')}@example.test`;
      const password = 'Gouache-et-fusain-2026';
      const owner = new Visitor('127.0.0.4');
      expect(
        (
          await owner.call('POST', '/api/auth/signup', {
            email,
            password,
            confirmPassword: password,
            fullName: 'Propriétaire',
            locale: 'fr',
          })
        ).status,
      ).toBe(201);
      expect(
        (await owner.call('GET', await verificationLink(path.join(dataDir, 'mail'), email))).status,
      ).toBe(303);
      // Five wrong passwords from one address, answered by both nodes (the count is in PostgreSQL).
      const attacker = new Visitor('127.0.0.66');
      const answeredBy = new Set<string>();
      for (let i = 0; i < 5; i++) {
        const wrong = await attacker.call('POST', '/api/auth/login', {
          email,
          password: 'nope-nope-1',
        });
        expect(wrong.status, wrong.body).toBe(401);
        answeredBy.add(await nodeOf(wrong));
      }
      expect([...answeredBy].sort()).toEqual(['A', 'B']);
      // That address is refused now, the right password included, whatever it claims to be.
      const locked = await attacker.call('POST', '/api/auth/login', { email, password });
      expect(locked.status, locked.body).toBe(429);
      const spoofed = await attacker.call(
        'POST',
        '/api/auth/login',
        { email, password },
        { 'x-forwarded-for': '127.0.0.4' },
      );
      expect(spoofed.status, spoofed.body).toBe(429);
      // The owner, from another address, signs in on either node.
      for (let i = 0; i < 2; i++) {
        const ok = await owner.call('POST', '/api/auth/login', { email, password });
        expect(ok.status, ok.body).toBe(200);
      }
    });

    it('builds a publish on one node only; the other serves it, and follows settings', async () => {
      const headers = { cookie: admin };
      const versionBefore = readCurrent(dist);
      const builtBefore = count(nodes.A, 'published version') + count(nodes.B, 'published version');
      expect(builtBefore).toBe(0);
      const title = `Galerie à deux nœuds ${randomBytes(3).toString('hex')}`;
      const owner = new Visitor('127.0.0.5');
      const saved = await owner.call(
        'PATCH',
        '/api/admin/settings',
        { site_title: title },
        headers,
      );
      expect(saved.status, saved.body).toBe(200);
      const builder = await nodeOf(saved);
      const other = builder === 'A' ? 'B' : 'A';

      // Both nodes end up serving the new title: the builder after its build, the other once it
      // sees the new current version. Meanwhile both keep serving the old one.
      const titleOn = async (port: number) =>
        (await send(`http://127.0.0.1:${port}/gallery`)).body.includes(title);
      await until('both nodes to serve the new title', async () => {
        expect((await send(`http://127.0.0.1:${ports[other]}/gallery`)).status).toBe(200);
        return (await titleOn(ports.A)) && (await titleOn(ports.B));
      });
      const version = readCurrent(dist)!;
      expect(version).not.toBe(versionBefore);
      // One build ran, on the node that took the change; the other served it without building.
      expect(count(nodes[builder], `published version ${version}`)).toBe(1);
      expect(count(nodes[other], 'published version')).toBe(0);
      expect(count(nodes[other], `serving version ${version}, published by another node`)).toBe(1);
      expect(
        fs.readdirSync(path.join(dist, 'logs')).filter((f) => f.endsWith('.log')),
      ).toHaveLength(2);
      // The other node's publish status names the version it serves.
      const status = await send(`http://127.0.0.1:${ports[other]}/api/admin/publish`, { headers });
      expect(JSON.parse(status.body)).toMatchObject({ state: 'idle', version });

      // A setting read live (maintenance) saved on one node acts on the other within seconds.
      const on = await send(`http://127.0.0.1:${ports[builder]}/api/admin/settings`, {
        method: 'PATCH',
        body: { site_maintenance: true },
        headers,
      });
      expect(on.status, on.body).toBe(200);
      await until(
        'the other node to close for maintenance',
        async () => (await send(`http://127.0.0.1:${ports[other]}/gallery`)).status === 503,
      );
      const off = await send(`http://127.0.0.1:${ports[other]}/api/admin/settings`, {
        method: 'PATCH',
        body: { site_maintenance: false },
        headers,
      });
      expect(off.status, off.body).toBe(200);
      await until(
        'the builder to open again',
        async () => (await send(`http://127.0.0.1:${ports[builder]}/gallery`)).status === 200,
      );
    });

    it('logged no error on either node, and no node failed to follow the other', () => {
      for (const name of ['A', 'B'] as const) {
        const lines = nodes[name].output().split('\n');
        const errors = lines.filter((l) => /"level":"(error|fatal)"/.test(l));
        expect(errors, `node ${name}`).toEqual([]);
        expect(lines.filter((l) => l.includes('following the other nodes failed'))).toEqual([]);
        expect(lines.filter((l) => l.includes('built from other sources'))).toEqual([]);
      }
    });

    it('takes the cluster locks one session at a time: a second one skips or waits', async () => {
      const other = await openDatabase({ databaseUrl: db.url, maxConnections: 2 });
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let entered!: () => void;
        const inside = new Promise<void>((resolve) => (entered = resolve));
        // One session holds the sweeper's lock…
        const holder = tryClusterLock(db.db, CLUSTER_LOCKS.sweep, async () => {
          entered();
          await held;
          return 'swept';
        });
        await inside;
        // …so another skips that round, and one that waits (a build) runs only after it.
        expect(
          await tryClusterLock(other.db, CLUSTER_LOCKS.sweep, () => Promise.resolve('twice')),
        ).toBeNull();
        const order: string[] = [];
        const waiter = withClusterLock(
          other.db,
          CLUSTER_LOCKS.sweep,
          () => {
            order.push('waiter');
            return Promise.resolve('after');
          },
          { pollMs: 50 },
        );
        await sleep(300);
        order.push('released');
        release();
        expect(await holder).toBe('swept');
        expect(await waiter).toBe('after');
        expect(order).toEqual(['released', 'waiter']);
        // Different jobs do not exclude each other.
        expect(
          await tryClusterLock(db.db, CLUSTER_LOCKS.publish, () =>
            tryClusterLock(other.db, CLUSTER_LOCKS.sweep, () => Promise.resolve('both')),
          ),
        ).toBe('both');
        // A wait ends when the server stops.
        const abort = new AbortController();
        let unblock!: () => void;
        const unblocked = new Promise<void>((resolve) => (unblock = resolve));
        let blockedIn!: () => void;
        const inBlocked = new Promise<void>((resolve) => (blockedIn = resolve));
        const blocked = tryClusterLock(db.db, CLUSTER_LOCKS.publish, async () => {
          blockedIn();
          await unblocked;
        });
        await inBlocked;
        const stopped = withClusterLock(
          other.db,
          CLUSTER_LOCKS.publish,
          () => Promise.resolve('built'),
          {
            signal: abort.signal,
            pollMs: 50,
          },
        );
        abort.abort(new Error('shutting down'));
        await expect(stopped).rejects.toThrow('shutting down');
        unblock();
        await blocked;
      } finally {
        await other.close();
      }
    });
  },
);
