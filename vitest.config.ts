// Unit tests sit beside pure code; integration tests run against a real database: always the
// embedded PGlite, and also PostgreSQL when DATABASE_URL is set (only PostgreSQL, without the
// unit tests, when VITEST_POSTGRES_ONLY is set too). Each test file gets its own database cloned
// from a migrated template (tests/setup/global-db.ts).
import { defineConfig } from 'vitest/config';

const shared = {
  environment: 'node' as const,
  setupFiles: ['tests/setup/fail-on-console-error.ts'],
  testTimeout: 30_000,
  hookTimeout: 120_000,
};

const integration = (kind: 'pglite' | 'postgres') => ({
  test: {
    ...shared,
    name: `integration-${kind}`,
    include: ['tests/integration/**/*.test.ts'],
    globalSetup: ['tests/setup/global-db.ts'],
    env: { TEST_DB_KIND: kind },
  },
});

const unit = {
  test: {
    ...shared,
    name: 'unit',
    include: ['api/**/*.test.ts', 'src/**/*.test.ts'],
  },
};

// Set by .ci/run's PostgreSQL pass: the unit and PGlite tests already ran on the same commit.
const postgresOnly = Boolean(process.env['VITEST_POSTGRES_ONLY'] && process.env['DATABASE_URL']);

export default defineConfig({
  test: {
    projects: [
      ...(postgresOnly ? [] : [unit, integration('pglite')]),
      ...(process.env['DATABASE_URL'] ? [integration('postgres')] : []),
    ],
  },
});
