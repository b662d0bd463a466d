// The one Kysely factory: DATABASE_URL (postgres://…) opens a pg pool, anything else the embedded
// PGlite database persisted under DATA_DIR. Both get the same type parsing so rows look alike.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  Kysely,
  PGliteDialect,
  PostgresDialect,
  sql,
  type RawBuilder,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import { log } from '../log.ts';
import type { DB } from './schema.ts';
import { readPgliteTemplate } from './template.ts';

export type Database = Kysely<DB>;
/** The database or a transaction on it: what queries that may run inside one accept. */
export type Executor = Database | Transaction<DB>;

/** A PostgreSQL unique_violation (23505), from pg and PGlite alike; `constraint` narrows it. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.code === '23505' &&
    (constraint === undefined || e.constraint === constraint)
  );
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Human-readable location, without secrets. */
  description: string;
  close(): Promise<void>;
}

/** Start-up failure the person running the site must act on (printed as one line). */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** The embedded database is held by another live process (its pid is known). */
export class DatabaseLockedError extends DatabaseUnavailableError {
  override name = 'DatabaseLockedError';
  readonly holderPid: number;
  constructor(message: string, holderPid: number) {
    super(message);
    this.holderPid = holderPid;
  }
}

const INT8 = 20;
const DATE = 1082;
// int8 only comes from count(*) and sums here: numbers far below 2^53. Dates stay 'YYYY-MM-DD'.
const parseInt8 = (value: string): number => Number(value);
const keepText = (value: string): string => value;
/** Parsers every PGlite instance of ours uses (tests create instances from a template dump). */
export const PGLITE_PARSERS = { [INT8]: parseInt8, [DATE]: keepText };
/** The extensions the migrations use (pg_trgm: the orders search index, migration 0760); every
 * embedded database is opened with them, or it cannot use its own indexes. */
export const PGLITE_EXTENSIONS = { pg_trgm };

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory of the embedded database (PGlite) when no URL is given. */
  pgliteDir?: string | undefined;
  /** An already created PGlite instance (tests load one from a migrated template). */
  pglite?: PGlite | undefined;
  /**
   * What a new embedded database in `pgliteDir` is unpacked from: by default the migrated
   * template made at install (./template.ts); `null` for none (`initdb`).
   */
  pgliteTemplate?: Blob | null | undefined;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.maxConnections ?? 10);
  if (options.pglite) return wrapPglite(options.pglite, 'embedded PGlite (in memory)', () => {});
  if (!options.pgliteDir) throw new Error('openDatabase needs databaseUrl, pgliteDir or pglite');
  return openPgliteDir(options.pgliteDir, options.pgliteTemplate);
}

/**
 * Marks a hot statement to be planned once per connection: `sql\`${prepared('cart_add_v1')} …\``.
 * On PostgreSQL it becomes a named prepared statement (planning a statement of several CTEs costs
 * more than running it: issue 14 §2); PGlite runs it as any other. The name must change whenever
 * the statement's text does.
 */
export function prepared(name: string): RawBuilder<unknown> {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`bad prepared statement name ${name}`);
  return sql.raw(`/* prepared:${name} */`);
}

const PREPARED = /^\/\* prepared:([a-z][a-z0-9_]*) \*\//;

/** pg's client, turning Kysely's (text, values) of a statement marked by `prepared()` into a named one. */
class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A connection the server ends (a restart, a failover, pg_terminate_backend) emits 'error';
    // the pool listens only while the client is idle, and an 'error' nobody hears ends the
    // process (issue 24). Heard here, it costs only the queries in flight — they fail, answered
    // 503 (api/http/errors.ts) — and the pool drops the broken client when it is released
    // (`retire` below, when the server said so first).
    this.on('error', (error) =>
      log.warn({ err: error }, 'PostgreSQL connection lost; its requests in flight failed'),
    );
  }

  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    if (typeof text === 'string' && Array.isArray(values) && callback === undefined) {
      const name = PREPARED.exec(text)?.[1];
      if (name) args = [{ name, text, values }];
    }
    // pg's query has many overloads; this passes through whichever was called.
    const result = (super.query as (...a: unknown[]) => unknown).apply(this, args);
    if (!(result instanceof Promise)) return result as never;
    return result.catch((error: unknown) => {
      if (endsConnection(error)) this.retire(error);
      throw error;
    }) as never;
  }

  /**
   * The server answered a query with a FATAL error (pg_terminate_backend, a restart, a
   * failover): it closes the connection next. The pool takes a released client back unless it
   * knows it is finished, and it learns that from the socket's end, which can come after the
   * release — in between, the next request was handed this dead client and failed too (a 503
   * from /api/health once after the drops of pg-connection-loss.test.ts). Ended here, before
   * the caller sees the error, the pool drops it at the release.
   */
  private retire(error: unknown): void {
    log.warn({ err: error }, 'PostgreSQL ended a connection; its requests in flight failed');
    this.end().catch(() => {});
  }
}

