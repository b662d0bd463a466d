// Backups (issue 14 §3, docs/decisions/027): `createBackup` writes one archive — the database as of
// one snapshot, the media masters, a manifest with checksums; `restoreBackup` puts it back into an
// empty database and an empty media folder, after verifying the whole archive.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { MIGRATIONS_DIR, migrateDownToZero, migrateTo, migrateToLatest } from '../db/migrate.ts';
import { sql } from 'kysely';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  BackupError,
  extractArchive,
  fileSource,
  writeArchive,
  type ArchiveSource,
  type Manifest,
} from './archive.ts';
import { countPublicTables, dumpDatabase, loadDatabase } from './database.ts';

export { BackupError } from './archive.ts';
export type { Manifest } from './archive.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- works on any schema
type AnyDb = Kysely<any>;

const root = path.resolve(import.meta.dirname, '..', '..');

/** Derived images, rendered again on demand: never archived. */
const VARIANTS_DIR = 'variants';

async function appVersion(): Promise<{ name: string; version: string }> {
  try {
    const pkg = JSON.parse(await fs.readFile(path.join(root, 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return { name: pkg.name ?? 'galerie', version: pkg.version ?? '0.0.0' };
  } catch {
    return { name: 'galerie', version: '0.0.0' };
  }
}

/** Every file under `<dataDir>/media` but the variants and half-written `.tmp` files, sorted. */
export async function listMediaMasters(mediaDir: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(relative: string): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(path.join(mediaDir, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (name !== VARIANTS_DIR) await walk(name);
      } else if (entry.isFile() && !entry.name.endsWith('.tmp')) found.push(name);
    }
  }
  await walk('');
  return found.sort();
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Manifest;
  ms: number;
}

export interface BackupOptions {
  db: AnyDb;
  kind: 'pglite' | 'postgres';
  /** DATA_DIR: the masters are in its `media/`. */
  dataDir: string;
  /** The archive to write (its folder is created). */
  out: string;
  now?: Date;
}

/** Writes one backup archive; its parts are staged beside it and removed. */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const out = path.resolve(options.out);
  await fs.mkdir(path.dirname(out), { recursive: true });
  const parts = `${out}.parts-${randomBytes(4).toString('hex')}`;
  try {
    const dump = await dumpDatabase(options.db, parts);
    const mediaDir = path.join(options.dataDir, 'media');
    const masters = await listMediaMasters(mediaDir);
    const sources: ArchiveSource[] = [
      ...dump.tables.map((table) => fileSource(table.file, path.join(parts, table.file))),
      ...masters.map((name) =>
        fileSource(`media/${name}`, path.join(mediaDir, ...name.split('/'))),
      ),
    ];
    const app = await appVersion();
    const manifest = await writeArchive(out, sources, (files) => {
      const media = files.filter((f) => f.path.startsWith('media/'));
      const archived = new Set(media.map((f) => f.path.slice('media/'.length)));
      return {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        createdAt: (options.now ?? new Date()).toISOString(),
        app,
        source: { kind: options.kind, server: dump.server },
        migrations: dump.migrations,
        tables: dump.tables,
        sequences: dump.sequences,
        media: {
          files: media.length,
          bytes: media.reduce((sum, f) => sum + f.size, 0),
          missing: dump.mediaKeys.filter((key) => !archived.has(key)).sort(),
        },
      };
    });
    const stat = await fs.stat(out);
    return { file: out, bytes: stat.size, manifest, ms: performance.now() - started };
  } finally {
    await fs.rm(parts, { recursive: true, force: true });
  }
}

/** The migrations this code has, in order (file names without extension, as Kysely names them). */
export async function codeMigrations(): Promise<string[]> {
  return (await fs.readdir(MIGRATIONS_DIR))
    .filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('.test.'))
    .map((f) => f.replace(/\.(ts|js|mjs)$/, ''))
    .sort();
}

