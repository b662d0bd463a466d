// `npm run backup [-- <file or folder>]`: writes one backup archive of the configured database
// (DATABASE_URL or DATA_DIR's embedded one) and DATA_DIR's media masters (docs/decisions/027).
// Default: BACKUP_DIR/galerie-backup-<UTC time>.tar.gz. With the embedded database a running
// server holds it: the command says to stop the server, or points at its automatic backups.
import fs from 'node:fs';
import path from 'node:path';
import { BackupError, createBackup } from '../backup/index.ts';
import { autoBackups, manualBackupName } from '../backup/schedule.ts';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase, pgliteDirFor } from '../db/context.ts';
import { DatabaseLockedError } from '../db/index.ts';
import { runCli } from './run.ts';

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function newestAutomatic(dir: string, now: Date): string | null {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  const newest = autoBackups(names)[0];
  if (!newest) return null;
  const hours = Math.max(0, Math.round((now.getTime() - newest.at.getTime()) / 3_600_000));
  return `${path.join(dir, newest.name)} (${hours} h old)`;
}

await runCli('backup', async () => {
  const args = process.argv.slice(2);
  if (args.length > 1 || args[0]?.startsWith('-')) {
    console.error('Usage: npm run backup [-- <archive file or folder>]');
    process.exitCode = 1;
    return;
  }
  const config = loadConfig();
  const now = new Date();
  let out = path.join(config.backupDir, manualBackupName(now));
  if (args[0]) {
    const given = path.resolve(args[0]);
    out = fs.statSync(given, { throwIfNoEntry: false })?.isDirectory()
      ? path.join(given, manualBackupName(now))
      : given;
  }
  if (fs.existsSync(out)) {
    console.error(`backup: ${out} already exists; give another file name.`);
    process.exitCode = 1;
    return;
  }
  if (config.databaseUrl === undefined && !fs.existsSync(pgliteDirFor(config))) {
    console.error(
      `backup: there is no database in ${config.dataDir} to back up (set DATA_DIR to the shop's data folder, or DATABASE_URL).`,
    );
    process.exitCode = 1;
    return;
  }
  let handle;
  try {
    handle = await openConfiguredDatabase(config);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    const automatic = newestAutomatic(config.backupDir, now);
    console.error(
      [
        `backup: the shop's server (process ${error.holderPid}) holds the embedded database, which only one process may open.`,
        'Stop the server (Ctrl+C in its terminal), run `npm run backup` again (it takes seconds), then start the shop with `npm start`.',
        automatic
          ? `The server also backs itself up every day: the newest is ${automatic}.`
          : `The server also backs itself up every day into ${config.backupDir} (unless BACKUPS=off).`,
      ].join('\n'),
    );
    process.exitCode = 1;
    return;
  }
  try {
    const result = await createBackup({
      db: handle.db,
      kind: handle.kind,
      dataDir: config.dataDir,
      out,
      now,
    });
    const { manifest } = result;
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(`Backup written: ${result.file} (${megabytes(result.bytes)})`);
    console.log(
      `  ${handle.description}: ${rows} rows in ${manifest.tables.length} tables, at migration ${manifest.migrations.at(-1)}`,
    );
    console.log(
      `  media: ${manifest.media.files} master file(s), ${megabytes(manifest.media.bytes)}; ${(result.ms / 1000).toFixed(1)} s`,
    );
    if (manifest.media.missing.length)
      console.log(
        `  warning: ${manifest.media.missing.length} image(s) named by the database were not in ${path.join(config.dataDir, 'media')}: ${manifest.media.missing.slice(0, 3).join(', ')}${manifest.media.missing.length > 3 ? ', …' : ''}`,
      );
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`backup: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
});
