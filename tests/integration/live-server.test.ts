// Publishing while serving (issue 10) against the real server process: `npm run build` and a
// second `npm start` from the same checkout used to rewrite dist/ under a running server, after
// which every on-demand page it had not loaded yet answered 500 while health said ok. Now they
// write versions beside the served one, and a publish swaps versions while serving. A build that
// fails serves nothing new, keeps its log and says why.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError, buildSnapshot, catalogSnapshot } from '#api/build/index.ts';
import { listVersions, readCurrent } from '#api/build/versions.ts';
import { openDatabase } from '#api/db/index.ts';
import { testDbKind } from '../helpers/db.ts';
import { makeUser } from '../helpers/factories.ts';
import {
  freshShop,
  root,
  startServer,
  type FreshShop,
  type RunningServer,
} from '../helpers/server.ts';
import { until } from '../helpers/wait.ts';

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', SMTP_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  );
  return { child, done };
}

// Processes and folders, not the database kind, are under test: run once, on the embedded one.
describe.skipIf(testDbKind() !== 'pglite')('a running server and its built versions', () => {
  let shop: FreshShop;
  let work: string;
  let dist: string;
  let site: string;
  let base: string;
  let server: RunningServer;
  let cookie: string;
  const env = () => ({ GALERIE_DIST_DIR: dist, HOST: '127.0.0.1', PUBLIC_SITE_URL: site });

  beforeAll(async () => {
    // A fresh shop (the golden one copied: built, images encoded) and the owner, signed in,
    // prepared before the server holds the embedded database.
    shop = await freshShop('live-server');
    ({ work, dist, siteUrl: site } = shop);
    const handle = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pgdata') });
    ({ secureCookie: cookie } = await makeUser(handle.db, { role: 'admin' }));
    await handle.close();
    // The build command below gets a database of its own: the same catalogue, another folder.
    fs.cpSync(shop.dataDir, path.join(work, 'other'), { recursive: true });
    server = await startServer(shop);
    base = server.base;
  });

  afterAll(async () => {
    await server?.stop();
    shop?.remove();
  });

  it('keeps serving every page through `npm run build` and a second start on the same checkout', async () => {
    const served = readCurrent(dist);
    expect((await fetch(`${base}/`)).status).toBe(200);

    // The build command, on a database of its own (the server holds the embedded one).
    const build = run(['api/cli/build.ts'], { ...env(), DATA_DIR: path.join(work, 'other') });
    const built = await build.done;
    expect(built.code, built.output).toBe(0);
    expect(readCurrent(dist)).not.toBe(served);

    // A second start on the same port stops at once, before building anything.
    const second = run(['api/server.ts'], {
      ...env(),
      DATA_DIR: path.join(work, 'second'),
      PORT: new URL(base).port,
    });
    const stopped = await second.done;
    expect(stopped.code).toBe(1);
    expect(stopped.output).toContain('is already in use');

    // Pages the running server had never rendered yet still render.
    for (const page of ['/panier', '/login', '/en/signup', '/forgot-password', '/en/checkout'])
      expect((await fetch(`${base}${page}`)).status, page).toBe(200);
    expect(await (await fetch(`${base}/api/health`)).json()).toEqual({
      status: 'ok',
      db: 'ok',
      pages: 'ok',
    });
  });

  it('publishes by hand: a new version is swapped in while serving, two are kept', async () => {
    const headers = { cookie, origin: site };
    const before = (await (await fetch(`${base}/api/admin/publish`, { headers })).json()) as {
      version: string;
    };
    const asked = await fetch(`${base}/api/admin/publish`, { method: 'POST', headers });
    expect(asked.status).toBe(202);
    // It says what it publishes and when it should be live (issue 27 §7: the back office's pill).
    const queued = (await asked.json()) as { state: string; etaMs: number; buildMs: number };
    expect(queued).toMatchObject({ state: 'queued', changes: [{ kind: 'manual' }] });
    expect(queued.etaMs).toBeGreaterThanOrEqual(queued.buildMs);
    // Pages keep answering while the new version is built and swapped in.
    const status = await until('the publish to finish', async () => {
      expect((await fetch(`${base}/gallery`)).status).toBe(200);
      const now = (await (await fetch(`${base}/api/admin/publish`, { headers })).json()) as {
        state: string;
        version: string;
      };
      return now.state === 'idle' && now.version !== before.version && now;
    });
    expect(status).toMatchObject({ state: 'idle', changes: [], lastChanges: [{ kind: 'manual' }] });
    expect(status.version).not.toBe(before.version);
    expect(readCurrent(dist)).toBe(status.version);
    expect(listVersions(dist).length).toBeLessThanOrEqual(3);
    expect((await fetch(`${base}/account`)).status).toBe(200);
    // Not for customers or visitors.
    expect((await fetch(`${base}/api/admin/publish`)).status).toBe(403);
  });

  it('a build that fails serves nothing new, keeps its log and names the error', async () => {
    const handle = await openDatabase({ pgliteDir: path.join(work, 'other', 'pgdata') });
    const snapshot = await catalogSnapshot(handle.db);
    await handle.close();
    const current = readCurrent(dist);
    const versions = listVersions(dist);
    // A catalogue the pages' schema refuses: the build stops in its content step.
    const broken = { ...snapshot, settings: { ...snapshot.settings, contact_email: 'nobody' } };
    const failure = await buildSnapshot(
      broken,
      { sourceHash: 'x', siteUrl: 'http://localhost', catalogHash: 'x', builtAt: '' },
      { root, dist, siteUrl: 'http://localhost' },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BuildError);
    const error = failure as BuildError;
    expect(error.lastLine).toMatch(/contact_email|email/i);
    expect(fs.readFileSync(error.logFile!, 'utf8')).toContain('contact_email');
    expect(readCurrent(dist)).toBe(current);
    expect(listVersions(dist)).toEqual(versions);
    expect(fs.readdirSync(path.join(dist, 'versions')).filter((n) => n.startsWith('.'))).toEqual(
      [],
    );
  });
});
