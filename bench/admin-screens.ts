// `npm run bench:admin-screens`: the back office's JavaScript per screen alone (step 1 of
// bench/admin.ts), on the embedded database with the demo catalogue — a minute instead of the
// full bench's seeding of 1 000 works and 100 000 orders. `--detail` lists each screen's scripts.
// Exits 1 when a screen is over its budget or a public page holds admin code.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '#api/db/index.ts';
import { benchCatalogue } from './lib/catalogue.ts';
import { measureScreens, printScreens, screensFailed } from './lib/admin-screens.ts';
import { startGalerie } from './lib/processes.ts';
import { cleanupAll, onCleanup } from './lib/util.ts';

const root = path.resolve(import.meta.dirname, '..');
const log = (line: string) => console.log(`  ${line}`);

try {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-bench-screens-'));
  onCleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const cookie = await benchCatalogue(handle, dataDir, 25);
  await handle.close();
  const dist = path.join(root, '.cache', 'bench-screens-dist');
  onCleanup(() => fs.rm(dist, { recursive: true, force: true }));
  const galerie = await startGalerie(root, log, { dataDir, env: { GALERIE_DIST_DIR: dist } });
  const { screens, leaks } = await measureScreens(galerie.url, cookie);
  await galerie.stop();
  printScreens(screens, leaks);
  if (process.argv.includes('--detail'))
    for (const screen of screens) {
      console.log(`\n${screen.page}`);
      for (const s of screen.scripts)
        console.log(`  ${(s.gzipBytes / 1024).toFixed(1).padStart(6)} KB  ${s.name}`);
    }
  if (screensFailed(screens, leaks)) process.exitCode = 1;
} finally {
  await cleanupAll();
}
