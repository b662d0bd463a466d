// `npm run db:template` (and `npm install`, through scripts/postinstall.mjs): makes the migrated
// template that new embedded databases are unpacked from (api/db/template.ts), when there is none
// for the migrations of this checkout. Touches no database of a site.
import path from 'node:path';
import { ensurePgliteTemplate } from '../db/migrate.ts';
import { runCli } from './run.ts';

await runCli('db:template', async () => {
  const started = performance.now();
  const { file, made } = await ensurePgliteTemplate();
  const where = path.relative(process.cwd(), file);
  console.log(
    made
      ? `Made the migrated template of new embedded databases in ${((performance.now() - started) / 1000).toFixed(1)} s: ${where}`
      : `The migrated template of new embedded databases is up to date: ${where}`,
  );
});
