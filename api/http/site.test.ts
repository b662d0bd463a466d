import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGalerieServer, type GalerieServer } from './app.ts';
import { LiveSite, loadVersion, type NodeHandler, type SiteVersion } from './site.ts';
import { StaticFiles } from './static-files.ts';

async function clientDir(html: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-site-'));
  await fs.writeFile(path.join(dir, 'index.html'), html);
  await fs.writeFile(path.join(dir, 'maintenance.html'), '<p>Site en maintenance</p>');
  return dir;
}

async function version(id: string, handler: NodeHandler): Promise<SiteVersion> {
  const html = `<!doctype html><div data-maintenance-notice hidden>Mode maintenance actif</div><p>${id}</p>`;
  return { id, handler, staticFiles: await StaticFiles.load(await clientDir(html)) };
}

function get(base: string, pathname: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      http
        .get(`${base}${pathname}`, { headers }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        })
        .on('error', reject);
    },
  );
}

describe('a live site swapped while serving', () => {
  let app: GalerieServer;
  let base: string;
  let release: () => void = () => {};
  let maintenance = false;
  const site = new LiveSite();

  const slowHandler =
    (label: string): NodeHandler =>
    (req, res, next) => {
      if (req.url === '/slow') {
        // Holds the answer until the test lets it go.
        new Promise<void>((resolve) => (release = resolve))
          .then(() => res.end(`slow from ${label}`))
          .catch(() => {});
        return;
      }
      if (req.url === '/broken') {
        const error = Object.assign(new Error('Cannot find module chunks/x.mjs'), {
          code: 'ERR_MODULE_NOT_FOUND',
        });
        return Promise.reject(error);
      }
      if (req.url === '/dynamic') return void res.end(`dynamic from ${label}`);
      return next?.();
    };

  beforeAll(async () => {
    app = createGalerieServer({
      site,
      health: () => {
        const pages = site.canRender() ? 'ok' : 'error';
        return Promise.resolve({ status: pages, db: 'ok', pages });
      },
      gate: (req, res, pathname) => {
        if (!maintenance || pathname === '/api/health') return 'open';
        if (req.headers.cookie === 'session=admin') return 'notice';
        res.statusCode = 503;
        res.end('maintenance');
        return 'answered';
      },
    });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => app.server.close(resolve)));

  it('answers 503 "starting" and an unhealthy health until a version is loaded', async () => {
    const page = await get(base, '/');
    expect(page.status).toBe(503);
    expect(page.headers['retry-after']).toBe('5');
    const health = await get(base, '/api/health');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body)).toMatchObject({ pages: 'error' });
  });

  it('serves the new version at once while a request started on the old one completes on it', async () => {
    site.swap(await version('v1', slowHandler('v1')));
    expect((await get(base, '/')).body).toContain('<p>v1</p>');
    const slow = get(base, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(site.busy()).toEqual(['v1']);

    const previous = site.swap(await version('v2', slowHandler('v2')));
    expect(previous?.id).toBe('v1');
    expect((await get(base, '/')).body).toContain('<p>v2</p>');
    expect((await get(base, '/dynamic')).body).toBe('dynamic from v2');
    expect(site.busy()).toEqual(['v1']);

    release();
    expect((await slow).body).toBe('slow from v1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(site.busy()).toEqual([]);
    expect((await get(base, '/api/health')).status).toBe(200);
  });

  it('shows a maintenance notice to an administrator and the maintenance answer to others', async () => {
    maintenance = true;
    try {
      expect((await get(base, '/')).status).toBe(503);
      const admin = await get(base, '/', { cookie: 'session=admin' });
      expect(admin.status).toBe(200);
      expect(admin.headers['cache-control']).toBe('private, no-store');
      expect(admin.body).toContain('<div data-maintenance-notice>Mode maintenance actif');
      expect((await get(base, '/api/health')).status).toBe(200);
    } finally {
      maintenance = false;
    }
  });

  it('reports in health a version that fails to find its own modules', async () => {
    // logged on purpose: replace the console.error guard's spy for this test
    const logged = vi.mocked(console.error).mockImplementation(() => {});
    expect((await get(base, '/broken')).status).toBe(500);
    expect(String(logged.mock.calls[0]?.[0])).toContain('"msg":"Request GET /broken failed"');
    const health = await get(base, '/api/health');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'error', pages: 'error' });
    site.swap(await version('v3', slowHandler('v3')));
    expect((await get(base, '/api/health')).status).toBe(200);
  });
});

