import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readTar, tarStream, type TarEntry } from './tar.ts';

async function collect(entries: TarEntry[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of tarStream(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function readAll(bytes: Buffer, chunkSize = 97): Promise<{ name: string; body: string }[]> {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) parts.push(bytes.subarray(i, i + chunkSize));
  const out: { name: string; body: string }[] = [];
  for await (const entry of readTar(Readable.from(parts))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    out.push({ name: entry.name, body: Buffer.concat(chunks).toString('utf8') });
  }
  return out;
}

const entry = (name: string, body: string): TarEntry => ({
  name,
  size: Buffer.byteLength(body),
  mtime: 1_700_000_000,
  body: Buffer.from(body),
});

describe('tar', () => {
  it('reads back what it wrote: empty, block-sized, odd-sized and long-named files', async () => {
    const long = `media/${'a'.repeat(120)}/${'b'.repeat(90)}.png`;
    const longer = `media/${'c'.repeat(300)}.png`;
    const files = [
      entry('db/empty.jsonl', ''),
      entry('db/block.jsonl', 'x'.repeat(512)),
      entry('db/odd.jsonl', 'é{"a":1}\n'.repeat(333)),
      entry(long, 'prefix+name'),
      entry(longer, 'pax path'),
    ];
    const bytes = await collect(files);
    expect(bytes.length % 512).toBe(0);
    expect(await readAll(bytes)).toEqual(
      files.map((f) => ({ name: f.name, body: (f.body as Buffer).toString('utf8') })),
    );
  });

  it('is read by a consumer that stops early without losing its place', async () => {
    const bytes = await collect([entry('db/a.jsonl', 'a'.repeat(5000)), entry('db/b.jsonl', 'b')]);
    const names: string[] = [];
    for await (const e of readTar(Readable.from([bytes]))) {
      names.push(e.name);
      for await (const chunk of e.body) {
        void chunk;
        break;
      }
    }
    expect(names).toEqual(['db/a.jsonl', 'db/b.jsonl']);
  });

  it('refuses a truncated stream and a damaged header', async () => {
    const bytes = await collect([entry('db/a.jsonl', 'a'.repeat(2000))]);
    await expect(readAll(bytes.subarray(0, 1200))).rejects.toThrow(/truncated/);
    await expect(readAll(bytes.subarray(0, bytes.length - 1024))).rejects.toThrow(/truncated/);
    const damaged = Buffer.from(bytes);
    damaged[3] = damaged[3]! ^ 0x01;
    await expect(readAll(damaged)).rejects.toThrow(/damaged header/);
  });

  it('refuses a body that does not have its declared size', async () => {
    await expect(
      collect([{ name: 'db/a', size: 3, mtime: 0, body: Buffer.from('four') }]),
    ).rejects.toThrow(/grew/);
    await expect(
      collect([{ name: 'db/a', size: 5, mtime: 0, body: Buffer.from('four') }]),
    ).rejects.toThrow(/shrank/);
  });
});
