// The golden shop (issue 23, CONVENTIONS 21): the expensive state of a fresh shop — the embedded
// database migrated and seeded with the demo catalogue, every image variant encoded, the site
// built for one site URL — made once and copied by every suite and every end-to-end server that
// needs a fresh shop. A server started on a copy with the same site URL finds its version up to
// date and its variants encoded: it builds and encodes nothing (api/build/index.ts ensureBuild).
//
// It is kept in .cache/golden/<key>, the key naming the sources (api/build computeSourceHash: the
// same hash a server compares) and the site URL, so a run with unchanged sources reuses the last
// run's; any change to the code, the content or the lock file makes a new one. Several processes
// asking at once (two Playwright copies, vitest's global setup) build it once: the first takes a
// lock, the others wait for the folder to appear.
//
// On PostgreSQL the same catalogue is seeded once into a template database; each server or suite
// gets `CREATE DATABASE … TEMPLATE`. The seed is deterministic (same rows, same ids, same images),
// so the catalogue hash — and the built version — are the embedded golden's.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  computeSourceHash,
  ensureBuild,
  linkTree,
  snapshotImages,
  catalogSnapshot,
} from '#api/build/index.ts';
import { prepareDatabase } from '#api/catalog/seed.ts';
import { openDatabase } from '#api/db/index.ts';
import { diskStorage } from '#api/media/storage.ts';
import { warmVariants } from '#api/media/variants.ts';
import { databaseUrlFor, quoteIdent } from '../helpers/pg-admin.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const goldenRoot = path.join(root, '.cache', 'golden');

/** The site URL the integration suites' servers use (their own port is not part of it). */
export const GOLDEN_SITE_URL = 'https://galerie.test';

