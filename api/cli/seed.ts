// `npm run db:seed`: migrates, then adds the demo catalogue and default settings (idempotent).
import path from 'node:path';
import { seedDemo } from '../catalog/seed.ts';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { diskStorage } from '../media/storage.ts';
import { runCli } from './run.ts';

await runCli('db:seed', async () => {
  const config = loadConfig();
  const handle = await openConfiguredDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const result = await seedDemo(handle.db, diskStorage(path.join(config.dataDir, 'media')));
    console.log(
      `Seeded ${handle.description}: ${result.artworksInserted} artwork(s) and ${result.settingsInserted} setting(s) added.`,
    );
  } finally {
    await handle.close();
  }
});
