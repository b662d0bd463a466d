// `npm test`: the whole suite, stage by stage, each timed, then the table of where the time went
// (scripts/test-report.ts). A failing stage stops the run (the later ones would only repeat it).
//
// 0. the golden shop (tests/setup/golden.ts) for every address the run uses, and the migrated
//    template of the integration tests: made here at once, on both cores, rather than by the
//    first test file or server that needs them while the others wait (a run whose sources did
//    not change finds them made);
// 1. vitest on the embedded database: unit tests and every integration test (PGlite);
// 2. Playwright on the embedded database: every end-to-end test;
// and, when DATABASE_URL names a PostgreSQL server:
// 3. vitest on PostgreSQL: the integration tests tagged with what differs there;
// 4. Playwright on PostgreSQL: the end-to-end tests tagged @postgres
// (which, and why: tests/postgres.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SHOPS, siteUrlOf } from '../tests/e2e/shops.ts';
import { POSTGRES_TAGS, postgresTestFiles } from '../tests/postgres.ts';
import { ensurePgliteTemplate } from '../tests/setup/global-db.ts';
import { ensureGoldenShop, GOLDEN_SITE_URL } from '../tests/setup/golden.ts';
import { printReport, recordStage, runnerReport, TIMINGS_DIR } from './test-report.ts';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

// A run of its own, unless the caller (.ci/run) keeps the stages it timed itself.
if (!process.env['TEST_TIMINGS_DIR']) fs.rmSync(TIMINGS_DIR, { recursive: true, force: true });
fs.mkdirSync(TIMINGS_DIR, { recursive: true });

interface Stage {
  name: string;
  runner: 'vitest' | 'e2e';
  pass: 'embedded' | 'postgres';
  args: string[];
  env: NodeJS.ProcessEnv;
}

const databaseUrl = process.env['DATABASE_URL'];
const embedded: NodeJS.ProcessEnv = { DATABASE_URL: undefined, VITEST_POSTGRES_ONLY: undefined };
const stages: Stage[] = [
  { name: 'vitest (embedded)', runner: 'vitest', pass: 'embedded', args: ['run'], env: embedded },
  { name: 'e2e (embedded)', runner: 'e2e', pass: 'embedded', args: ['test'], env: embedded },
];
if (databaseUrl)
  stages.push(
    {
      name: 'vitest (PostgreSQL)',
      runner: 'vitest',
      pass: 'postgres',
      args: [
        'run',
        '--project',
        'integration-postgres',
        '--tags-filter',
        POSTGRES_TAGS.map((t) => t.name).join(' || '),
        // Only the files that have tagged tests: vitest would import every one to look.
        ...postgresTestFiles(root),
      ],
      env: { VITEST_POSTGRES_ONLY: '1' },
    },
    {
      name: 'e2e (PostgreSQL)',
      runner: 'e2e',
      pass: 'postgres',
      args: ['test', '--grep', '@postgres'],
      // Only the shops whose projects have tagged tests are started.
      env: { E2E_PROJECTS: 'chromium' },
    },
  );

function run(stage: Stage): Promise<boolean> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEST_TIMINGS_DIR: TIMINGS_DIR,
    TEST_PASS: stage.pass,
  };
  for (const [key, value] of Object.entries(stage.env)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const command = bin(stage.runner === 'vitest' ? 'vitest' : 'playwright');
  console.log(`\n==> ${stage.name}: ${path.basename(command)} ${stage.args.join(' ')}\n`);
  return new Promise((resolve) => {
    const child = spawn(command, stage.args, { cwd: root, env, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code === 0));
  });
}

async function prepare(): Promise<boolean> {
  console.log('\n==> golden shop\n');
  const log = (line: string) => console.log(line);
  try {
    // One build first, the others after: every `astro build` of this checkout writes the same
    // .astro/content-assets.mjs through one fixed `.tmp` name, and in a clean clone two first
    // builds racing there fail (ENOENT on the rename, seen once in CI). Once it exists with the
    // same content, later builds leave it alone and may run side by side.
    await Promise.all([ensurePgliteTemplate(), ensureGoldenShop(GOLDEN_SITE_URL, log)]);
    await Promise.all(
      Object.values(SHOPS)
        .map(siteUrlOf)
        .map((url) => ensureGoldenShop(url, log)),
    );
    return true;
  } catch (error) {
    console.error(error);
    return false;
  }
}

const preparing = performance.now();
let ok = await prepare();
recordStage({ name: 'golden shop', seconds: (performance.now() - preparing) / 1000, ok });
for (const stage of ok ? stages : []) {
  const started = performance.now();
  ok = await run(stage);
  const counts = runnerReport(stage.runner, stage.pass, stage.name);
  recordStage({
    name: stage.name,
    seconds: (performance.now() - started) / 1000,
    ok,
    ...(counts && { passed: counts.passed, failed: counts.failed }),
  });
  if (!ok) break;
}
if (process.env['TEST_REPORT'] !== 'off') printReport();
process.exit(ok ? 0 : 1);
