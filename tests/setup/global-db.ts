// Prepares one migrated template per integration project; every test file then gets its own
// database cloned from it (a PGlite data-dir dump, or PostgreSQL's CREATE DATABASE … TEMPLATE).
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#api/db/index.ts';
import {
  ensurePgliteTemplate as ensureMigratedTemplate,
  migrateToLatest,
} from '#api/db/migrate.ts';
import { migrationsHash } from '#api/db/template.ts';
import { databaseUrlFor, quoteIdent } from '../helpers/pg-admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

/**
 * The migrated embedded database every integration test file clones: the template new embedded
 * databases are unpacked from (api/db/template.ts), made here when `npm install` did not.
 */
export async function ensurePgliteTemplate(): Promise<string> {
  return (await ensureMigratedTemplate()).file;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.name === 'integration-pglite') {
    project.provide('pgliteTemplate', await ensurePgliteTemplate());
    return async () => {};
  }

  const hash = migrationsHash();
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('integration-postgres needs DATABASE_URL');
  const template = `galerie_tpl_${hash}_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(template)}`);
    await admin.query(`CREATE DATABASE ${quoteIdent(template)}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({
    databaseUrl: databaseUrlFor(url, template),
    maxConnections: 1,
  });
  await migrateToLatest(handle.db);
  await handle.close();
  project.provide('postgresTemplate', template);
  return async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(template)} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
}
