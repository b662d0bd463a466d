// One database per test file, cloned from the migrated template prepared in global setup.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import {
  openDatabase,
  PGLITE_EXTENSIONS,
  PGLITE_PARSERS,
  type DatabaseHandle,
} from '#api/db/index.ts';
import { databaseUrlFor, quoteIdent } from './pg-admin.ts';

export type TestDbKind = 'pglite' | 'postgres';

export interface TestDatabase extends DatabaseHandle {
  /** The postgres:// URL of this database (PostgreSQL only). */
  url: string | undefined;
  /** Closes the connection and drops the database. */
  dispose(): Promise<void>;
}

export function testDbKind(): TestDbKind {
  return process.env['TEST_DB_KIND'] === 'postgres' ? 'postgres' : 'pglite';
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: requireUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function requireUrl(): string {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('TEST_DB_KIND=postgres needs DATABASE_URL');
  return url;
}

/**
 * A fresh database for this test file: migrated (cloned from the template), or `empty` for the
 * tests that run the migrations themselves.
 */
export async function createTestDatabase(
  options: { empty?: boolean; maxConnections?: number } = {},
): Promise<TestDatabase> {
  if (testDbKind() === 'pglite') {
    const pglite = options.empty
      ? new PGlite({ parsers: PGLITE_PARSERS, extensions: PGLITE_EXTENSIONS })
      : new PGlite({
          loadDataDir: new Blob([await fs.readFile(inject('pgliteTemplate'))]),
          parsers: PGLITE_PARSERS,
          extensions: PGLITE_EXTENSIONS,
        });
    const handle = await openDatabase({ pglite });
    return { ...handle, url: undefined, dispose: () => handle.close() };
  }
  const name = `galerie_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) =>
    client.query(
      options.empty
        ? `CREATE DATABASE ${quoteIdent(name)}`
        : `CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(inject('postgresTemplate'))}`,
    ),
  );
  const url = databaseUrlFor(requireUrl(), name);
  const handle = await openDatabase({
    databaseUrl: url,
    maxConnections: options.maxConnections ?? 10,
  });
  return {
    ...handle,
    url,
    async dispose() {
      await handle.close();
      await withAdmin((client) =>
        client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
      );
    },
  };
}
