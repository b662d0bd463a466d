// One database handle per process. The production server opens it and provides it here; the Astro
// handler (bundled separately into dist/server) finds it through a process-wide symbol, so both use
// the same pool or PGlite instance. Outside the server (astro dev, CLI) it is opened on first use.
import path from 'node:path';
import { loadConfig, type AppConfig } from '../config.ts';
import { log } from '../log.ts';
import { keepPrivate, makePrivate } from '../private-files.ts';
import { openDatabase, type Database, type DatabaseHandle } from './index.ts';

const KEY = Symbol.for('galerie.database');
type Holder = { [KEY]?: Promise<DatabaseHandle> };
const holder = globalThis as Holder;

export function pgliteDirFor(config: Pick<AppConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'pgdata');
}

/**
 * The configured database, opened by the server and every command-line tool: DATA_DIR and the
 * backups' folder are made owner-only first, and once more after PGlite has created its files
 * (it ignores the umask): api/private-files.ts.
 */
export async function openConfiguredDatabase(
  config: AppConfig,
  /**
   * `false`: a new embedded database is made empty rather than unpacked from the migrated
   * template (./template.ts) — a restore fills an empty database itself.
   */
  { template = true }: { template?: boolean } = {},
): Promise<DatabaseHandle> {
  const { fixed } = keepPrivate([config.dataDir, config.backupDir]);
  if (fixed.length)
    log.warn(
      `Galerie: ${fixed.length} file(s) under ${config.dataDir} or ${config.backupDir} were readable by other users; they are now the owner's only`,
    );
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: pgliteDirFor(config),
    ...(!template && { pgliteTemplate: null }),
  });
  if (handle.kind === 'pglite') makePrivate(config.dataDir);
  return handle;
}

export function provideDatabase(handle: DatabaseHandle): void {
  holder[KEY] = Promise.resolve(handle);
}

export async function getDatabaseHandle(): Promise<DatabaseHandle> {
  holder[KEY] ??= openConfiguredDatabase(loadConfig());
  return holder[KEY];
}

export async function getDb(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}
