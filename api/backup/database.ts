// The database part of a backup (docs/decisions/027), the same on PGlite and PostgreSQL and with no
// pg_dump: every table of the public schema is read in one REPEATABLE READ transaction (one
// snapshot) as JSON lines made by PostgreSQL itself (row_to_json, so numeric, bigint, bytea, jsonb
// and timestamptz keep every digit), plus the sequences' state and the migration list. Loading
// puts each table back in one INSERT … SELECT from json_populate_record, parents before children,
// with the tables' own triggers disabled: the derived tables (sales_days*, customer_summaries) are
// restored as they were rather than recomputed.
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Manifest } from './archive.ts';
import { BackupError } from './archive.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- works on any schema: it reads the catalogue
type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
type AnyTrx = Transaction<any>;

/** Kysely's own bookkeeping: the migration list is recorded apart, the lock is per database. */
const SKIPPED = new Set(['kysely_migration', 'kysely_migration_lock']);
/** Rows per FETCH while dumping, and lines per INSERT while loading. */
const BATCH = 2000;
const LOAD_BYTES = 4 * 1024 * 1024;

export interface TableInfo {
  name: string;
  /** Stored columns in their order; generated ones are left to the database. */
  columns: string[];
  primaryKey: string[];
}

export const ident = (name: string) => sql.id(name);

/** Output settings that make row_to_json exact and the same on every server. */
async function exactOutput(trx: AnyTrx): Promise<void> {
  await sql`SET LOCAL TimeZone = 'UTC'`.execute(trx);
  await sql`SET LOCAL bytea_output = 'hex'`.execute(trx);
  await sql`SET LOCAL extra_float_digits = 1`.execute(trx);
  await sql`SET LOCAL IntervalStyle = 'postgres'`.execute(trx);
  await sql`SET LOCAL DateStyle = 'ISO, YMD'`.execute(trx);
}

/** The tables of the public schema with their stored columns and primary key. */
export async function listTables(db: AnyDb | AnyTrx): Promise<TableInfo[]> {
  const { rows } = await sql<{
    table: string;
    column: string;
    generated: string;
    primary: boolean;
  }>`SELECT c.relname AS "table", a.attname AS "column", a.attgenerated::text AS generated,
        EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary
                AND a.attnum = ANY (i.indkey)) AS "primary"
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      ORDER BY c.relname, a.attnum`.execute(db);
  const tables = new Map<string, TableInfo>();
  for (const row of rows) {
    if (SKIPPED.has(row.table)) continue;
    let table = tables.get(row.table);
    if (!table) tables.set(row.table, (table = { name: row.table, columns: [], primaryKey: [] }));
    if (row.generated === '') table.columns.push(row.column);
    if (row.primary) table.primaryKey.push(row.column);
  }
  return [...tables.values()];
}

/** Every table of the public schema, Kysely's included: none means a database never migrated. */
export async function countPublicTables(db: AnyDb): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

