// Small helpers shared by the bench sections: raw HTTP on loopback, free ports, medians, byte
// formatting, the result rows every section produces, and the tables that print them.
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import * as prettier from 'prettier';

/** `info`: a figure reported without a budget; `missing`: the page answers 404 today. */
export type Status = 'pass' | 'fail' | 'missing' | 'n/a' | 'info';

/** One figure next to its budget: a row of a section's table and an entry of the JSON. */
export interface Check {
  section: string;
  item: string;
  figure: string;
  budget: string;
  status: Status;
  /** The measured number in its base unit (bytes, ms, score, ratio), null when not measured. */
  value: number | null;
  note?: string;
}

export const MARK: Record<Status, string> = {
  pass: '✓',
  fail: '✗',
  missing: '–',
  'n/a': '–',
  info: '',
};

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as sent (still compressed when Content-Encoding says so). */
  body: Buffer;
}

/** GET without any decoding, so sizes are the bytes on the wire. Loopback only. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1') throw new Error(`bench traffic stays on 127.0.0.1: ${url}`);
  return new Promise((resolve, reject) => {
    const req = http.get(target, { headers, agent: false, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid] ?? 0;
  return sorted.length % 2 ? hi : ((sorted[mid - 1] ?? 0) + hi) / 2;
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (value: number): string => `${(value / 1000).toFixed(2)} s`;
export const sleep = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Prints rows as an aligned plain-text table; `align` has one letter per column, l or r. */
export function printTable(title: string, header: string[], rows: string[][], align = ''): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        align[i] === 'r' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** The standard table of a section: item, figure, budget, ✓/✗. */
export function printChecks(title: string, checks: Check[]): void {
  printTable(
    title,
    ['', 'figure', 'budget', ''],
    checks.map((c) => [c.item, c.figure, c.budget, MARK[c.status] + (c.note ? `  ${c.note}` : '')]),
    'lrrl',
  );
}

/** Processes and files to clean up, newest first, also on Ctrl-C. */
const cleanups: (() => Promise<void> | void)[] = [];
export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.unshift(fn);
}
export async function cleanupAll(): Promise<void> {
  while (cleanups.length) {
    const fn = cleanups.shift();
    try {
      await fn?.();
    } catch (error) {
      console.error(`cleanup failed: ${errorMessage(error)}`);
    }
  }
}

/**
 * Writes a bench's figures to bench/results/, formatted as `npm run check` expects: the files are
 * committed, and a plain `JSON.stringify` left the tree failing the format check after a run.
 */
export async function writeResults(file: string, figures: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const options = (await prettier.resolveConfig(file)) ?? {};
  await fs.writeFile(
    file,
    await prettier.format(JSON.stringify(figures), { ...options, filepath: file }),
  );
}
