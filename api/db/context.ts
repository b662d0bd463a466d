// One database handle per process. The production server opens it and provides it here; the Astro
// handler (bundled separately into dist/server) finds it through a process-wide symbol, so both use
// the same pool or PGlite instance. Outside the server (astro dev, CLI) it is opened on first use.
import path from 'node:path';
import { loadConfig, type AppConfig } from '../config.ts';
import { openDatabase, type Database, type DatabaseHandle } from './index.ts';

const KEY = Symbol.for('galerie.database');
type Holder = { [KEY]?: Promise<DatabaseHandle> };
const holder = globalThis as Holder;

export function pgliteDirFor(config: Pick<AppConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'pgdata');
}

export function openConfiguredDatabase(config: AppConfig): Promise<DatabaseHandle> {
  return openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: pgliteDirFor(config) });
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
