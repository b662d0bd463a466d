// Builds the site into a new version folder (./versions.ts) from a catalogue snapshot: a JSON file
// handed to `astro build`, so the build never opens the database the server holds. The build runs
// in a child process at lower CPU priority, so buyers are served while it runs.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { listPublicArtworks, type PublicArtwork } from '../catalog/index.ts';
import type { Database } from '../db/index.ts';
import { shownStock } from '../../src/domain/low-stock.ts';
import { getSettings, type SiteSettings } from '../settings/index.ts';
import { CLIENT_INPUT_FILE, REUSE_SERVER_SUFFIX } from './request-objects.ts';
import {
  completeVersion,
  logsDir,
  newVersionId,
  partialDir,
  readCurrent,
  versionDir,
  writeCurrent,
} from './versions.ts';

export interface CatalogSnapshot {
  artworks: PublicArtwork[];
  settings: SiteSettings;
}

export interface BuildInfo {
  sourceHash: string;
  /** The public URL baked into canonical links and the sitemap. */
  siteUrl: string;
  catalogHash: string;
  /**
   * What the on-demand pages' server bundle is built from: the sources, the site URL and the
   * settings — never the works, which only prerendered pages read (docs/decisions/032). Two
   * versions with the same one render the same on-demand pages, so a server keeps the bundle it
   * has loaded (api/http/site.ts). Absent from versions built before it existed.
   */
  serverHash?: string;
  builtAt: string;
}

export class BuildError extends Error {
  override name = 'BuildError';
  /** The last line the build printed: what the admin shell shows. */
  readonly lastLine: string;
  /** The whole output, kept in dist/logs. */
  readonly logFile: string | null;
  constructor(message: string, lastLine: string, logFile: string | null) {
    super(message);
    this.lastLine = lastLine;
    this.logFile = logFile;
  }
}

/** Inputs of the built site besides the catalogue. Tests and bench scripts do not change it. */
const SOURCE_ENTRIES = [
  'src',
  'content',
  'public',
  'api',
  'astro.config.mjs',
  'package-lock.json',
  'tsconfig.json',
];
const IGNORED = /(\.test\.ts$|(^|\/)node_modules\/)/;

async function listFiles(root: string, entry: string): Promise<string[]> {
  const full = path.join(root, entry);
  const stat = await fs.stat(full).catch(() => null);
  if (!stat) return [];
  if (stat.isFile()) return [entry];
  const files: string[] = [];
  for (const child of await fs.readdir(full, { withFileTypes: true })) {
    const rel = path.posix.join(entry, child.name);
    if (IGNORED.test(rel)) continue;
    if (child.isDirectory()) files.push(...(await listFiles(root, rel)));
    else if (child.isFile()) files.push(rel);
  }
  return files;
}

export async function computeSourceHash(root: string): Promise<string> {
  const hash = createHash('sha256');
  const files = (await Promise.all(SOURCE_ENTRIES.map((e) => listFiles(root, e)))).flat().sort();
  for (const file of files) {
    hash
      .update(file)
      .update('\0')
      .update(await fs.readFile(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/**
 * What the prerendered pages are built from. A print's stock is kept only as far as a page can
 * show it (src/domain/low-stock.ts): the snapshot, its hash and so the pages change with a sale only
 * when what a visitor reads changes; the live availability tells the exact figures.
 */
export async function catalogSnapshot(db: Database): Promise<CatalogSnapshot> {
  const [artworks, settings] = await Promise.all([listPublicArtworks(db), getSettings(db)]);
  return {
    artworks: artworks.map((work) => ({ ...work, stock: shownStock(work.stock) })),
    settings,
  };
}

export function hashSnapshot(snapshot: CatalogSnapshot): string {
  return createHash('sha256').update(JSON.stringify(snapshot)).digest('hex');
}

/** What a build of `snapshot` is made from (without its time). */
export function buildInputs(
  snapshot: CatalogSnapshot,
  sourceHash: string,
  siteUrl: string,
): Omit<BuildInfo, 'builtAt'> {
  const serverHash = createHash('sha256')
    .update(JSON.stringify([sourceHash, siteUrl, snapshot.settings]))
    .digest('hex');
  return { sourceHash, siteUrl, catalogHash: hashSnapshot(snapshot), serverHash };
}

export async function readBuildInfo(outDir: string): Promise<BuildInfo | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(outDir, 'build-info.json'), 'utf8')) as BuildInfo;
  } catch {
    return null;
  }
}