describe('loading a version folder', () => {
  it('imports every server module up front, so removing the folder later breaks nothing', async () => {
    const dir = await fs.mkdtemp(path.join(process.cwd(), '.cache', 'version-'));
    try {
      await fs.mkdir(path.join(dir, 'server', 'chunks'), { recursive: true });
      await fs.mkdir(path.join(dir, 'client'), { recursive: true });
      await fs.writeFile(path.join(dir, 'client', 'index.html'), '<p>home</p>');
      await fs.writeFile(
        path.join(dir, 'server', 'chunks', 'page.mjs'),
        'export const text = "lazy page";',
      );
      await fs.writeFile(
        path.join(dir, 'server', 'entry.mjs'),
        `export const handler = async (req, res) => {
           const { text } = await import('./chunks/page.mjs');
           res.end(text);
         };`,
      );
      const loaded = await loadVersion('t1', dir);
      await fs.rm(dir, { recursive: true, force: true });
      let body = '';
      const res = { end: (text: string) => (body = text) } as unknown as http.ServerResponse;
      await loaded.handler({} as http.IncomingMessage, res);
      expect(body).toBe('lazy page');
      expect(loaded.staticFiles.lookup('/')).toBeDefined();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the loaded server bundle for a version built from the same server inputs', async () => {
    const root = await fs.mkdtemp(path.join(process.cwd(), '.cache', 'version-'));
    const version = async (name: string, serverHash: string, text: string) => {
      const dir = path.join(root, name);
      await fs.mkdir(path.join(dir, 'server'), { recursive: true });
      await fs.mkdir(path.join(dir, 'client'), { recursive: true });
      await fs.writeFile(path.join(dir, 'client', 'index.html'), `<p>${name}</p>`);
      await fs.writeFile(path.join(dir, 'build-info.json'), JSON.stringify({ serverHash }));
      await fs.writeFile(
        path.join(dir, 'server', 'entry.mjs'),
        `export const handler = async (req, res) => res.end(${JSON.stringify(text)});`,
      );
      return dir;
    };
    const render = async (v: SiteVersion) => {
      let body = '';
      const res = { end: (text: string) => (body = text) } as unknown as http.ServerResponse;
      await v.handler({} as http.IncomingMessage, res);
      return body;
    };
    try {
      const a = await loadVersion('a', await version('a', 'settings-1', 'bundle a'));
      // A sale: new prerendered pages, the same on-demand ones.
      const b = await loadVersion('b', await version('b', 'settings-1', 'bundle b'), a);
      expect(b.handler).toBe(a.handler);
      expect(b.bundleOf).toBe('a');
      expect(await render(b)).toBe('bundle a');
      expect(b.staticFiles.lookup('/')!.identity.body.toString()).toContain('<p>b</p>');
      const c = await loadVersion('c', await version('c', 'settings-1', 'bundle c'), b);
      expect(c.bundleOf).toBe('a');
      // A setting the on-demand pages show: the new bundle is loaded.
      const d = await loadVersion('d', await version('d', 'settings-2', 'bundle d'), c);
      expect(d.bundleOf).toBeUndefined();
      expect(await render(d)).toBe('bundle d');
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it('fails when a module cannot load', async () => {
    const dir = await fs.mkdtemp(path.join(process.cwd(), '.cache', 'version-'));
    try {
      await fs.mkdir(path.join(dir, 'server'), { recursive: true });
      await fs.mkdir(path.join(dir, 'client'), { recursive: true });
      await fs.writeFile(path.join(dir, 'server', 'entry.mjs'), 'export const handler = 1;');
      await fs.writeFile(path.join(dir, 'server', 'broken.mjs'), 'import "./missing.mjs";');
      await expect(loadVersion('t2', dir)).rejects.toThrow(/missing\.mjs/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
