// `npm run build`: migrates the configured database, then builds the site from its catalogue.
// Run it while the server is stopped when using the embedded database (PGlite is single-process).
import { ensureBuild } from '../build/index.ts';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { runCli } from './run.ts';

await runCli('build', async () => {
  const config = loadConfig();
  const handle = await openConfiguredDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const result = await ensureBuild(handle.db, {
      root: process.cwd(),
      siteUrl: config.siteUrl,
      force: true,
      log: (line) => console.log(line),
    });
    if (result.built) console.log(`Built the site in ${(result.ms / 1000).toFixed(1)} s.`);
  } finally {
    await handle.close();
  }
});
