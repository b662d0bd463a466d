// What the PostgreSQL pass of `npm test` runs (scripts/test.ts), and why: the one place that says
// it. Every test runs on the embedded database (PGlite, real PostgreSQL 18 in WASM); the tests
// below run again on a real PostgreSQL server because they exercise what PGlite cannot stand
// for. A test joins the pass by its tag: `{ tags: ['concurrency'] }` in vitest, `@postgres` in
// Playwright.

/** vitest tags (vitest.config.ts `tags`; the pass runs `--tags-filter` on their names). */
export const POSTGRES_TAGS = [
  {
    name: 'concurrency',
    description:
      'Races between real concurrent transactions (oversell, holds, numbering, promo use, row locks): PGlite is one connection and runs one transaction at a time, so a race proves something only on PostgreSQL.',
  },
  {
    name: 'cluster',
    description:
      'Several processes on one database: advisory locks, nodes following each other, one builder and one sweeper at a time. Only PostgreSQL is shared between processes.',
  },
  {
    name: 'pg-driver',
    description:
      'What the pg driver and pool do that PGlite does not: connection pools, prepared statements, error objects with detail and constraint fields, connections the server drops.',
  },
  {
    name: 'pg-server',
    description:
      'SQL checked against the PostgreSQL server version we deploy on (15; PGlite is 18): migrations replayed from empty, the generated schema, backup and restore across the two kinds.',
  },
] as const;

/** The Playwright specs with tests tagged @postgres, and why. */
export const POSTGRES_E2E = {
  'commerce.spec.ts':
    'buyers pay through the real server on the pg pool: the checkout holds a work (two buyers for one original), the webhook fulfils, the success page reads the order',
} as const;
