// `npm run restore -- <archive>`: restores a backup (api/cli/backup.ts) into an empty database —
// DATABASE_URL's, or the embedded one of a new DATA_DIR — and DATA_DIR's media folder, after
// verifying the whole archive (docs/decisions/027). A PGlite backup restored with DATABASE_URL
// set is how a shop moves from the embedded database to PostgreSQL.
import path from 'node:path';
import { BackupError, restoreBackup } from '../backup/index.ts';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
import { DatabaseLockedError } from '../db/index.ts';
import { runCli } from './run.ts';

await runCli('restore', async () => {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    console.error('Usage: npm run restore -- <archive file>');
    process.exitCode = 1;
    return;
  }
  const file = path.resolve(args[0]!);
  const config = loadConfig();
  let handle;
  try {
    // A new embedded database stays empty: the restore makes its schema at the backup's level.
    handle = await openConfiguredDatabase(config, { template: false });
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    console.error(
      `restore: a server (process ${error.holderPid}) is running on ${config.dataDir}. Restore into a new, empty DATA_DIR (with the server stopped), or into an empty PostgreSQL database with DATABASE_URL.`,
    );
    process.exitCode = 1;
    return;
  }
  try {
    console.log(`Restoring into ${handle.description} and ${path.join(config.dataDir, 'media')}`);
    const result = await restoreBackup({
      file,
      db: handle.db,
      dataDir: config.dataDir,
      log: (line) => console.log(`  ${line}`),
    });
    const { manifest } = result;
    console.log(
      `Restored the backup of ${manifest.createdAt} (${manifest.source.kind}, migration ${manifest.migrations.at(-1)}): ${result.rows} rows, ${result.mediaFiles} media file(s), in ${(result.ms / 1000).toFixed(1)} s.`,
    );
    console.log('Start the shop with `npm start` (with the same DATA_DIR and DATABASE_URL).');
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`restore: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
});
