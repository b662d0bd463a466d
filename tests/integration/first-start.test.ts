// A newcomer's first `npm start`: an empty data folder (a new embedded database) and no build yet.
// The server overlaps the slow parts of that start (issue 28 §2): the demo's images are rendered
// while PGlite creates the database, and `astro build` starts at once and waits for the catalogue
// snapshot (api/build/index.ts `startBuild`, src/content.config.ts). Every other suite starts from
// the golden shop, built already: this one keeps a cold first start, the path no other test takes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCacheDir } from '#api/build/index.ts';
import { readCurrent } from '#api/build/versions.ts';
import { testDbKind } from '../helpers/db.ts';
import { root, startServer, type RunningServer } from '../helpers/server.ts';

// The embedded database's first start; PostgreSQL's never takes these paths.
describe.skipIf(testDbKind() !== 'pglite')('a first start on empty folders', () => {
  let work: string;
  let dataDir: string;
  let dist: string;
  let server: RunningServer | undefined;
  const siteUrl = 'http://localhost:4321';
  /**
   * The server's compile cache: Node's default folder under the temporary folder, here the test's
   * own (TMPDIR) — NODE_COMPILE_CACHE would turn the cache on by itself. Empty at first.
   */
  let serverCache: string;
  let tmpDir: string;
  const filesIn = (dir: string) =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : 0;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-first-start-'));
    // Inside the checkout: the built server bundle resolves packages upwards.
    fs.mkdirSync(path.join(root, '.cache'), { recursive: true });
    work = fs.mkdtempSync(path.join(root, '.cache', 'first-start-'));
    dist = path.join(work, 'dist');
    tmpDir = path.join(work, 'tmp');
    fs.mkdirSync(tmpDir);
    serverCache = path.join(tmpDir, 'node-compile-cache');
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('seeds, builds while the database is made, and serves the demo shop', async () => {
    server = await startServer({
      dataDir,
      dist,
      siteUrl,
      env: { TMPDIR: tmpDir },
    });
    const output = server.output();
    expect(output).toContain('seeded the demo catalogue (25 works)');
    expect(output).toContain('built the site (no build yet)');
    const gallery = await fetch(`${server.base}/gallery`);
    expect(gallery.status).toBe(200);
    const html = await gallery.text();
    expect(html).toContain('Lumière du Tage');
    const work = await fetch(`${server.base}/oeuvres/lumiere-du-tage`);
    expect(work.status).toBe(200);
    // The card's image: a variant of a master the early renders made and the seed stored.
    const src = /<img[^>]+src="(\/media\/[0-9a-f]{64}\/\d+\.\w+)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    const image = await fetch(`${server.base}${src}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    // Nothing of the build left beside the version it made.
    const logs = fs.readdirSync(path.join(dist, 'logs'));
    expect(logs.filter((f) => /snapshot|astro-cache/.test(f))).toEqual([]);
    expect(fs.readdirSync(path.join(dist, 'versions')).filter((f) => f.startsWith('.'))).toEqual(
      [],
    );
    // Neither the server nor its build wrote Node's compile cache on the way (decision 064).
    expect(filesIn(serverCache)).toBe(0);
    expect(filesIn(compileCacheDir(dist))).toBe(0);
  });

  it('starts again on the same folders without seeding or building', async () => {
    const served = readCurrent(dist);
    await server?.stop();
    server = await startServer({
      dataDir,
      dist,
      siteUrl,
      env: { TMPDIR: tmpDir },
    });
    const output = server.output();
    expect(output).not.toContain('seeded the demo catalogue');
    expect(output).not.toContain('built the site');
    expect(output).not.toContain('"part":"build"');
    expect(readCurrent(dist)).toBe(served);
    expect((await fetch(`${server.base}/gallery`)).status).toBe(200);
    // A start with a version built keeps its compiled modules for the next (written at ready).
    expect(filesIn(serverCache)).toBeGreaterThan(100);
  });
});
