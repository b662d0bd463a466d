// `npm run db:migrate`: brings the configured database (DATABASE_URL or DATA_DIR) to the latest schema.
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { runCli } from './run.ts';

await runCli('db:migrate', async () => {
  const handle = await openConfiguredDatabase(loadConfig());
  try {
    const applied = await migrateToLatest(handle.db);
    console.log(
      applied.length
        ? `Applied ${applied.length} migration(s) to ${handle.description}: ${applied.join(', ')}`
        : `${handle.description} is up to date.`,
    );
  } finally {
    await handle.close();
  }
});
