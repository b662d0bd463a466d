// A minimal tar (POSIX ustar, with a pax `path` record for names longer than ustar holds) written
// and read as streams, so a backup needs no tar binary and no dependency (docs/decisions/027).
// Only regular files are written; reading accepts regular files and skips directories.

const BLOCK = 512;
const ZEROS = Buffer.alloc(BLOCK);
/** ustar's size field: 11 octal digits. */
const MAX_SIZE = 0o77777777777;

export interface TarEntry {
  name: string;
  size: number;
  /** Seconds since the epoch. */
  mtime: number;
  /** The file's bytes, exactly `size` of them. */
  body: AsyncIterable<Buffer> | Buffer;
}

/** Something wrong with the archive's structure (a bad header, a short file). */
export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

function writeString(block: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new TarFormatError(`tar field too long: ${value}`);
  bytes.copy(block, offset);
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  writeString(block, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum;
}

function header(name: string, size: number, mtime: number, type: '0' | 'x', prefix = ''): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, Math.max(0, Math.floor(mtime)));
  block.write(type, 156, 'latin1');
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeString(block, 345, 155, prefix);
  writeString(block, 148, 8, `${checksum(block).toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** A pax record `"<len> path=<name>\n"`, whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  const bodyLength = Buffer.byteLength(body);
  let length = bodyLength + String(bodyLength).length;
  if (String(length).length !== String(bodyLength).length) length += 1;
  return Buffer.from(`${length}${body}`, 'utf8');
}

/** The header block(s) of one file: ustar name/prefix when it fits, else a pax record first. */
function headersFor(entry: TarEntry): Buffer[] {
  if (!Number.isSafeInteger(entry.size) || entry.size < 0 || entry.size > MAX_SIZE)
    throw new TarFormatError(`${entry.name}: file too large for the archive`);
  const bytes = Buffer.byteLength(entry.name);
  if (bytes <= 100) return [header(entry.name, entry.size, entry.mtime, '0')];
  const slash = entry.name.lastIndexOf('/', 155);
  if (slash > 0 && Buffer.byteLength(entry.name.slice(slash + 1)) <= 100 && slash <= 155)
    return [
      header(entry.name.slice(slash + 1), entry.size, entry.mtime, '0', entry.name.slice(0, slash)),
    ];
  const pax = paxRecord('path', entry.name);
  return [
    header('PaxHeader', pax.length, entry.mtime, 'x'),
    pad(pax),
    header(entry.name.slice(-100).replace(/^\/+/, ''), entry.size, entry.mtime, '0'),
  ];
}

function pad(bytes: Buffer): Buffer {
  const rest = bytes.length % BLOCK;
  return rest === 0 ? bytes : Buffer.concat([bytes, ZEROS.subarray(0, BLOCK - rest)]);
}

/** The tar stream of the entries, in order, ending with the two zero blocks. */
export async function* tarStream(
  entries: AsyncIterable<TarEntry> | TarEntry[],
): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    yield* headersFor(entry);
    let written = 0;
    const chunks = Buffer.isBuffer(entry.body) ? [entry.body] : entry.body;
    for await (const chunk of chunks) {
      written += chunk.length;
      if (written > entry.size) throw new TarFormatError(`${entry.name} grew while archived`);
      if (chunk.length > 0) yield chunk;
    }
    if (written !== entry.size) throw new TarFormatError(`${entry.name} shrank while archived`);
    const rest = written % BLOCK;
    if (rest !== 0) yield ZEROS.subarray(0, BLOCK - rest);
  }
  yield ZEROS;
  yield ZEROS;
}

/** Pulls exact byte counts out of a stream of chunks. */
class ByteReader {
  #iterator: AsyncIterator<Buffer>;
  #buffer: Buffer = Buffer.alloc(0);
  #done = false;

  constructor(source: AsyncIterable<Buffer>) {
    this.#iterator = source[Symbol.asyncIterator]();
  }

  async #fill(min: number): Promise<boolean> {
    while (this.#buffer.length < min && !this.#done) {
      const next = await this.#iterator.next();
      if (next.done) this.#done = true;
      else
        this.#buffer =
          this.#buffer.length === 0 ? next.value : Buffer.concat([this.#buffer, next.value]);
    }
    return this.#buffer.length >= min;
  }

  /** Exactly `n` bytes, or null at a clean end of the stream before any of them. */
  async read(n: number): Promise<Buffer | null> {
    if (!(await this.#fill(n))) {
      if (this.#buffer.length === 0) return null;
      throw new TarFormatError('the archive ends in the middle of a file (truncated)');
    }
    const out = this.#buffer.subarray(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return out;
  }

  /** The next `counter.left` bytes as chunks as they arrive (the counter follows what is read). */
  async *chunks(counter: { left: number }): AsyncGenerator<Buffer> {
    while (counter.left > 0) {
      if (this.#buffer.length === 0 && !(await this.#fill(1)))
        throw new TarFormatError('the archive ends in the middle of a file (truncated)');
      const take = Math.min(counter.left, this.#buffer.length);
      const out = this.#buffer.subarray(0, take);
      this.#buffer = this.#buffer.subarray(take);
      counter.left -= take;
      yield out;
    }
  }
}

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = readString(block, offset, length).trim();
  if (!/^[0-7]+$/.test(text)) throw new TarFormatError('the archive has a damaged header');
  return parseInt(text, 8);
}

function parsePax(bytes: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let offset = 0;
  while (offset < bytes.length) {
    const space = bytes.indexOf(0x20, offset);
    const length = Number(bytes.subarray(offset, space).toString('latin1'));
    if (space < 0 || !Number.isInteger(length) || length <= 0)
      throw new TarFormatError('the archive has a damaged extended header');
    const record = bytes.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records.set(record.slice(0, equals), record.slice(equals + 1));
    offset += length;
  }
  return records;
}

export interface TarReadEntry {
  name: string;
  size: number;
  /** Must be consumed (or drained) before the next entry is read. */
  body: AsyncGenerator<Buffer>;
}

/**
 * The files of a tar stream, one at a time. Every header's checksum is verified; a stream that ends
 * before its end-of-archive blocks is refused as truncated.
 */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarReadEntry> {
  const reader = new ByteReader(source);
  let paxPath: string | undefined;
  for (;;) {
    const block = await reader.read(BLOCK);
    if (!block) throw new TarFormatError('the archive ends before its last file (truncated)');
    if (block.equals(ZEROS)) return;
    if (readOctal(block, 148, 8) !== checksum(block))
      throw new TarFormatError('the archive has a damaged header');
    const size = readOctal(block, 124, 12);
    const type = String.fromCharCode(block[156]!);
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      const data = await reader.read(padded);
      if (!data) throw new TarFormatError('the archive ends before its last file (truncated)');
      paxPath = parsePax(data.subarray(0, size)).get('path');
      continue;
    }
    const prefix = readString(block, 345, 155);
    const ustarName = readString(block, 0, 100);
    const name = paxPath ?? (prefix ? `${prefix}/${ustarName}` : ustarName);
    paxPath = undefined;
    if (type === '5') {
      if (padded > 0) await reader.read(padded);
      continue;
    }
    if (type !== '0' && type !== '\0')
      throw new TarFormatError(`the archive holds something other than a file: ${name}`);
    const counter = { left: size };
    yield { name, size, body: reader.chunks(counter) };
    // Whatever the consumer left unread.
    for await (const chunk of reader.chunks(counter)) void chunk;
    if (padded > size && !(await reader.read(padded - size)))
      throw new TarFormatError('the archive ends before its last file (truncated)');
  }
}
