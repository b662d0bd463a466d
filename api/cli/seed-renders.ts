// `npm run seed:renders` (and `npm install`, through scripts/postinstall.mjs): renders the demo
// catalogue's images once into node_modules/.cache/galerie (api/catalog/seed-renders.ts), so a
// first start stores them instead of drawing them. Touches no database or data folder.
import path from 'node:path';
import { readSeedCatalogue } from '../catalog/seed.ts';
import { ensureSeedRenders } from '../catalog/seed-renders.ts';
import { runCli } from './run.ts';

await runCli('seed:renders', async () => {
  const started = performance.now();
  const { dir, made } = await ensureSeedRenders(await readSeedCatalogue());
  const where = path.relative(process.cwd(), dir);
  console.log(
    made
      ? `Rendered the demo catalogue's images in ${((performance.now() - started) / 1000).toFixed(1)} s: ${where}`
      : `The demo catalogue's images are rendered already: ${where}`,
  );
});
