// A new embedded database is unpacked from the migrated template (api/db/template.ts, issue 28 §2,
// docs/decisions/061): it has the schema the migrations replayed from empty make — tables,
// columns, constraints, indexes, functions, triggers and the rows the migrations write —, opens
// again as itself, and a template that cannot be unpacked leaves a database made from scratch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, PGLITE_EXTENSIONS, PGLITE_PARSERS, type Database } from '#api/db/index.ts';
import { ensurePgliteTemplate, migrateToLatest } from '#api/db/migrate.ts';
import { pgliteTemplateFile, readPgliteTemplate } from '#api/db/template.ts';
import { testDbKind } from '../helpers/db.ts';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-db-template-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Everything the migrations make, as text: equal texts, equal schemas. */
async function schemaOf(db: Database): Promise<string[]> {
  const lines = (query: ReturnType<typeof sql<{ line: string }>>) =>
    query.execute(db).then((r) => r.rows.map((row) => row.line));
  const publicSchema = sql`(select oid from pg_namespace where nspname = 'public')`;
  const parts = await Promise.all([
    lines(sql`select format('column %s.%s %s %s %s', c.relname, a.attname,
        format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid)) as line
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where c.relnamespace = ${publicSchema} and a.attnum > 0 and not a.attisdropped
        and c.relkind in ('r', 'v', 'm', 'p') order by 1`),
    lines(sql`select format('constraint %s %s %s', conrelid::regclass, conname,
        pg_get_constraintdef(oid)) as line
      from pg_constraint where connamespace = ${publicSchema} order by 1`),
    lines(sql`select format('index %s', pg_get_indexdef(indexrelid)) as line from pg_index i
      join pg_class c on c.oid = i.indexrelid where c.relnamespace = ${publicSchema} order by 1`),
    lines(sql`select format('function %s', pg_get_functiondef(p.oid)) as line from pg_proc p
      where p.pronamespace = ${publicSchema} and p.prokind = 'f' order by 1`),
    lines(sql`select format('trigger %s', pg_get_triggerdef(oid)) as line from pg_trigger
      where not tgisinternal order by 1`),
    lines(sql`select format('extension %s', extname) as line from pg_extension order by 1`),
    lines(sql`select format('migration %s', name) as line from kysely_migration order by 1`),
  ]);
  // The rows a migration writes (none today but the register of migrations): counted per table.
  const tables = await lines(sql`select relname as line from pg_class
    where relnamespace = ${publicSchema} and relkind = 'r' and relname not like 'kysely_%'
    order by 1`);
  for (const table of tables) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
    parts.push([`rows ${table} ${rows[0]!.n}`]);
  }
  return parts.flat();
}

// The embedded database's own path; PostgreSQL databases are never made from it.
describe.skipIf(testDbKind() !== 'pglite')(
  'the migrated template of new embedded databases',
  () => {
    it('is made once per set of migrations, and gives the schema the migrations replayed from empty give', async () => {
      const { file } = await ensurePgliteTemplate();
      expect(file).toBe(pgliteTemplateFile());
      expect(await ensurePgliteTemplate()).toEqual({ file, made: false });

      const dir = path.join(scratch, 'new', 'pgdata');
      const unpacked = await openDatabase({ pgliteDir: dir });
      const replayed = new PGlite({ parsers: PGLITE_PARSERS, extensions: PGLITE_EXTENSIONS });
      const fresh = await openDatabase({ pglite: replayed });
      try {
        expect(unpacked.description).toBe(
          `embedded PGlite in ${dir} (new, from the migrated template)`,
        );
        expect(await migrateToLatest(unpacked.db)).toEqual([]);
        expect((await migrateToLatest(fresh.db)).length).toBeGreaterThan(25);
        const expected = await schemaOf(fresh.db);
        expect(expected.filter((line) => line.startsWith('column ')).length).toBeGreaterThan(200);
        expect(await schemaOf(unpacked.db)).toEqual(expected);
        await sql`insert into site_settings (key, value) values ('db-template-probe', '"kept"')`.execute(
          unpacked.db,
        );
      } finally {
        await unpacked.close();
        await fresh.close();
      }

      // Opened again, it is the database it became, not a new copy of the template.
      const again = await openDatabase({ pgliteDir: dir });
      try {
        expect(again.description).toBe(`embedded PGlite in ${dir}`);
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from site_settings
        where key = 'db-template-probe'`.execute(again.db);
        expect(rows[0]!.n).toBe(1);
      } finally {
        await again.close();
      }
    });

    it('makes the database from scratch when the template cannot be unpacked', async () => {
      expect(readPgliteTemplate()).toBeInstanceOf(Blob);
      const dir = path.join(scratch, 'broken', 'pgdata');
      const handle = await openDatabase({
        pgliteDir: dir,
        pgliteTemplate: new Blob([new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3])]),
      });
      try {
        expect(handle.description).toBe(`embedded PGlite in ${dir}`);
        expect((await migrateToLatest(handle.db)).length).toBeGreaterThan(25);
      } finally {
        await handle.close();
      }
    });

    it('runs initdb where no template is wanted', async () => {
      const dir = path.join(scratch, 'none', 'pgdata');
      const handle = await openDatabase({ pgliteDir: dir, pgliteTemplate: null });
      try {
        expect(handle.description).toBe(`embedded PGlite in ${dir}`);
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_class
        where relname = 'kysely_migration'`.execute(handle.db);
        expect(rows[0]!.n).toBe(0);
      } finally {
        await handle.close();
      }
    });
  },
);