async function listSequences(trx: AnyTrx): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY 1`.execute(trx);
  return rows.map((r) => r.name);
}

export async function appliedMigrations(db: AnyDb | AnyTrx): Promise<string[]> {
  const exists = await sql<{
    t: string | null;
  }>`SELECT to_regclass('public.kysely_migration')::text AS t`.execute(db);
  if (!exists.rows[0]?.t) return [];
  const { rows } = await sql<{
    name: string;
  }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  return rows.map((r) => r.name);
}

export interface DatabaseDump {
  migrations: string[];
  tables: Manifest['tables'];
  sequences: Manifest['sequences'];
  server: string;
  /** storage_key of every media row, to check the masters against. */
  mediaKeys: string[];
}

async function writeLines(file: string, lines: AsyncIterable<string>): Promise<number> {
  const out = createWriteStream(file);
  let count = 0;
  try {
    for await (const line of lines) {
      count += 1;
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return count;
}

/**
 * Writes every table to `<dir>/db/<table>.jsonl` from one snapshot. The whole read is one
 * transaction: on PGlite it holds the database's single connection, so the server's other queries
 * wait for it (a second or so per 100 000 rows).
 */
export async function dumpDatabase(db: AnyDb, dir: string): Promise<DatabaseDump> {
  await fs.mkdir(path.join(dir, 'db'), { recursive: true });
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      await exactOutput(trx);
      const migrations = await appliedMigrations(trx);
      if (migrations.length === 0)
        throw new BackupError('the database has no schema yet: there is nothing to back up');
      const server =
        (await sql<{ v: string }>`SELECT version() AS v`.execute(trx)).rows[0]?.v ?? '';
      const tables: Manifest['tables'] = [];
      for (const table of await listTables(trx)) {
        const file = `db/${table.name}.jsonl`;
        const order = table.primaryKey.length
          ? sql.join(table.primaryKey.map(ident))
          : sql`row_to_json(t)::text COLLATE "C"`;
        await sql`DECLARE backup_rows NO SCROLL CURSOR FOR
          SELECT row_to_json(t)::text AS line
          FROM (SELECT ${sql.join(table.columns.map(ident))} FROM ${ident(table.name)}) t
          ORDER BY ${order}`.execute(trx);
        const rows = await writeLines(
          path.join(dir, file),
          (async function* () {
            for (;;) {
              const batch = await sql<{
                line: string;
              }>`FETCH FORWARD ${sql.raw(String(BATCH))} FROM backup_rows`.execute(trx);
              for (const row of batch.rows) yield row.line;
              if (batch.rows.length < BATCH) return;
            }
          })(),
        );
        await sql`CLOSE backup_rows`.execute(trx);
        tables.push({ name: table.name, file, rows, columns: table.columns });
      }
      const sequences: Manifest['sequences'] = [];
      for (const name of await listSequences(trx)) {
        const { rows } = await sql<{
          last: string;
          called: boolean;
        }>`SELECT last_value::text AS last, is_called AS called FROM ${ident(name)}`.execute(trx);
        const row = rows[0];
        if (row) sequences.push({ name, lastValue: row.last, isCalled: row.called });
      }
      const media = await sql<{ key: string }>`SELECT storage_key AS key FROM media`
        .execute(trx)
        .catch(() => ({ rows: [] as { key: string }[] }));
      return {
        migrations,
        tables,
        sequences,
        server,
        mediaKeys: media.rows.map((r) => r.key),
      };
    });
}

/** Parents before children (foreign keys between different tables); a cycle cannot be loaded. */
async function loadOrder(trx: AnyTrx, names: string[]): Promise<string[]> {
  const { rows } = await sql<{ child: string; parent: string }>`SELECT c.relname AS child,
        p.relname AS parent
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class p ON p.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = 'public' AND k.conrelid <> k.confrelid`.execute(trx);
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const { child, parent } of rows) parents.get(child)?.add(parent);
  const order: string[] = [];
  const done = new Set<string>();
  while (order.length < names.length) {
    const ready = names.filter(
      (n) => !done.has(n) && [...parents.get(n)!].every((p) => done.has(p) || !parents.has(p)),
    );
    if (ready.length === 0)
      throw new BackupError(
        `the tables ${names.filter((n) => !done.has(n)).join(', ')} refer to each other in a cycle; this backup format cannot load them`,
      );
    for (const n of ready) {
      done.add(n);
      order.push(n);
    }
  }
  return order;
}

/**
 * The lines of a JSON-lines file, split on "\n" only: row_to_json leaves U+2028 and U+2029 as they
 * are (valid JSON), and node:readline would split on them.
 */
async function* readLines(file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rest = '';
  for await (const chunk of createReadStream(file)) {
    rest += decoder.decode(chunk as Buffer, { stream: true });
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line !== '') yield line;
  }
  rest += decoder.decode();
  if (rest !== '') yield rest;
}

/**
 * Loads a dump into a database migrated to the dump's level and otherwise untouched, in one
 * transaction: rows the migrations themselves inserted are replaced, each table's triggers are off
 * while it loads (and on again before commit), and every sequence gets its recorded state.
 */
export async function loadDatabase(db: AnyDb, manifest: Manifest, dir: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await exactOutput(trx);
    const target = new Map((await listTables(trx)).map((t) => [t.name, t]));
    const names = manifest.tables.map((t) => t.name);
    const missing = names.filter((n) => !target.has(n));
    const extra = [...target.keys()].filter((n) => !names.includes(n));
    if (missing.length || extra.length)
      throw new BackupError(
        `the backup's tables do not match the schema at migration ${manifest.migrations.at(-1)} (${[...missing, ...extra].join(', ')})`,
      );
    for (const table of manifest.tables) {
      const stored = new Set(target.get(table.name)!.columns);
      const odd = table.columns.filter((c) => !stored.has(c));
      if (odd.length)
        throw new BackupError(
          `the backup's columns of ${table.name} do not match the schema (${odd.join(', ')})`,
        );
    }
    if (names.length) await sql`TRUNCATE ${sql.join(names.map(ident))}`.execute(trx);
    for (const name of names)
      await sql`ALTER TABLE ${ident(name)} DISABLE TRIGGER USER`.execute(trx);
    await sql`CREATE TEMPORARY TABLE backup_rows (line json) ON COMMIT DROP`.execute(trx);
    const byName = new Map(manifest.tables.map((t) => [t.name, t]));
    for (const name of await loadOrder(trx, names)) {
      const table = byName.get(name)!;
      await sql`TRUNCATE backup_rows`.execute(trx);
      let batch: string[] = [];
      let bytes = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        await sql`INSERT INTO backup_rows (line)
          SELECT json_array_elements(${`[${batch.join(',')}]`}::json)`.execute(trx);
        batch = [];
        bytes = 0;
      };
      for await (const line of readLines(path.join(dir, table.file))) {
        batch.push(line);
        bytes += line.length;
        if (batch.length >= BATCH || bytes >= LOAD_BYTES) await flush();
      }
      await flush();
      // One statement per table: a row may refer to one later in the same table (a print to its
      // original, a credit note to its invoice), since foreign keys are checked at its end.
      const columns = sql.join(table.columns.map(ident));
      const result = await sql`INSERT INTO ${ident(name)} (${columns}) OVERRIDING SYSTEM VALUE
        SELECT ${sql.join(table.columns.map((c) => sql`r.${ident(c)}`))}
        FROM backup_rows b, json_populate_record(NULL::${ident(name)}, b.line) r`.execute(trx);
      const inserted = Number(result.numAffectedRows ?? -1);
      if (inserted !== table.rows)
        throw new BackupError(
          `${name}: ${inserted} rows loaded where the backup lists ${table.rows}; nothing was restored`,
        );
    }
    for (const name of names)
      await sql`ALTER TABLE ${ident(name)} ENABLE TRIGGER USER`.execute(trx);
    for (const sequence of manifest.sequences)
      await sql`SELECT setval(format('public.%I', ${sequence.name}::text)::regclass, ${sequence.lastValue}::bigint, ${sequence.isCalled})`.execute(
        trx,
      );
  });
}
