// Backups (issue 14 §3, docs/decisions/027): a shop with real data — accounts, works with their
// images, changed settings and promo codes, paid and refunded orders with invoices and a credit
// note — is backed up and restored into an empty database of the same kind and of the other kind
// (PGlite → PostgreSQL and back, when DATABASE_URL is set), and comes back identical: every row of
// every table, every sequence, every master image. The restored shop then still works. A damaged,
// tampered or too new archive and a target that is not empty are refused before anything changes;
// the daily schedule and the two commands are exercised too.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '#api/accounts/index.ts';
import { hashPassword } from '#api/accounts/passwords.ts';
import { createSession, validateSessionToken } from '#api/accounts/sessions.ts';
import { manifestSchema } from '#api/backup/archive.ts';
import { countPublicTables, listTables } from '#api/backup/database.ts';
import { createBackup, listMediaMasters, restoreBackup } from '#api/backup/index.ts';
import { runScheduledBackup, autoBackupName } from '#api/backup/schedule.ts';
import { readTar, tarStream, type TarEntry } from '#api/backup/tar.ts';
import {
  openDatabase,
  PGLITE_EXTENSIONS,
  PGLITE_PARSERS,
  type Database,
  type DatabaseHandle,
} from '#api/db/index.ts';
import { migrateToLatest } from '#api/db/migrate.ts';
import { issueCreditNote, issueInvoice } from '#api/invoices/index.ts';
import { findCertificate, issueCertificates } from '#api/certificates/index.ts';
import { ensureSigningKey, publicSigningKeys, readPublicKeys } from '#api/certificates/signing.ts';
import { verifySigned } from '#api/certificates/verify.ts';
import { storeMaster } from '#api/media/index.ts';
import { diskStorage } from '#api/media/storage.ts';
import { saveSettings } from '#api/settings/index.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../helpers/db.ts';
import { makeArtwork, makeOrder } from '../helpers/factories.ts';
import { databaseUrlFor, quoteIdent } from '../helpers/pg-admin.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- compares any table
type AnyDb = Kysely<any>;
type Kind = 'pglite' | 'postgres';

const root = path.resolve(import.meta.dirname, '..', '..');
const kind = testDbKind();
const postgresUrl = process.env['DATABASE_URL'];
/** The same kind always; the other one when there is a PostgreSQL to use. */
const targets: Kind[] =
  kind === 'postgres' ? ['postgres', 'pglite'] : postgresUrl ? ['pglite', 'postgres'] : ['pglite'];

const cleanups: (() => Promise<unknown>)[] = [];
let tmp: string;

async function tempDir(name: string): Promise<string> {
  return fs.mkdtemp(path.join(tmp, `${name}-`));
}