/** Refuses a backup made by newer (or different) code: its migrations must begin this code's list. */
export function checkMigrations(backup: string[], code: string[]): void {
  const unknown = backup.filter((name) => !code.includes(name));
  if (unknown.length)
    throw new BackupError(
      `this backup was made by a newer version of Galerie (migration ${unknown.at(-1)} is unknown here): update Galerie, then restore`,
    );
  const prefix = code.slice(0, backup.length);
  if (prefix.some((name, i) => name !== backup[i]))
    throw new BackupError(
      `this backup's migrations (${backup.at(-1)}) do not follow this version's order: restore it with the version of Galerie that made it`,
    );
}

export interface RestoreOptions {
  file: string;
  /** The target database, opened by the caller (PGlite in DATA_DIR, or DATABASE_URL). */
  db: AnyDb;
  /** DATA_DIR: the masters go to its `media/` (already there with the same bytes is fine). */
  dataDir: string;
  /** Progress lines for the person restoring. */
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  rows: number;
  mediaFiles: number;
  /** Migrations newer than the backup, applied after the load. */
  migrated: string[];
  ms: number;
}

/**
 * Restores an archive: verifies it whole (checksums, manifest), checks that this code knows its
 * migrations and that the database and the media folder are empty, then migrates the database to
 * the backup's level, loads the rows in one transaction, moves the masters in place and applies
 * any newer migration.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const say = options.log ?? (() => {});
  const mediaDir = path.join(options.dataDir, 'media');
  await fs.mkdir(options.dataDir, { recursive: true });
  const staging = await fs.mkdtemp(path.join(options.dataDir, '.restore-'));
  try {
    say(`Verifying ${options.file}…`);
    const manifest = await extractArchive(options.file, staging);
    checkMigrations(manifest.migrations, await codeMigrations());
    const present = await mastersAlreadyThere(mediaDir, manifest);
    const tables = await countPublicTables(options.db);
    if (tables > 0)
      throw new BackupError(
        `the target database is not empty (it has ${tables} tables): restore into a new, empty database (createdb …) or a new DATA_DIR`,
      );

    const level = manifest.migrations.at(-1)!;
    say(`Creating the schema at migration ${level}…`);
    await migrateTo(options.db, level);
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    say(`Loading ${rows} rows into ${manifest.tables.length} tables…`);
    try {
      await loadDatabase(options.db, manifest, staging);
    } catch (error) {
      // Leave the database as empty as it was, so that the restore can simply be run again.
      await emptyAgain(options.db).catch(() => {});
      throw error;
    }

    const stagedMedia = path.join(staging, 'media');
    const masters = await listMediaMasters(stagedMedia);
    for (const name of masters) {
      if (present.has(name)) continue;
      const to = path.join(mediaDir, ...name.split('/'));
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.rename(path.join(stagedMedia, ...name.split('/')), to);
    }
    const migrated = await migrateToLatest(options.db);
    if (migrated.length)
      say(`Applied ${migrated.length} newer migration(s): ${migrated.join(', ')}`);
    return {
      manifest,
      rows,
      mediaFiles: masters.length,
      migrated,
      ms: performance.now() - started,
    };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/**
 * The backup's masters already in the media folder with the same bytes (the shop's own DATA_DIR,
 * when it moves to PostgreSQL); one with other bytes under the same name refuses the restore.
 */
async function mastersAlreadyThere(mediaDir: string, manifest: Manifest): Promise<Set<string>> {
  const present = new Set<string>();
  for (const file of manifest.files) {
    if (!file.path.startsWith('media/')) continue;
    const name = file.path.slice('media/'.length);
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(path.join(mediaDir, ...name.split('/')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (createHash('sha256').update(bytes).digest('hex') !== file.sha256)
      throw new BackupError(
        `${path.join(mediaDir, name)} already exists with other content than the backup's: restore into a new DATA_DIR`,
      );
    present.add(name);
  }
  return present;
}

/** Undoes the migrations a failed restore applied (and Kysely's own tables). */
async function emptyAgain(db: AnyDb): Promise<void> {
  await migrateDownToZero(db);
  await sql`DROP TABLE IF EXISTS kysely_migration, kysely_migration_lock`.execute(db);
}