/** The catalogue's image masters, whose variants the pages reference. */
export function snapshotImages(snapshot: CatalogSnapshot): { sha256: string; width: number }[] {
  const portrait = snapshot.settings.artist_portrait;
  return [
    // Every photo of a work (issue 25): the card first; the zoom's full size is never warmed.
    ...snapshot.artworks.flatMap((a) =>
      a.images.length > 0 ? a.images : a.image ? [a.image] : [],
    ),
    ...(portrait ? [portrait] : []),
  ];
}

/** Node's compile cache for the builds of one dist folder (kept across versions). */
export const compileCacheDir = (dist: string) => path.join(dist, 'node-compile-cache');

export interface BuildOptions {
  root: string;
  dist: string;
  siteUrl: string;
  /** Receives the build's own output, line by line. */
  log?: (line: string) => void;
  /** Stops the child build (server shutdown). */
  signal?: AbortSignal;
  /** CPU priority of the build: `nice` increment (0 = same as the server). */
  niceness?: number;
  /**
   * Whether the child reads and writes Node's compile cache (`<dist>/node-compile-cache`): on by
   * default, so each publish's build compiles Astro, Vite and Rolldown once per checkout. Off for
   * a first start's build, which would only write it, on the way to ready (docs/decisions/064).
   */
  compileCache?: boolean;
}

export interface BuiltVersion {
  id: string;
  dir: string;
  info: BuildInfo;
  ms: number;
  snapshotImages: { sha256: string; width: number }[];
}

/** Builds a complete new version from the database's current catalogue; serves nothing itself. */
export async function buildVersion(db: Database, options: BuildOptions): Promise<BuiltVersion> {
  const snapshot = await catalogSnapshot(db);
  const info: BuildInfo = {
    ...buildInputs(snapshot, await computeSourceHash(options.root), options.siteUrl),
    builtAt: new Date().toISOString(),
  };
  return buildSnapshot(snapshot, info, options);
}

export async function buildSnapshot(
  snapshot: CatalogSnapshot,
  info: BuildInfo,
  options: BuildOptions,
): Promise<BuiltVersion> {
  return (await startBuild(options)).finish(snapshot, info);
}

/**
 * A build whose `astro build` runs before its catalogue snapshot exists: its content loader waits
 * for the snapshot file (src/content.config.ts), so the child's start — Node, Astro, Vite, the
 * config — overlaps what the server still does before it knows the catalogue (a first start
 * creating and seeding its database, issue 28 §2).
 */
export interface StartedBuild {
  /**
   * Hands the build its snapshot and waits for the version. `signal` stops it (the server
   * shutting down): a build started ahead was not started with the publish's own signal.
   */
  finish(snapshot: CatalogSnapshot, info: BuildInfo, signal?: AbortSignal): Promise<BuiltVersion>;
  /** Stops a build that will not be needed after all. */
  abandon(): Promise<void>;
  /** False once its child has exited: a build that can no longer be finished. */
  readonly running: boolean;
}

