// Builds the site when there is no build or when what it was built from changed: the catalogue
// (as a JSON snapshot, so the build never opens the database the server holds) or the sources.
// The build goes to a fresh directory that replaces dist/ only once complete.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { listPublicArtworks, type PublicArtwork } from '../catalog/index.ts';
import type { Database } from '../db/index.ts';
import { getSettings, type SiteSettings } from '../settings/index.ts';

export interface CatalogSnapshot {
  artworks: PublicArtwork[];
  settings: SiteSettings;
}

export interface BuildInfo {
  sourceHash: string;
  /** The public URL baked into canonical links and the sitemap. */
  siteUrl: string;
  catalogHash: string;
  builtAt: string;
}

export class BuildError extends Error {
  override name = 'BuildError';
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

export async function catalogSnapshot(db: Database): Promise<CatalogSnapshot> {
  const [artworks, settings] = await Promise.all([listPublicArtworks(db), getSettings(db)]);
  return { artworks, settings };
}

export function hashSnapshot(snapshot: CatalogSnapshot): string {
  return createHash('sha256').update(JSON.stringify(snapshot)).digest('hex');
}

export async function readBuildInfo(outDir: string): Promise<BuildInfo | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(outDir, 'build-info.json'), 'utf8')) as BuildInfo;
  } catch {
    return null;
  }
}

export interface EnsureBuildOptions {
  root: string;
  siteUrl: string;
  outDir?: string;
  force?: boolean;
  /** Receives the build's own output, line by line. */
  log?: (line: string) => void;
}

export type EnsureBuildResult = (
  { built: false; info: BuildInfo } | { built: true; info: BuildInfo; reason: string; ms: number }
) & {
  /** The catalogue's image masters, whose variants the pages reference. */
  snapshotImages: { sha256: string; width: number }[];
};

export async function ensureBuild(
  db: Database,
  options: EnsureBuildOptions,
): Promise<EnsureBuildResult> {
  const outDir = options.outDir ?? path.join(options.root, 'dist');
  const snapshot = await catalogSnapshot(db);
  const wanted = {
    sourceHash: await computeSourceHash(options.root),
    siteUrl: options.siteUrl,
    catalogHash: hashSnapshot(snapshot),
  };
  const current = await readBuildInfo(outDir);
  const entryExists = await fs
    .access(path.join(outDir, 'server', 'entry.mjs'))
    .then(() => true)
    .catch(() => false);
  let reason: string | null = null;
  if (options.force) reason = 'requested';
  else if (!current || !entryExists) reason = 'no build yet';
  else if (current.sourceHash !== wanted.sourceHash) reason = 'the sources changed';
  else if (current.siteUrl !== wanted.siteUrl) reason = 'the site URL changed';
  else if (current.catalogHash !== wanted.catalogHash) reason = 'the catalogue changed';
  const portrait = snapshot.settings.artist_portrait;
  const snapshotImages = [
    ...snapshot.artworks.flatMap((a) => (a.image ? [a.image] : [])),
    ...(portrait ? [portrait] : []),
  ];
  if (!reason && current) return { built: false, info: current, snapshotImages };

  const started = performance.now();
  const info: BuildInfo = { ...wanted, builtAt: new Date().toISOString() };
  await buildInto(options.root, outDir, snapshot, info, options.log ?? (() => {}));
  return {
    built: true,
    info,
    reason: reason ?? 'requested',
    ms: Math.round(performance.now() - started),
    snapshotImages,
  };
}

async function buildInto(
  root: string,
  outDir: string,
  snapshot: CatalogSnapshot,
  info: BuildInfo,
  log: (line: string) => void,
): Promise<void> {
  const nextDir = `${outDir}.next`;
  const oldDir = `${outDir}.old`;
  await fs.rm(nextDir, { recursive: true, force: true });
  // Beside the output directory, not in it: astro build empties its outDir first.
  const snapshotFile = `${outDir}.snapshot.json`;
  await fs.writeFile(snapshotFile, JSON.stringify(snapshot));

  const astroBin = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [astroBin, 'build'], {
      cwd: root,
      env: {
        ...process.env,
        GALERIE_OUT_DIR: nextDir,
        GALERIE_CATALOG_SNAPSHOT: snapshotFile,
        PUBLIC_SITE_URL: info.siteUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        log(line);
        tail.push(line);
        if (tail.length > 20) tail.shift();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => {
      void fs.rm(snapshotFile, { force: true });
      reject(error);
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BuildError(`astro build exited with code ${code}:\n${tail.join('\n')}`));
    });
  });
  await fs.rm(snapshotFile, { force: true });
  await fs.writeFile(path.join(nextDir, 'build-info.json'), JSON.stringify(info, null, 2));
  await fs.rm(oldDir, { recursive: true, force: true });
  await fs.rename(outDir, oldDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await fs.rename(nextDir, outDir);
  await fs.rm(oldDir, { recursive: true, force: true });
}
