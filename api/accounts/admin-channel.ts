// `npm run admin:invite` beside a running server on the embedded database (issue 27 item 0,
// docs/decisions/048): PGlite belongs to the server's process, so the command asks the server to
// make the invitation. The channel is local and authenticated twice over:
// - the server writes a random token into DATA_DIR/admin-channel.json (mode 0600: readable by
//   the account that runs the shop, which can open the database itself anyway), with its port;
// - POST /api/local/admin-invitations answers only a request straight from this machine
//   (loopback socket, no proxy header: api/http/client.ts) carrying that token.
// With PostgreSQL the command writes to the database directly; no channel is opened.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { AppError, ERRORS, isAppError } from '../http/errors.ts';
import { straightFromThisMachine } from '../http/client.ts';
import type { Invitation } from './invitations.ts';

export const CHANNEL_PATH = '/api/local/admin-invitations';
export const CHANNEL_HEADER = 'x-galerie-channel-token';
const MAX_BODY_BYTES = 4096;
const ASK_DEADLINE_MS = 30_000;

interface ChannelFile {
  pid: number;
  host: string;
  port: number;
  token: string;
}

const fileOf = (dataDir: string) => path.join(dataDir, 'admin-channel.json');
const digest = (text: string) => createHash('sha256').update(text).digest();

export interface AdminChannel {
  /** Answers the channel's path (true), or leaves the request to others (false). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Removes the token file (it is this process's). */
  close(): void;
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, error: AppError): void {
  answer(res, error.status, { error: { code: error.code, message: error.message } });
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

/** Opens the channel: writes the token file and returns the request handler. */
export function openAdminChannel(options: {
  dataDir: string;
  host: string;
  port: number;
  invite: (email: string) => Promise<Invitation>;
  /** Told of every refused or failed call (never of the token). */
  log?: (line: string) => void;
}): AdminChannel {
  const token = randomBytes(32).toString('base64url');
  const expected = digest(token);
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = fileOf(options.dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.rmSync(temporary, { force: true });
  const content: ChannelFile = {
    pid: process.pid,
    host: options.host,
    port: options.port,
    token,
  };
  fs.writeFileSync(temporary, JSON.stringify(content), { mode: 0o600, flag: 'wx' });
  fs.renameSync(temporary, file);

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    if (!straightFromThisMachine(req)) {
      options.log?.(`admin channel: refused a call from ${req.socket.remoteAddress ?? '?'}`);
      refuse(
        res,
        new AppError('forbidden', { message: 'Only a program on this machine may call this.' }),
      );
      return;
    }
    const sent = req.headers[CHANNEL_HEADER];
    if (typeof sent !== 'string' || !timingSafeEqual(digest(sent), expected)) {
      options.log?.('admin channel: refused a call without the right token');
      refuse(res, new AppError('unauthorized'));
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      answer(res, 405, { error: { code: 'method_not_allowed', message: 'Method not allowed.' } });
      return;
    }
    const text = await readBody(req);
    let email: unknown;
    try {
      email = (JSON.parse(text ?? '') as { email?: unknown }).email;
    } catch {
      email = undefined;
    }
    if (typeof email !== 'string') {
      refuse(res, new AppError('invalid_input', { message: 'Send { "email": "…" }.' }));
      return;
    }
    try {
      const invitation = await options.invite(email);
      answer(res, 201, {
        email: invitation.email,
        url: invitation.url,
        expiresAt: invitation.expiresAt.toISOString(),
      });
    } catch (error) {
      if (isAppError(error)) refuse(res, error);
      else {
        options.log?.(`admin channel: the invitation failed (${(error as Error).message})`);
        answer(res, 500, { error: { code: 'internal', message: ERRORS.internal.message } });
      }
    }
  };

  return {
    handle(req, res) {
      if ((req.url ?? '/').split('?')[0] !== CHANNEL_PATH) return false;
      void serve(req, res).catch(() => {
        if (!res.headersSent) answer(res, 500, { error: { code: 'internal' } });
      });
      return true;
    },
    close() {
      try {
        const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ChannelFile>;
        if (kept.pid === process.pid) fs.rmSync(file, { force: true });
      } catch {
        // Already gone.
      }
    },
  };
}

function readChannel(dataDir: string): ChannelFile | null {
  try {
    const kept = JSON.parse(fs.readFileSync(fileOf(dataDir), 'utf8')) as Partial<ChannelFile>;
    if (
      !Number.isInteger(kept.pid) ||
      !Number.isInteger(kept.port) ||
      typeof kept.host !== 'string' ||
      typeof kept.token !== 'string'
    )
      return null;
    return kept as ChannelFile;
  } catch {
    return null;
  }
}

/** Where a client on this machine reaches a server listening on `host`, or null if it cannot. */
function loopbackFor(host: string): string | null {
  if (host === '::1' || host === '[::1]') return '::1';
  if (host === '' || host === '0.0.0.0' || host === '::' || host === 'localhost')
    return '127.0.0.1';
  return host.startsWith('127.') ? host : null;
}

export type AskResult =
  | { ok: true; invitation: Invitation }
  | { ok: false; reason: 'no-channel' | 'unreachable'; message: string }
  | { ok: false; reason: 'refused'; code: string; message: string };

/**
 * Asks the server holding the embedded database (process `holderPid`) for an invitation.
 * `no-channel`: that server opened none (an older version, or another data folder's file).
 */
export async function askServerForInvitation(
  dataDir: string,
  email: string,
  holderPid: number,
): Promise<AskResult> {
  const channel = readChannel(dataDir);
  if (!channel || channel.pid !== holderPid)
    return { ok: false, reason: 'no-channel', message: 'the server opened no local channel' };
  const address = loopbackFor(channel.host);
  if (!address)
    return {
      ok: false,
      reason: 'unreachable',
      message: `the server listens on ${channel.host} only (HOST), not on this machine's loopback`,
    };
  const body = JSON.stringify({ email });
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: address,
        port: channel.port,
        path: CHANNEL_PATH,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          [CHANNEL_HEADER]: channel.token,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let parsed: {
            email?: string;
            url?: string;
            expiresAt?: string;
            error?: { code?: string; message?: string };
          } = {};
          try {
            parsed = JSON.parse(text) as typeof parsed;
          } catch {
            // Not the channel's answer: reported below.
          }
          if (res.statusCode === 201 && parsed.email && parsed.url && parsed.expiresAt)
            resolve({
              ok: true,
              invitation: {
                email: parsed.email,
                url: parsed.url,
                expiresAt: new Date(parsed.expiresAt),
              },
            });
          else
            resolve({
              ok: false,
              reason: 'refused',
              code: parsed.error?.code ?? String(res.statusCode),
              message: parsed.error?.message ?? `HTTP ${res.statusCode}`,
            });
        });
      },
    );
    req.setTimeout(ASK_DEADLINE_MS, () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', (error) =>
      resolve({
        ok: false,
        reason: 'unreachable',
        message: `cannot reach it at ${address}:${channel.port} (${error.message})`,
      }),
    );
    req.end(body);
  });
}