/** A new, empty database (not migrated) of the given kind. */
async function emptyDatabase(which: Kind): Promise<DatabaseHandle & { url?: string }> {
  if (which === 'pglite') {
    const handle = await openDatabase({
      pglite: new PGlite({ parsers: PGLITE_PARSERS, extensions: PGLITE_EXTENSIONS }),
    });
    cleanups.push(() => handle.close());
    return handle;
  }
  const name = `galerie_bk_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  await admin.end();
  const url = databaseUrlFor(postgresUrl!, name);
  const handle = await openDatabase({ databaseUrl: url, maxConnections: 3 });
  cleanups.push(async () => {
    await handle.close();
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await client.end();
  });
  return { ...handle, url };
}

const png = (r: number, g: number, b: number, width: number) =>
  sharp({ create: { width, height: 40, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

interface Shop {
  customerEmail: string;
  customerToken: string;
  adminEmail: string;
  password: string;
}

/** A shop with a bit of everything, made through the services and the factories. */
async function fillShop(db: Database, dataDir: string): Promise<Shop> {
  const storage = diskStorage(path.join(dataDir, 'media'));
  const password = `Backup-${randomBytes(6).toString('hex')}`;
  const passwordHash = await hashPassword(password);
  const admin = await db
    .insertInto('users')
    .values({
      email: 'owner@galerie.example',
      full_name: 'Sasha Kovač',
      role: 'admin',
      password_hash: passwordHash,
      email_verified_at: new Date(),
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  const customer = await db
    .insertInto('users')
    .values({
      email: 'zoe@client.example',
      // Quotes, a backslash, a newline, a line separator, an emoji, accents.
      full_name: 'Zoë "L\'Œil" \\ Ünal\nsecond line \u2028 🎨',
      role: 'customer',
      password_hash: passwordHash,
      email_verified_at: new Date(),
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  const { token } = await createSession(db, customer.id);
  // Microseconds, which a JavaScript Date cannot hold.
  await sql`UPDATE users SET created_at = '2026-03-04 05:06:07.123456+00' WHERE id = ${customer.id}`.execute(
    db,
  );

  const blue = await storeMaster(db, storage, await png(20, 40, 200, 64), {
    fr: 'Bleu',
    en: 'Blue',
  });
  const red = await storeMaster(db, storage, await png(200, 30, 20, 48), {
    fr: 'Rouge',
    en: 'Red',
  });
  // A print whose original comes later (a row referring to a later one of the same table).
  const print = await makeArtwork(db, { artwork_type: 'print', media_id: red.id });
  const original = await makeArtwork(db, { media_id: red.id });
  await db
    .updateTable('artworks')
    .set({ original_id: original.id })
    .where('id', '=', print.id)
    .execute();
  const other = await makeArtwork(db, { media_id: blue.id, title_fr: 'Nuit « bleue »' });
  // A rendered variant: derived, not archived.
  const variant = path.join(dataDir, 'media', 'variants', blue.sha256.slice(0, 2), blue.sha256);
  await fs.mkdir(variant, { recursive: true });
  await fs.writeFile(path.join(variant, '400.webp'), 'derived');

  await saveSettings(
    db,
    {
      site_title: 'Galerie de sauvegarde',
      promo_codes: [
        { code: 'BACKUP15', discount: 15, active: true },
        { code: 'OLD5', discount: 5, active: false },
      ],
      promo_banner_code: 'BACKUP15',
      shipping_info: { default_cost_cents: 990, free_threshold_cents: 30_000 },
    },
    { id: admin.id, email: admin.email },
  );

  const yesterday = new Date(Date.now() - 86_400_000);
  // Paid, discounted (the rollup's net revenue gets decimals), with an invoice.
  const paid = await makeOrder(db, {
    email: customer.email,
    lines: [
      { artworkId: print.id, type: 'print', unitPriceCents: 35_000, quantity: 2 },
      { artworkId: other.id, type: 'original', unitPriceCents: 410_000 },
    ],
    discountCents: 11_111,
    shippingCents: 990,
  });
  await db.updateTable('orders').set({ user_id: customer.id }).where('id', '=', paid.id).execute();
  // Paid yesterday then refunded: an invoice, a credit note referring to it, a day at zero.
  const refunded = await makeOrder(db, {
    lines: [{ artworkId: original.id, type: 'original', unitPriceCents: 410_000 }],
    paidAt: yesterday,
  });
  await db.transaction().execute(async (trx) => {
    // Its original's certificate of authenticity, signed with the key made here (decision 046).
    await issueCertificates(trx, paid.id, new Date());
    await issueInvoice(trx, paid.id, new Date());
    await issueInvoice(trx, refunded.id, yesterday);
    await trx
      .updateTable('orders')
      .set({ payment_status: 'refunded', status: 'cancelled' })
      .where('id', '=', refunded.id)
      .execute();
    await issueCreditNote(trx, refunded.id, new Date());
  });
  // Waiting for its payment.
  await makeOrder(db, {
    lines: [{ artworkId: null, type: 'print', title: 'Œuvre retirée', unitPriceCents: 12_345 }],
    paidAt: null,
  });
  return { customerEmail: customer.email, customerToken: token, adminEmail: admin.email, password };
}

/** Every row of every table (generated columns too) as JSON text, sorted; and the sequences. */
async function snapshot(db: AnyDb): Promise<Record<string, string[]>> {
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL TimeZone = 'UTC'`.execute(trx);
    const out: Record<string, string[]> = {};
    for (const table of await listTables(trx)) {
      const { rows } = await sql<{
        line: string;
      }>`SELECT row_to_json(t)::text AS line FROM ${sql.id(table.name)} t`.execute(trx);
      out[table.name] = rows.map((r) => r.line).sort();
    }
    const sequences = await sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY 1`.execute(trx);
    out['(sequences)'] = [];
    for (const { name } of sequences.rows) {
      const { rows } = await sql<{
        v: string;
      }>`SELECT last_value::text || ' ' || is_called::text AS v FROM ${sql.id(name)}`.execute(trx);
      out['(sequences)'].push(`${name} ${rows[0]?.v}`);
    }
    return out;
  });
}

/** Rows as the application reads them (its own drivers and parsers), made comparable. */
async function appRows(db: AnyDb, table: string, order: string): Promise<unknown[]> {
  const rows = await db.selectFrom(table).selectAll().orderBy(order).execute();
  // pg gives bytea as a Buffer, PGlite as a Uint8Array: the same bytes either way.
  return rows.map((row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        value instanceof Uint8Array ? `bytes:${Buffer.from(value).toString('hex')}` : value,
      ]),
    ),
  );
}

async function mediaFiles(dataDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await listMediaMasters(path.join(dataDir, 'media')))
    out[name] = (await fs.readFile(path.join(dataDir, 'media', name))).toString('base64');
  return out;
}

/** The archive with its entries changed by `edit` (re-packed, the manifest as `edit` leaves it). */
async function repack(
  file: string,
  out: string,
  edit: (name: string, body: Buffer) => Buffer,
): Promise<string> {
  const entries: TarEntry[] = [];
  for await (const entry of readTar(createReadStream(file).pipe(createGunzip()))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    const body = edit(entry.name, Buffer.concat(chunks));
    entries.push({ name: entry.name, size: body.length, mtime: 0, body });
  }
  await pipeline(Readable.from(tarStream(entries)), createGzip(), createWriteStream(out));
  return out;
}

let source: TestDatabase;
let sourceDir: string;
let shop: Shop;
let archive: string;
let before: Record<string, string[]>;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-backup-'));
  source = await createTestDatabase();
  sourceDir = await tempDir('source');
  shop = await fillShop(source.db, sourceDir);
  before = await snapshot(source.db);
  const result = await createBackup({
    db: source.db,
    kind,
    dataDir: sourceDir,
    out: path.join(tmp, 'shop.tar.gz'),
  });
  archive = result.file;
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await source?.dispose();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe(`a backup of a ${kind} shop`, { tags: ['pg-server'] }, () => {
  it('lists what it holds: rows per table, sequences, migrations, masters but no variants', async () => {
    const manifest = manifestSchema.parse(JSON.parse(await readManifest(archive)));
    expect(manifest.source.kind).toBe(kind);
    expect(manifest.migrations.length).toBeGreaterThan(5);
    const rows = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
    expect(rows).toMatchObject({ users: 2, orders: 3, order_items: 4, invoices: 3, media: 2 });
    expect(rows['artworks']).toBe(3);
    for (const table of manifest.tables) expect(before[table.name]).toHaveLength(table.rows);
    expect(manifest.media.files).toBe(2);
    expect(manifest.media.missing).toEqual([]);
    expect(manifest.media.bytes).toBeGreaterThan(0);
    expect(manifest.files.map((f) => f.path).filter((p) => p.startsWith('media/'))).toEqual(
      Object.keys(await mediaFiles(sourceDir)).map((n) => `media/${n}`),
    );
    expect(manifest.files.some((f) => f.path.includes('variants'))).toBe(false);
    expect(manifest.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
    // Nothing was left beside the archive.
    expect(await fs.readdir(tmp)).not.toContainEqual(expect.stringMatching(/parts|partial/));
  });
});

async function readManifest(file: string): Promise<string> {
  for await (const entry of readTar(createReadStream(file).pipe(createGunzip()))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    if (entry.name === 'manifest.json') return Buffer.concat(chunks).toString('utf8');
  }
  throw new Error('no manifest');
}

describe.each(targets)(
  `restoring a ${kind} backup into an empty %s database`,
  { tags: ['pg-server'] },
  (target) => {
    let restored: DatabaseHandle;
    let restoredDir: string;

    beforeAll(async () => {
      restored = await emptyDatabase(target);
      restoredDir = await tempDir(`restored-${target}`);
      if (target !== kind) {
        // Moving the shop to the other database with its own DATA_DIR: the masters are already there.
        for (const name of await listMediaMasters(path.join(sourceDir, 'media'))) {
          const to = path.join(restoredDir, 'media', name);
          await fs.mkdir(path.dirname(to), { recursive: true });
          await fs.copyFile(path.join(sourceDir, 'media', name), to);
        }
      }
      const result = await restoreBackup({
        file: archive,
        db: restored.db,
        dataDir: restoredDir,
      });
      expect(result.migrated).toEqual([]);
    });

    it('gives back every row of every table and every sequence, identical', async () => {
      const after = await snapshot(restored.db);
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    });

    it('gives back orders, users, settings and media as the application reads them', async () => {
      for (const [table, order] of [
        ['orders', 'order_number'],
        ['order_items', 'id'],
        ['users', 'email'],
        ['sessions', 'id'],
        ['site_settings', 'key'],
        ['media', 'sha256'],
        ['invoices', 'id'],
        ['artworks', 'id'],
        ['signing_keys', 'id'],
        ['certificates', 'serial'],
      ] as const)
        expect(await appRows(restored.db, table, order), table).toEqual(
          await appRows(source.db, table, order),
        );
    });

    it('puts back the master images byte for byte, and no variant', async () => {
      const masters = await mediaFiles(sourceDir);
      expect(Object.keys(masters)).toHaveLength(2);
      expect(await mediaFiles(restoredDir)).toEqual(masters);
      await expect(fs.access(path.join(restoredDir, 'media', 'variants'))).rejects.toThrow();
      // No staging folder left behind.
      expect((await fs.readdir(restoredDir)).filter((n) => n.startsWith('.restore'))).toEqual([]);
    });

    it('still works: fresh ids, sessions and logins, triggers and rollups', async () => {
      const db = restored.db;
      const sequence = await sql<{
        last: string;
      }>`SELECT last_value::text AS last FROM artworks_id_seq`.execute(source.db);
      const work = await makeArtwork(db);
      expect(work.id).toBe(Number(sequence.rows[0]!.last) + 1);

      const session = await validateSessionToken(db, shop.customerToken);
      expect(session?.user.email).toBe(shop.customerEmail);
      const signedIn = await login(
        { db },
        { email: shop.adminEmail, password: shop.password },
        {
          ip: '203.0.113.9',
          requireRole: 'admin',
        },
      );
      expect(signedIn.user.role).toBe('admin');

      // The certificates' signing key came back: the source's certificates verify with the key
      // the restored shop publishes, and it signs new ones with that same key.
      const [published] = await publicSigningKeys(db);
      expect(published?.id).toBe((await ensureSigningKey(source.db)).id);
      expect((await ensureSigningKey(db)).id).toBe(published!.id);
      const issued = await db.selectFrom('certificates').select('serial').execute();
      expect(issued.length).toBeGreaterThan(0);
      for (const { serial } of issued) {
        const found = (await findCertificate(db, serial))!;
        const signed = {
          algorithm: 'Ed25519' as const,
          keyId: found.content.keyId,
          content: found.content,
          signature: found.signature,
        };
        expect(verifySigned(signed, readPublicKeys(published!.pem)).ok).toBe(true);
      }

      // Invoices are immutable again (their trigger is back on).
      await expect(
        db.updateTable('invoices').set({ number: 'X' }).where('kind', '=', 'invoice').execute(),
      ).rejects.toThrow();

      // A new sale is folded into the day's rollup and the customer's summary.
      await makeOrder(db, {
        email: shop.customerEmail,
        lines: [{ artworkId: work.id, type: 'original', unitPriceCents: 5_000 }],
      });
      const rollup = await sql<{ day: string; revenue: string; orders: string }>`
      SELECT day::text AS day, revenue_cents::text AS revenue, orders::text AS orders
      FROM sales_days WHERE orders > 0 ORDER BY day`.execute(db);
      const computed = await sql<{ day: string; revenue: string; orders: string }>`
      SELECT (paid_at AT TIME ZONE 'Europe/Paris')::date::text AS day,
             sum(total_cents)::text AS revenue, count(*)::text AS orders
      FROM orders WHERE payment_status = 'paid' AND status <> 'cancelled' AND paid_at IS NOT NULL
      GROUP BY 1 ORDER BY 1`.execute(db);
      expect(rollup.rows).toEqual(computed.rows);
      const summary = await db
        .selectFrom('customer_summaries')
        .select(['orders'])
        .where('email', '=', shop.customerEmail)
        .executeTakeFirstOrThrow();
      expect(Number(summary.orders)).toBe(2);
    });
  },
);

describe('a restore refuses, before changing anything', () => {
  let target: DatabaseHandle;
  beforeAll(async () => {
    target = await emptyDatabase(kind);
  });

  async function refused(file: string, message: RegExp): Promise<void> {
    const dataDir = await tempDir('refused');
    await expect(restoreBackup({ file, db: target.db, dataDir })).rejects.toThrow(message);
    expect(await countPublicTables(target.db)).toBe(0);
    expect(await fs.readdir(dataDir)).toEqual([]);
  }

  it('a damaged or truncated archive', async () => {
    const bytes = await fs.readFile(archive);
    const damaged = Buffer.from(bytes);
    damaged[Math.floor(bytes.length / 2)] = damaged[Math.floor(bytes.length / 2)]! ^ 0xff;
    await fs.writeFile(path.join(tmp, 'damaged.tar.gz'), damaged);
    await refused(path.join(tmp, 'damaged.tar.gz'), /damaged or incomplete/);
    await fs.writeFile(path.join(tmp, 'short.tar.gz'), bytes.subarray(0, bytes.length - 2000));
    await refused(path.join(tmp, 'short.tar.gz'), /damaged or incomplete/);
    await refused(path.join(tmp, 'absent.tar.gz'), /no backup archive/);
  });

  it('a file that does not match its checksum', async () => {
    const file = await repack(archive, path.join(tmp, 'tampered.tar.gz'), (name, body) =>
      name === 'db/site_settings.jsonl'
        ? Buffer.from(body.toString('utf8').replace('BACKUP15', 'FREE100!'))
        : body,
    );
    await refused(file, /db\/site_settings\.jsonl does not match its checksum/);
  });

  it('a backup made by a newer version', async () => {
    const file = await repack(archive, path.join(tmp, 'newer.tar.gz'), (name, body) => {
      if (name !== 'manifest.json') return body;
      const manifest = JSON.parse(body.toString('utf8')) as { migrations: string[] };
      manifest.migrations.push('29991231_0000_from_the_future');
      return Buffer.from(JSON.stringify(manifest));
    });
    await refused(file, /newer version of Galerie/);
  });

  it('a database or a media folder that is not empty', { tags: ['pg-server'] }, async () => {
    const dataDir = await tempDir('not-empty');
    await expect(restoreBackup({ file: archive, db: source.db, dataDir })).rejects.toThrow(
      /target database is not empty/,
    );
    expect(await snapshot(source.db)).toEqual(before);

    // A master under the backup's name with other bytes.
    const [name] = await listMediaMasters(path.join(sourceDir, 'media'));
    await fs.mkdir(path.dirname(path.join(dataDir, 'media', name!)), { recursive: true });
    await fs.writeFile(path.join(dataDir, 'media', name!), 'other bytes');
    await expect(restoreBackup({ file: archive, db: target.db, dataDir })).rejects.toThrow(
      /already exists with other content/,
    );
    expect(await countPublicTables(target.db)).toBe(0);
  });
});

describe('the daily backup', { tags: ['cluster'] }, () => {
  it('runs once a day by its clock and keeps the newest N', async () => {
    const backupDir = await tempDir('daily');
    let now = new Date('2026-11-24T03:00:00Z');
    const options = {
      db: source.db,
      kind,
      dataDir: sourceDir,
      backupDir,
      keep: 2,
      now: () => now,
    };
    const first = await runScheduledBackup(options);
    expect(first.ran).toBe(true);
    expect(await fs.readdir(backupDir)).toEqual([autoBackupName(now)]);

    now = new Date('2026-11-24T04:00:00Z');
    expect((await runScheduledBackup(options)).ran).toBe(false);
    now = new Date('2026-11-25T01:59:00Z');
    expect((await runScheduledBackup(options)).ran).toBe(false);
    now = new Date('2026-11-25T02:00:00Z');
    expect((await runScheduledBackup(options)).ran).toBe(true);
    now = new Date('2026-11-26T02:00:00Z');
    const third = await runScheduledBackup(options);
    expect(third.pruned).toEqual(['galerie-auto-20261124T030000Z.tar.gz']);
    expect((await fs.readdir(backupDir)).sort()).toEqual([
      'galerie-auto-20261125T020000Z.tar.gz',
      'galerie-auto-20261126T020000Z.tar.gz',
    ]);
  });

  it.skipIf(kind !== 'postgres')('lets one node of several take it (advisory lock)', async () => {
    const backupDir = await tempDir('locked');
    const other = new pg.Client({ connectionString: source.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(1194340919)');
      const result = await runScheduledBackup({
        db: source.db,
        kind,
        dataDir: sourceDir,
        backupDir,
        keep: 2,
      });
      expect(result.ran).toBe(false);
      expect(await fs.readdir(backupDir).catch(() => [])).toEqual([]);
    } finally {
      await other.end();
    }
  });
});

function run(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', BACKUP_DIR: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// The commands do not depend on the source's kind: run once, on the embedded database.
describe.skipIf(kind !== 'pglite')('npm run backup and npm run restore', () => {
  it('back up a data directory and restore it into a new one', async () => {
    const dataDir = await tempDir('cli-source');
    const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
    let expected: unknown[];
    try {
      await migrateToLatest(handle.db);
      await fillShop(handle.db, dataDir);
      expected = await appRows(handle.db, 'orders', 'order_number');
    } finally {
      await handle.close();
    }

    // While a server holds the embedded database, the command says what to do.
    await fs.writeFile(path.join(dataDir, 'pgdata.lock'), String(process.pid));
    const held = await run('api/cli/backup.ts', [], { DATA_DIR: dataDir });
    await fs.rm(path.join(dataDir, 'pgdata.lock'));
    expect(held.code).toBe(1);
    expect(held.stderr).toMatch(/holds the embedded database/);
    expect(held.stderr).toMatch(/Stop the server/);
    expect(held.stderr).not.toMatch(/\n\s+at /);

    const backup = await run('api/cli/backup.ts', [], { DATA_DIR: dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    const file = /^Backup written: (.+\.tar\.gz) \(/m.exec(backup.stdout)?.[1];
    expect(file).toMatch(/[/\\]backups[/\\]galerie-backup-\d{8}T\d{6}Z\.tar\.gz$/);

    const restoredDir = await tempDir('cli-restored');
    const restore = await run('api/cli/restore.ts', [file!], { DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/Restored the backup of .* \(pglite, migration /);
    const again = await run('api/cli/restore.ts', [file!], { DATA_DIR: restoredDir });
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/^restore: the target database is not empty/);

    await fs.writeFile(path.join(tmp, 'garbage.tar.gz'), randomBytes(4096));
    const garbage = await run('api/cli/restore.ts', [path.join(tmp, 'garbage.tar.gz')], {
      DATA_DIR: await tempDir('cli-garbage'),
    });
    expect(garbage.code).toBe(1);
    expect(garbage.stderr.trim()).toMatch(/^restore: the backup archive is damaged or incomplete/);
    expect(garbage.stderr.trim().split('\n')).toHaveLength(1);

    const reopened = await openDatabase({ pgliteDir: path.join(restoredDir, 'pgdata') });
    try {
      expect(await appRows(reopened.db, 'orders', 'order_number')).toEqual(expected);
    } finally {
      await reopened.close();
    }
    expect(await mediaFiles(restoredDir)).toEqual(await mediaFiles(dataDir));
  });
});
