// Unit tests sit beside pure code; integration tests run against a real database. Each test file
// gets its own database cloned from a migrated template (tests/setup/global-db.ts), and a suite
// that needs a whole shop copies the golden one (tests/setup/golden.ts): so files run side by
// side, each on its own database, folders and ports.
//
// Projects: `unit` and `integration-pglite` (the embedded database: every integration test), and
// `integration-postgres` when DATABASE_URL is set. The PostgreSQL pass of `npm test`
// (scripts/test.ts) runs only that project and only the tests tagged with what differs on
// PostgreSQL: the tags and their reasons are tests/postgres.ts.
import { defineConfig } from 'vitest/config';
import { POSTGRES_TAGS } from './tests/postgres.ts';
import SlowestFirst from './tests/setup/sequencer.ts';

const shared = {
  environment: 'node' as const,
  setupFiles: ['tests/setup/fresh-file.ts', 'tests/setup/fail-on-console-error.ts'],
  // Bounds on a failure, never what a passing test waits for: a loaded machine (or every file on
  // one core, `taskset -c 0`) must stay green.
  testTimeout: 600_000,
  hookTimeout: 600_000,
};

const integration = (kind: 'pglite' | 'postgres') => ({
  test: {
    ...shared,
    name: `integration-${kind}`,
    include: ['tests/integration/**/*.test.ts'],
    globalSetup: ['tests/setup/global-db.ts'],
    env: { TEST_DB_KIND: kind },
    // The files share a worker and the modules it loaded (node_modules, the api/ code, PGlite's
    // WebAssembly) instead of a new process each; every file still gets its own database,
    // folders and ports, and starts with the worker's first environment and none of the
    // application's process-wide holders (tests/setup/fresh-file.ts). On a 2-core host the
    // embedded project took 628 CPU-s and 333 s against 785 CPU-s and 408 s
    // (docs/decisions/066). VITEST_ISOLATE=1 gives every file its own process again.
    isolate: Boolean(process.env['VITEST_ISOLATE']),
  },
});

const unit = {
  test: {
    ...shared,
    name: 'unit',
    include: ['api/**/*.test.ts', 'src/**/*.test.ts'],
    // Pure modules beside their code: the files share a worker and its loaded modules instead of a
    // new process each — 27 → 15 CPU-s for the 61 files on a 2-core host (`npx vitest run
    // --project unit`, 29 Nov). Each file still gets its own setup file and mocks; a file that
    // leaves global state behind (a sink, a provider, fake timers) restores it in an after hook.
    // VITEST_ISOLATE=1 gives every file its own process again, to rule sharing out.
    isolate: Boolean(process.env['VITEST_ISOLATE']),
  },
};

// Set by the PostgreSQL pass (scripts/test.ts): the unit and PGlite tests already ran.
const postgresOnly = Boolean(process.env['VITEST_POSTGRES_ONLY'] && process.env['DATABASE_URL']);

export default defineConfig({
  test: {
    // Files run in parallel: most of a file's time is spent waiting for a database, a server
    // process or a child build, so three workers keep two cores busy.
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? 3),
    // The slowest files first (by the last quiet CI run), so none starts last and runs alone.
    sequence: { sequencer: SlowestFirst },
    tags: [...POSTGRES_TAGS],
    reporters: ['default', './tests/setup/vitest-timings.ts'],
    projects: [
      ...(postgresOnly ? [] : [unit, integration('pglite')]),
      ...(process.env['DATABASE_URL'] ? [integration('postgres')] : []),
    ],
  },
});
