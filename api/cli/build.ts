// `npm run build`: migrates the configured database, then builds a new version of the site from its
// catalogue into dist/versions/ (api/build/versions.ts). A running server keeps serving the version
// it loaded; the next `npm start` serves this one. With the embedded database, stop the server
// first (PGlite is single-process); a running server publishes changes by itself anyway.
import { buildVersion } from '../build/index.ts';
import { distDirOf, pruneVersions } from '../build/versions.ts';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { runCli } from './run.ts';

await runCli('build', async () => {
  const config = loadConfig();
  const handle = await openConfiguredDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const root = process.cwd();
    const dist = distDirOf(root);
    const result = await buildVersion(handle.db, {
      root,
      dist,
      siteUrl: config.siteUrl,
      niceness: 0,
      log: (line) => console.log(line),
    });
    pruneVersions(dist);
    console.log(`Built the site (version ${result.id}) in ${(result.ms / 1000).toFixed(1)} s.`);
  } finally {
    await handle.close();
  }
});