export async function startBuild(options: BuildOptions): Promise<StartedBuild> {
  const { dist, root } = options;
  const id = newVersionId();
  const outDir = partialDir(dist, id);
  await fs.mkdir(logsDir(dist), { recursive: true });
  await fs.mkdir(path.dirname(outDir), { recursive: true });
  // Beside the output directory, not in it: astro build empties its outDir first.
  const snapshotFile = path.join(logsDir(dist), `${id}.snapshot.json`);
  // Astro keeps the content layer's entries in its cache folder (node_modules/.astro by default)
  // and merges what it finds there into the next build: two builds of one checkout at once (a
  // publish and `npm run build`, two servers of one checkout) would mix their catalogues. Each
  // build gets a folder of its own.
  const cacheDir = path.join(logsDir(dist), `${id}.astro-cache`);
  // ... but the work pages the last build rendered are handed on (docs/decisions/053).
  await takeIncrementalCache(dist, cacheDir);
  const logFile = path.join(logsDir(dist), `${id}.log`);
  // Written from the moment the build has its catalogue (or fails): a build waiting for one
  // (./standby.ts) leaves no log of a build that never ran; what it printed meanwhile is kept.
  let logStream: WriteStream | undefined;
  const printedBefore: Buffer[] = [];
  const openLog = () => {
    if (logStream) return;
    logStream = createWriteStream(logFile);
    for (const chunk of printedBefore.splice(0)) logStream.write(chunk);
  };
  const log = options.log ?? (() => {});
  const astroBin = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  // Astro's modules rewritten as the child loads them (./child-hooks.ts).
  const hooks = path.join(root, 'api', 'build', 'child-hooks.ts');
  const node = [process.execPath, '--import', hooks, astroBin, 'build'];
  const niceness = options.niceness ?? 10;
  const [command, args] =
    niceness > 0 && process.platform !== 'win32'
      ? ['nice', ['-n', String(niceness), ...node]]
      : [node[0]!, node.slice(1)];
  const tail: string[] = [];
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const done = new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: {
        ...process.env,
        GALERIE_OUT_DIR: outDir,
        GALERIE_CACHE_DIR: cacheDir,
        // Compressed copies by content, shared by the builds of this dist folder.
        GALERIE_COMPRESS_CACHE: path.join(dist, 'compressed'),
        GALERIE_CATALOG_SNAPSHOT: snapshotFile,
        PUBLIC_SITE_URL: options.siteUrl,
        // The fixed costs of each publish's child (issue 27: change → visible ≤ 8 s): Node
        // keeps the compiled code of Astro, Vite and Rolldown between builds instead of
        // compiling them again, and Astro sends no usage data (nor waits for it at exit).
        NODE_COMPILE_CACHE: process.env['NODE_COMPILE_CACHE'] || compileCacheDir(dist),
        ...(options.compileCache === false && { NODE_DISABLE_COMPILE_CACHE: '1' }),
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
    });
    const onData = (chunk: Buffer) => {
      if (logStream) logStream.write(chunk);
      else printedBefore.push(chunk);
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        log(line);
        tail.push(line);
        if (tail.length > 20) tail.shift();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code, killedBy) => {
      if (code === 0) resolve();
      else {
        // Stopped on purpose (abandoned, or the server stopping): not a failure to keep a log of.
        if (!signal.aborted) openLog();
        const lastLine = lastMeaningfulLine(tail) ?? `astro build stopped (${killedBy ?? code})`;
        reject(
          new BuildError(
            `astro build exited with code ${code ?? killedBy}:\n${tail.join('\n')}`,
            lastLine,
            logFile,
          ),
        );
      }
    });
  });
  done.catch(() => {});
  let running = true;
  void done.then(
    () => (running = false),
    () => (running = false),
  );
  let handed = false;
  const cleanUp = async () => {
    logStream?.end();
    await fs.rm(snapshotFile, { force: true });
    await fs.rm(snapshotFile + REUSE_SERVER_SUFFIX, { force: true });
    await fs.rm(cacheDir, { recursive: true, force: true });
  };
  return {
    get running() {
      return running;
    },
    async finish(snapshot, info, cancel) {
      const handedAt = performance.now();
      handed = true;
      openLog();
      const onCancel = () => stop.abort();
      if (cancel?.aborted) onCancel();
      cancel?.addEventListener('abort', onCancel, { once: true });
      try {
        if (info.siteUrl !== options.siteUrl)
          throw new Error(`the build was started for ${options.siteUrl}, not ${info.siteUrl}`);
        // Before the snapshot: the child asks once it has built the prerendered pages.
        const reuse = await serverToReuse(dist, info);
        if (reuse) await fs.writeFile(snapshotFile + REUSE_SERVER_SUFFIX, reuse.dir);
        // Written whole, then named: the waiting loader never reads half a file.
        await fs.writeFile(`${snapshotFile}.partial`, JSON.stringify(snapshot));
        await fs.rename(`${snapshotFile}.partial`, snapshotFile);
        await done;
        if (reuse) await adoptServer(reuse.dir, outDir);
        await fs.writeFile(path.join(outDir, 'build-info.json'), JSON.stringify(info, null, 2));
        await handOnIncrementalCache(dist, cacheDir);
        // Named when finished, not when started: a build started ahead (./standby.ts) may have
        // waited for its catalogue while other versions were made.
        const version = newVersionId();
        const dir = completeVersion(dist, id, version);
        writeCurrent(dist, version);
        return {
          id: version,
          dir,
          info,
          // From the snapshot on: the time the site took to build once its catalogue was known.
          ms: Math.round(performance.now() - handedAt),
          snapshotImages: snapshotImages(snapshot),
        };
      } catch (error) {
        // A build still waiting for its snapshot, or still running, goes with it.
        stop.abort();
        await done.catch(() => {});
        await fs.rm(outDir, { recursive: true, force: true });
        if (error instanceof BuildError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new BuildError(`The build could not run: ${message}`, message, logFile);
      } finally {
        cancel?.removeEventListener('abort', onCancel);
        await fs.rm(`${snapshotFile}.partial`, { force: true });
        await cleanUp();
      }
    },
    async abandon() {
      stop.abort();
      await done.catch(() => {});
      // A build that never had its catalogue rendered nothing: the pages it took are handed on,
      // unless a build that ran meanwhile handed on its own (newer) ones.
      if (!handed && !existsSync(incrementalDir(dist)))
        await handOnIncrementalCache(dist, cacheDir);
      await fs.rm(outDir, { recursive: true, force: true });
      await cleanUp();
      await fs.rm(logFile, { force: true });
    },
  };
}

