// The backup archive (docs/decisions/027): one gzip-compressed tar holding `db/<table>.jsonl` (the
// rows), `media/…` (the masters) and, last, `manifest.json`, which lists every other file with its
// size and sha256. Reading verifies all of them before anything is restored.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { z } from 'zod';
import { readTar, tarStream, TarFormatError, type TarEntry } from './tar.ts';

export const MANIFEST_NAME = 'manifest.json';
export const ARCHIVE_FORMAT = 'galerie-backup';
export const ARCHIVE_VERSION = 1;
/** A manifest lists every file: even 100 000 media files stay far below this. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** A backup that cannot be made or restored, said in one line for the person running it. */
export class BackupError extends Error {
  override name = 'BackupError';
}

const fileSchema = z.object({
  path: z.string(),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  createdAt: z.string(),
  app: z.object({ name: z.string(), version: z.string() }),
  source: z.object({ kind: z.enum(['pglite', 'postgres']), server: z.string() }),
  /** The migrations applied to the database backed up, in order (kysely_migration). */
  migrations: z.array(z.string()).min(1),
  tables: z.array(
    z.object({
      name: z.string(),
      file: z.string(),
      rows: z.number().int().min(0),
      /** The stored (not generated) columns, as the rows name them. */
      columns: z.array(z.string()),
    }),
  ),
  sequences: z.array(z.object({ name: z.string(), lastValue: z.string(), isCalled: z.boolean() })),
  media: z.object({
    files: z.number().int().min(0),
    bytes: z.number().int().min(0),
    /** storage_key of media rows whose master file was not found when the backup was taken. */
    missing: z.array(z.string()),
  }),
  files: z.array(fileSchema),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof fileSchema>;

/** One file to archive: its name in the archive, then (opened when its turn comes) its bytes. */
export interface ArchiveSource {
  name: string;
  /** Its size, time and bytes; null when the file went away before its turn (it is skipped). */
  open(): Promise<{ size: number; mtime: number; body: AsyncIterable<Buffer> } | null>;
}

/** Names written and accepted: relative, `/`-separated, no `..`, nothing odd. */
const SAFE_NAME = /^(db|media)\/[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*$/;

export function isSafeArchiveName(name: string): boolean {
  return SAFE_NAME.test(name) && !name.split('/').includes('..');
}

/**
 * A file on disk as an archive source, read through one descriptor: a master replaced meanwhile
 * (written then renamed) is archived whole, old or new.
 */
export function fileSource(name: string, file: string): ArchiveSource {
  return {
    name,
    async open() {
      let handle;
      try {
        handle = await fs.open(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const stat = await handle.stat();
      return {
        size: stat.size,
        mtime: Math.floor(stat.mtimeMs / 1000),
        body: (async function* () {
          try {
            let position = 0;
            while (position < stat.size) {
              const chunk = Buffer.alloc(Math.min(1024 * 1024, stat.size - position));
              const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
              if (bytesRead === 0) break;
              position += bytesRead;
              yield chunk.subarray(0, bytesRead);
            }
          } finally {
            await handle.close();
          }
        })(),
      };
    },
  };
}

/**
 * Writes the archive: every source, then the manifest `complete` makes from the files written
 * (each with its size and sha256, hashed as it streams). Written to `<out>.partial` and renamed,
 * so an archive under its final name is complete.
 */
export async function writeArchive(
  out: string,
  sources: ArchiveSource[],
  complete: (files: ManifestFile[]) => Omit<Manifest, 'files'>,
): Promise<Manifest> {
  const files: ManifestFile[] = [];
  let manifest: Manifest | undefined;
  async function* entries(): AsyncGenerator<TarEntry> {
    for (const source of sources) {
      if (!isSafeArchiveName(source.name))
        throw new BackupError(`cannot archive a file named ${JSON.stringify(source.name)}`);
      const opened = await source.open();
      if (!opened) continue;
      const hash = createHash('sha256');
      let size = 0;
      const body = opened.body;
      async function* hashed(): AsyncGenerator<Buffer> {
        for await (const chunk of body) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
        files.push({ path: source.name, size, sha256: hash.digest('hex') });
      }
      yield { name: source.name, size: opened.size, mtime: opened.mtime, body: hashed() };
    }
    manifest = { ...complete(files), files };
    const bytes = Buffer.from(JSON.stringify(manifest, null, 1));
    yield {
      name: MANIFEST_NAME,
      size: bytes.length,
      mtime: Math.floor(Date.parse(manifest.createdAt) / 1000),
      body: bytes,
    };
  }
  const partial = `${out}.partial`;
  try {
    await pipeline(Readable.from(tarStream(entries())), createGzip(), createWriteStream(partial));
    await fs.rename(partial, out);
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
  return manifest!;
}

function corrupt(detail: string): BackupError {
  return new BackupError(
    `the backup archive is damaged or incomplete (${detail}); nothing was restored`,
  );
}

/**
 * Extracts the archive into `dir` (which must be empty) and verifies it whole: the manifest is
 * valid, every file it lists is there with its size and sha256, and nothing else is. Any problem
 * throws a BackupError; the caller then removes `dir`.
 */
export async function extractArchive(file: string, dir: string): Promise<Manifest> {
  try {
    await fs.access(file);
  } catch {
    throw new BackupError(`no backup archive at ${file}`);
  }
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | undefined;
  try {
    const source = createReadStream(file).pipe(createGunzip());
    for await (const entry of readTar(source)) {
      if (manifestText !== undefined) throw corrupt('files after the manifest');
      if (entry.name === MANIFEST_NAME) {
        if (entry.size > MAX_MANIFEST_BYTES) throw corrupt('manifest too large');
        const chunks: Buffer[] = [];
        for await (const chunk of entry.body) chunks.push(chunk);
        manifestText = Buffer.concat(chunks).toString('utf8');
        continue;
      }
      if (!isSafeArchiveName(entry.name))
        throw corrupt(`unexpected file ${JSON.stringify(entry.name)}`);
      if (seen.has(entry.name)) throw corrupt(`${entry.name} twice`);
      const target = path.join(dir, ...entry.name.split('/'));
      await fs.mkdir(path.dirname(target), { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const body = entry.body;
      await pipeline(
        (async function* () {
          for await (const chunk of body) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        })(),
        createWriteStream(target, { flags: 'wx' }),
      );
      seen.set(entry.name, { size, sha256: hash.digest('hex') });
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    if (error instanceof TarFormatError) throw corrupt(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('Z_'))
      throw corrupt('its compression is broken');
    if (code === 'ENOSPC') throw new BackupError(`no space left on the disk to unpack ${file}`);
    throw error;
  }
  if (manifestText === undefined) throw corrupt('no manifest');
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(manifestText));
  } catch {
    throw corrupt('unreadable manifest');
  }
  for (const listed of manifest.files) {
    const found = seen.get(listed.path);
    if (!found) throw corrupt(`${listed.path} is missing`);
    if (found.size !== listed.size || found.sha256 !== listed.sha256)
      throw corrupt(`${listed.path} does not match its checksum`);
    seen.delete(listed.path);
  }
  const extra = seen.keys().next();
  if (!extra.done) throw corrupt(`${extra.value} is not in the manifest`);
  for (const table of manifest.tables)
    if (!manifest.files.some((f) => f.path === table.file))
      throw corrupt(`${table.file} is missing`);
  return manifest;
}
