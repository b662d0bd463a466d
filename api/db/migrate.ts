// Runs the timestamped migrations in api/db/migrations (Kysely's Migrator, one lock, all or nothing).
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { FileMigrationProvider, Migrator, NO_MIGRATIONS } from 'kysely/migration';
import { errorText, PGLITE_EXTENSIONS } from './index.ts';
import { pgliteTemplateFile, storePgliteTemplate } from './template.ts';

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

export class MigrationError extends Error {
  override name = 'MigrationError';
}

function migrator<T>(db: Kysely<T>): Migrator {
  return new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR }),
  });
}

/** Migrates to the latest version; returns the names of the migrations it applied. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error === undefined ? 'unknown error' : errorText(error);
    throw new MigrationError(
      `Migration ${failed?.migrationName ?? '(before running)'} failed: ${cause}. Nothing of it was applied; fix the migration or the database, then start again.`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Migrates up or down to the named migration (tests of a data migration start before it). */
export async function migrateTo<T>(db: Kysely<T>, name: string): Promise<void> {
  const { error } = await migrator(db).migrateTo(name);
  if (error)
    throw new MigrationError(`Migrating to ${name} failed: ${errorText(error)}`, { cause: error });
}

/** Rolls every migration back (tests prove each `down` works). */
export async function migrateDownToZero<T>(db: Kysely<T>): Promise<void> {
  const { error } = await migrator(db).migrateTo(NO_MIGRATIONS);
  if (error) throw new MigrationError(`Rolling back failed: ${errorText(error)}`, { cause: error });
}

/**
 * The migrated template of new embedded databases (./template.ts), made when there is none for
 * these migrations: a database in memory, migrated, dumped. Returns its file and whether it was
 * made now.
 */
export async function ensurePgliteTemplate(): Promise<{ file: string; made: boolean }> {
  const file = pgliteTemplateFile();
  if (existsSync(file)) return { file, made: false };
  const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const db = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite }) });
  try {
    await migrateToLatest(db);
    const dump = await pglite.dumpDataDir('gzip');
    storePgliteTemplate(file, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  }
  return { file, made: true };
}