export interface GoldenShop {
  key: string;
  siteUrl: string;
  /** DATA_DIR: pgdata/ (embedded database) and media/ (masters and variants). Read-only. */
  dataDir: string;
  /** GALERIE_DIST_DIR with one version built for `siteUrl`. Read-only. */
  dist: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `dir` made once by `make` (into a fresh folder), whichever process asks first; the others wait
 * for it. A lock left by a dead process is taken over.
 */
async function once(dir: string, make: (into: string) => Promise<void>): Promise<void> {
  const lock = `${dir}.lock`;
  const done = path.join(dir, '.complete');
  // A bound on failure only: making it takes seconds to a few minutes on a loaded machine.
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    if (fs.existsSync(done)) return;
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = 0;
      try {
        holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        // its pid is being written
      }
      if (holder && !alive(holder)) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${dir} was never made`, { cause: error });
      else await sleep(250);
      continue;
    }
    try {
      if (fs.existsSync(done)) return;
      const partial = `${dir}.partial-${process.pid}`;
      fs.rmSync(partial, { recursive: true, force: true });
      await make(partial);
      fs.writeFileSync(path.join(partial, '.complete'), new Date().toISOString());
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(partial, dir);
      return;
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * The golden shop for `siteUrl`, made if this checkout has none for its current sources: the data
 * (site-independent) once, and a build per site URL. Safe to call from several processes at once.
 */
export async function ensureGoldenShop(
  siteUrl: string,
  log: (line: string) => void = () => {},
): Promise<GoldenShop> {
  const sourceHash = await computeSourceHash(root);
  const key = sourceHash.slice(0, 16);
  const base = path.join(goldenRoot, key);
  const dataDir = path.join(base, 'data');
  await once(dataDir, async (into) => {
    pruneOtherSources(key);
    const handle = await openDatabase({ pgliteDir: path.join(into, 'pgdata') });
    try {
      await prepareDatabase(handle.db, { dataDir: into });
      // Three encoders at once: an encode keeps only part of two cores busy.
      const media = path.join(into, 'media');
      const queue = snapshotImages(await catalogSnapshot(handle.db));
      let encoded = 0;
      await Promise.all(
        [1, 2, 3].map(async () => {
          for (let image = queue.shift(); image; image = queue.shift()) {
            const made = await warmVariants(
              handle.db,
              diskStorage(media),
              path.join(media, 'variants'),
              [image],
            );
            encoded += made;
          }
        }),
      );
      log(`golden shop: seeded, ${encoded} image variants encoded`);
    } finally {
      await handle.close();
    }
  });
  const site = createHash('sha256').update(siteUrl).digest('hex').slice(0, 12);
  const dist = path.join(base, `dist-${site}`);
  await once(dist, async (into) => {
    // Built from a copy: opening the database writes to it, and the golden data stays as made.
    const scratch = `${into}.data`;
    fs.cpSync(path.join(dataDir, 'pgdata'), scratch, { recursive: true });
    const handle = await openDatabase({ pgliteDir: scratch });
    try {
      const build = await ensureBuild(handle.db, { root, dist: into, siteUrl, niceness: 0 });
      log(`golden shop: built the site for ${siteUrl} in ${(build.ms / 1000).toFixed(1)} s`);
    } finally {
      await handle.close();
      fs.rmSync(scratch, { recursive: true, force: true });
      fs.rmSync(`${scratch}.lock`, { force: true });
    }
  });
  return { key, siteUrl, dataDir, dist };
}

/** Golden shops of other sources are never used again: removed, so .cache does not grow. */
function pruneOtherSources(key: string): void {
  for (const name of fs.readdirSync(goldenRoot)) {
    if (name === key || name.startsWith('seed-')) continue;
    // Another process may be copying it right now: only what is older than an hour goes.
    const age = Date.now() - fs.statSync(path.join(goldenRoot, name)).mtimeMs;
    if (age > 3600_000) fs.rmSync(path.join(goldenRoot, name), { recursive: true, force: true });
  }
}

/**
 * What of a golden dist folder a copy may share with it by hard links instead of copying: files
 * that are never written again, only added to or removed — the complete versions (each server
 * adds its in-use marker to its own directory), the compressed copies by content and Node's
 * compile cache (both written to a new file, then renamed). The rest — the database, the media,
 * the incremental build's manifest, `current` — is copied. Copying these cost 2.3–3.5 s, most of
 * it in the kernel, for each of the ~60 shops of a run (29 Nov, a 2-core host).
 */
const SHARED_IN_DIST = new Set(['versions', 'compressed', 'node-compile-cache']);

/**
 * A fresh shop of one's own in `dir` (created; inside the checkout, so the built server bundle
 * resolves its packages): DATA_DIR and GALERIE_DIST_DIR from the golden one, copied but for what
 * is never written in place (SHARED_IN_DIST).
 */
export async function copyGoldenShop(
  golden: GoldenShop,
  dir: string,
): Promise<{ dataDir: string; dist: string }> {
  const dataDir = path.join(dir, 'data');
  const dist = path.join(dir, 'dist');
  fs.cpSync(golden.dataDir, dataDir, { recursive: true });
  fs.mkdirSync(dist, { recursive: true });
  for (const entry of fs.readdirSync(golden.dist, { withFileTypes: true })) {
    const source = path.join(golden.dist, entry.name);
    const target = path.join(dist, entry.name);
    if (entry.isDirectory() && SHARED_IN_DIST.has(entry.name))
      await linkTree(source, target, false);
    else fs.cpSync(source, target, { recursive: true });
  }
  return { dataDir, dist };
}

/**
 * A template database on DATABASE_URL's server holding the golden catalogue (migrated and seeded
 * exactly as the embedded one), named after `owner` (a process of the run): made by the first
 * process of the run that asks, under an advisory lock, and found by the others. Its name; drop
 * it with `dropDatabase` when the run ends.
 */
export async function makeGoldenTemplate(
  url: string,
  golden: GoldenShop,
  owner: number = process.pid,
): Promise<string> {
  const name = `galerie_gold_${golden.key}_${owner}`;
  await withAdmin(url, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return;
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      // The seed writes its masters into a DATA_DIR: a throw-away one (the golden has the same).
      const scratch = fs.mkdtempSync(path.join(goldenRoot, 'seed-'));
      const handle = await openDatabase({
        databaseUrl: databaseUrlFor(url, name),
        maxConnections: 1,
      });
      try {
        await prepareDatabase(handle.db, { dataDir: scratch });
      } finally {
        await handle.close();
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return name;
}

/** A new database cloned from `template`; its URL. */
export async function cloneDatabase(url: string, template: string, name: string): Promise<string> {
  await withAdmin(url, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`);
  });
  return databaseUrlFor(url, name);
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await withAdmin(url, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
