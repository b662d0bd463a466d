// Reads a raw mail as written to DATA_DIR/mail/*.eml: headers unfolded, and the plain-text and
// HTML bodies decoded (quoted-printable or base64), from a single part or multipart/alternative
// (nested in multipart/mixed when the mail has attachments).
// Also finds a signup's verification link among them, as a person would read it.
import fs from 'node:fs';
import path from 'node:path';
import { until } from './wait.ts';

export interface ParsedMail {
  headers: string;
  text: string;
  html: string | null;
}

function decode(body: string, encoding: string | undefined): string {
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  // Soft line breaks (`=` at the end of a line) join the wrapped lines; `=XX` are bytes.
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function split(raw: string): { headers: string; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { headers: raw, body: '' };
  return {
    headers: raw.slice(0, at).replace(/\r?\n[ \t]+/g, ' '),
    body: raw.slice(at).replace(/^\r?\n\r?\n/, ''),
  };
}

const header = (headers: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim();

export function parseMail(raw: string): ParsedMail {
  const { headers, body } = split(raw);
  const type = header(headers, 'content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) {
    const content = decode(body, header(headers, 'content-transfer-encoding')?.toLowerCase());
    return type.startsWith('text/html')
      ? { headers, text: '', html: content }
      : { headers, text: content, html: null };
  }
  let text = '';
  let html: string | null = null;
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const part = split(chunk.replace(/^\r?\n/, ''));
    const partType = header(part.headers, 'content-type') ?? 'text/plain';
    // A mail with attachments (multipart/mixed) holds its bodies in a nested alternative.
    if (partType.startsWith('multipart/')) {
      const inner = parseMail(chunk.replace(/^\r?\n/, ''));
      text ||= inner.text;
      html ??= inner.html;
      continue;
    }
    const content = decode(
      part.body.replace(/\r?\n$/, ''),
      header(part.headers, 'content-transfer-encoding')?.toLowerCase(),
    );
    if (partType.startsWith('text/plain')) text = content;
    else if (partType.startsWith('text/html')) html = content;
  }
  return { headers, text, html };
}

/** The mails written to `dir` (DATA_DIR/mail) for `address`, oldest first. */
export function mailsTo(dir: string, address: string): ParsedMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.eml'))
    .sort()
    .map((file) => parseMail(fs.readFileSync(path.join(dir, file), 'utf8')))
    .filter((mail) => /^To:(.*)$/im.exec(mail.headers)?.[1]?.includes(address));
}

/**
 * The verification link mailed to `address` after a signup (waited for: it leaves after the
 * answer), as its owner would click it: the site's path and query, for the same browser.
 */
export async function verificationLink(dir: string, address: string): Promise<string> {
  return until(`the verification mail to ${address}`, () => {
    for (const mail of mailsTo(dir, address)) {
      const link = /https?:\/\/[^\s/]+(\/api\/auth\/verify-email\?token=[a-z2-7]{32}[^\s]*)/.exec(
        mail.text,
      )?.[1];
      if (link) return link;
    }
    return null;
  });
}
