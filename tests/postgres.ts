// What the PostgreSQL pass of `npm test` runs (scripts/test.ts), and why: the one place that says
// it. Every test runs on the embedded database (PGlite, real PostgreSQL 18 in WASM); the tests
// below run again on a real PostgreSQL server because they exercise what PGlite cannot stand
// for. A test joins the pass by its tag: `{ tags: ['concurrency'] }` in vitest, `@postgres` in
// Playwright.
import fs from 'node:fs';
import path from 'node:path';

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

/**
 * The integration test files that name one of the tags above: the only ones the pass hands to
 * vitest, whose `--tags-filter` then picks their tagged tests. Vitest alone would import and
 * collect every file to find the tags (44 of 68 files with none: 20 s of a 75 s pass). A file
 * that names a tag is taken whole, so a tag written any way the filter understands — in a
 * `describe`'s options or a test's — is never missed; a file is only left out when the tag's
 * name appears nowhere in it.
 */
export function postgresTestFiles(root: string): string[] {
  const dir = path.join(root, 'tests', 'integration');
  const named = new RegExp(`['"\`](${POSTGRES_TAGS.map((t) => t.name).join('|')})['"\`]`);
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => named.test(fs.readFileSync(path.join(dir, file), 'utf8')))
    .map((file) => path.posix.join('tests', 'integration', file.split(path.sep).join('/')))
    .sort();
}

/** The Playwright specs with tests tagged @postgres, and why. */
export const POSTGRES_E2E = {
  'commerce.spec.ts':
    'buyers pay through the real server on the pg pool: the checkout holds a work (two buyers for one original), the webhook fulfils, the success page reads the order',
} as const;