/**
 * The version whose server bundle a build of `info` keeps (docs/decisions/063): the current one,
 * when it was built from the same sources, site URL and settings (`serverHash`) — the works, the
 * only difference, are read by prerendered pages alone (decision 032), and a server already keeps
 * the bundle it has loaded for such a version (api/http/site.ts). Its client build's output is
 * taken too (./child-hooks.ts, decision 065). `PUBLISH_REUSE_SERVER=off` builds both every time.
 */
export async function serverToReuse(
  dist: string,
  info: Pick<BuildInfo, 'serverHash'>,
): Promise<{ id: string; dir: string } | null> {
  if (process.env['PUBLISH_REUSE_SERVER'] === 'off' || !info.serverHash) return null;
  const id = readCurrent(dist);
  if (!id) return null;
  const dir = versionDir(dist, id);
  const current = await readBuildInfo(dir);
  if (current?.serverHash !== info.serverHash) return null;
  // Older versions did not record their client build's inputs (child-hooks.ts).
  const complete = ['server/entry.mjs', CLIENT_INPUT_FILE].every((f) =>
    existsSync(path.join(dir, f)),
  );
  return complete ? { id, dir } : null;
}

/**
 * `from` into `to`, each file a hard link where the file system allows one, else a copy: for
 * files never written in place (versions are never written after). `onlyMissing` keeps what
 * `to` already has.
 */
export async function linkTree(from: string, to: string, onlyMissing: boolean): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target, onlyMissing);
    else if (!onlyMissing || !existsSync(target))
      await fs.link(source, target).catch(() => fs.copyFile(source, target));
  }
}

/**
 * A build that skipped its SSR build takes the server bundle of `from`, and the styles and assets
 * only that bundle's pages use: the SSR build emits them (Astro moves them to the client folder).
 * The rest of `_astro/` is the client build of the same sources and inputs (./child-hooks.ts), so
 * the same files: the version equals a full build's, file for file
 * (tests/integration/build-isolation.test.ts).
 */
async function adoptServer(from: string, outDir: string): Promise<void> {
  await fs.rm(path.join(outDir, 'server'), { recursive: true, force: true });
  await linkTree(path.join(from, 'server'), path.join(outDir, 'server'), false);
  const assets = path.join(from, 'client', '_astro');
  if (existsSync(assets)) await linkTree(assets, path.join(outDir, 'client', '_astro'), true);
}

/**
 * Astro's incremental build (experimental.incrementalBuild) keeps, in its cache folder, a manifest
 * of the pages it rendered with their `cacheKey` and a copy of each: a page whose key and code are
 * unchanged is copied instead of rendered — the work pages (src/lib/work-pages.ts), all but the
 * changed work's at a publish. Each build has a cache folder of its own (see buildSnapshot), so
 * those two entries move from one build's folder to the next through `<dist>/incremental`: taken
 * (renamed, so two builds at once never share them: the second renders everything) before the
 * build, put back after a complete one, dropped with a failed one.
 */
const INCREMENTAL_ENTRIES = ['incremental-build.json', 'dist'];
const incrementalDir = (dist: string) => path.join(dist, 'incremental');