/** An error after which the server closes the connection (severity FATAL or PANIC). */
function endsConnection(error: unknown): boolean {
  const severity = (error as { severity?: unknown } | null)?.severity;
  return severity === 'FATAL' || severity === 'PANIC';
}

async function openPostgres(url: string, max: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString: url,
    max,
    connectionTimeoutMillis: 5000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8) return parseInt8;
        if (oid === DATE) return keepText;
        return (
          format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid)
        ) as (value: string) => unknown;
      }) as typeof pg.types.getTypeParser,
    },
  });
  // Idle clients can fail when the server restarts; the pool replaces them, so only log.
  pool.on('error', (error) => log.error({ err: error }, 'PostgreSQL idle client error'));
  const where = describeUrl(url);
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseUnavailableError(
      `Cannot reach PostgreSQL at ${where} (${errorText(error)}). Check that the server runs and that DATABASE_URL is right, or unset DATABASE_URL to use the embedded database.`,
    );
  }
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closing: Promise<void> | undefined;
  return { db, kind: 'postgres', description: where, close: () => (closing ??= db.destroy()) };
}

async function openPgliteDir(dir: string, given?: Blob | null): Promise<DatabaseHandle> {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const releaseLock = acquireLock(`${dir}.lock`);
  const open = async (loadDataDir?: Blob) => {
    const pglite = new PGlite(dir, {
      parsers: PGLITE_PARSERS,
      extensions: PGLITE_EXTENSIONS,
      ...(loadDataDir && { loadDataDir }),
    });
    await pglite.waitReady;
    return pglite;
  };
  try {
    // A new database is unpacked from the migrated template when there is one (./template.ts).
    const isNew = !fs.existsSync(path.join(dir, 'PG_VERSION'));
    const template = isNew ? (given === undefined ? readPgliteTemplate() : given) : null;
    if (template) {
      try {
        const pglite = await open(template);
        return wrapPglite(
          pglite,
          `embedded PGlite in ${dir} (new, from the migrated template)`,
          releaseLock,
        );
      } catch (error) {
        // What it unpacked goes, and the database is made as without a template.
        log.warn(
          `Galerie: the migrated template could not be unpacked (${errorText(error)}); making the database from scratch`,
        );
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    return wrapPglite(await open(), `embedded PGlite in ${dir}`, releaseLock);
  } catch (error) {
    releaseLock();
    throw new DatabaseUnavailableError(
      `Cannot open the embedded database in ${dir} (${errorText(error)}). Move that directory away to start afresh, or set DATA_DIR.`,
    );
  }
}

function wrapPglite(pglite: PGlite, description: string, onClose: () => void): DatabaseHandle {
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    description,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      if (!pglite.closed) await pglite.close();
      onClose();
    },
  };
}

/**
 * PGlite belongs to one process: a second process opening the same directory would corrupt it.
 * A lock file holding our pid refuses that with a clear message; a stale lock (dead pid) is taken over.
 */
function acquireLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockPath, 'utf8'));
      if (holder === process.pid || !isAlive(holder)) {
        fs.rmSync(lockPath, { force: true });
        continue;
      }
      throw new DatabaseLockedError(
        `The embedded database ${path.dirname(lockPath)} is in use by process ${holder} (only one Galerie process may open it). Stop that process first, or give this one another DATA_DIR to run a separate shop with its own database.`,
        holder,
      );
    }
  }
  throw new DatabaseUnavailableError(`Cannot lock the embedded database (${lockPath}).`);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}

export function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorText(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