async function takeIncrementalCache(dist: string, cacheDir: string): Promise<boolean> {
  const from = incrementalDir(dist);
  const taken = `${cacheDir}.incremental`;
  try {
    await fs.rename(from, taken);
  } catch {
    return false;
  }
  await fs.mkdir(cacheDir, { recursive: true });
  for (const entry of INCREMENTAL_ENTRIES)
    await fs.rename(path.join(taken, entry), path.join(cacheDir, entry)).catch(() => {});
  await fs.rm(taken, { recursive: true, force: true });
  return true;
}

async function handOnIncrementalCache(dist: string, cacheDir: string): Promise<void> {
  const to = incrementalDir(dist);
  const staged = `${cacheDir}.incremental`;
  await fs.mkdir(staged, { recursive: true });
  for (const entry of INCREMENTAL_ENTRIES)
    await fs.rename(path.join(cacheDir, entry), path.join(staged, entry)).catch(() => {});
  // Another build may have handed its own on meanwhile: the later one wins.
  await fs.rm(to, { recursive: true, force: true });
  await fs.rename(staged, to).catch(() => fs.rm(staged, { recursive: true, force: true }));
}

// Astro and Vite print an error as `[SomeError] what` with its details on the next lines, then
// hints, links and a stack: the owner's one line is the error and its details.
const SECTION = /^(Hint|Error reference|Location|Stack trace):?$/;
const NOISE = /^(at\s|https?:\/\/|file:\/\/)/;

export function lastMeaningfulLine(lines: string[]): string | undefined {
  const clean = lines.map((l) => stripVTControlCharacters(l).trim()).filter(Boolean);
  const start = clean.findLastIndex(
    (l) => !SECTION.test(l) && /^\[\w*Error\]|^\w*Error:|^error:/i.test(l),
  );
  if (start >= 0) {
    const details: string[] = [];
    for (const line of clean.slice(start + 1)) {
      if (SECTION.test(line) || NOISE.test(line) || details.length === 3) break;
      details.push(line);
    }
    return [clean[start], ...details].join(' ');
  }
  return clean.findLast((l) => !NOISE.test(l) && !SECTION.test(l));
}

export interface EnsureBuildOptions extends BuildOptions {
  force?: boolean;
  /**
   * A version that must not be reused even when it matches: the one this node already serves,
   * when a publish was asked for (several nodes, docs/decisions/028). A matching current version
   * another node built meanwhile is reused instead of built twice.
   */
  stale?: string | null;
  /** A build started already (startBuild): finished when a build is needed, else abandoned. */
  early?: StartedBuild;
  /** Builds started ahead of a publish (./standby.ts): one is taken when a build is needed. */
  standby?: { take(): StartedBuild | undefined };
}

export type EnsureBuildResult = BuiltVersion & { built: boolean; reason: string | null };

/**
 * The version to serve at start-up: the current one when it was built from these sources, this
 * site URL and this catalogue, else a new build (its reason says why).
 */
export async function ensureBuild(
  db: Database,
  options: EnsureBuildOptions,
): Promise<EnsureBuildResult> {
  const snapshot = await catalogSnapshot(db);
  const wanted = buildInputs(snapshot, await computeSourceHash(options.root), options.siteUrl);
  const currentId = readCurrent(options.dist);
  const current = currentId ? await readBuildInfo(versionDir(options.dist, currentId)) : null;
  let reason: string | null = null;
  if (options.force) reason = 'requested';
  else if (!currentId || !current) reason = 'no build yet';
  else if (options.stale && currentId === options.stale) reason = 'requested';
  else if (current.sourceHash !== wanted.sourceHash) reason = 'the sources changed';
  else if (current.siteUrl !== wanted.siteUrl) reason = 'the site URL changed';
  else if (current.catalogHash !== wanted.catalogHash) reason = 'the catalogue changed';
  if (!reason && currentId && current) {
    await options.early?.abandon();
    return {
      id: currentId,
      dir: versionDir(options.dist, currentId),
      info: current,
      ms: 0,
      snapshotImages: snapshotImages(snapshot),
      built: false,
      reason: null,
    };
  }
  const info: BuildInfo = { ...wanted, builtAt: new Date().toISOString() };
  const build = options.early ?? options.standby?.take() ?? (await startBuild(options));
  return { ...(await build.finish(snapshot, info, options.signal)), built: true, reason };
}
