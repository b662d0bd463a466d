// Reads the process environment once, with defaults that make `npm start` work on a fresh clone.
// Every variable is listed in README.md; astro.config.mjs declares the same set for astro:env.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  parseTrustProxy,
  TRUST_NOTHING,
  TRUST_PROXY_HELP,
  type TrustProxy,
} from './http/client.ts';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const envSchema = z.object({
  DATABASE_URL: optionalText.refine(
    (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
    'DATABASE_URL must start with postgres:// or postgresql://',
  ),
  DATA_DIR: optionalText,
  HOST: optionalText,
  PORT: optionalText.refine(
    (value) => value === undefined || (/^\d+$/.test(value) && Number(value) < 65536),
    'PORT must be a number between 0 and 65535',
  ),
  PUBLIC_SITE_URL: optionalText.refine(
    (value) => value === undefined || URL.canParse(value),
    'PUBLIC_SITE_URL must be an absolute URL such as https://galerie.example',
  ),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  SMTP_URL: optionalText,
  // Issue 14 (helper G): the payment emulator on an https:// site only when asked (a demo).
  PAYMENT_EMULATOR: optionalText.refine(
    (value) => value === undefined || /^(on|off)$/i.test(value),
    'PAYMENT_EMULATOR must be on or off',
  ),
  TRUST_PROXY: optionalText.refine((value) => {
    try {
      parseTrustProxy(value);
      return true;
    } catch {
      return false;
    }
  }, TRUST_PROXY_HELP),
  VISIT_COUNTING: optionalText.refine(
    (value) => value === undefined || /^(on|off)$/i.test(value),
    'VISIT_COUNTING must be on or off',
  ),
  // A build started ahead of the next publish (api/build/standby.ts, docs/decisions/056).
  PUBLISH_AHEAD: optionalText.refine(
    (value) => value === undefined || /^(on|off)$/i.test(value),
    'PUBLISH_AHEAD must be on or off',
  ),
  // Issue 14 §3: the server's daily backup (api/backup/schedule.ts, docs/decisions/027).
  BACKUPS: optionalText.refine(
    (value) => value === undefined || /^(on|off)$/i.test(value),
    'BACKUPS must be on or off',
  ),
  BACKUP_DIR: optionalText,
  BACKUP_KEEP: optionalText.refine(
    (value) =>
      value === undefined || (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 1000),
    'BACKUP_KEEP must be a number of backups from 1 to 1000',
  ),
});

export interface AppConfig {
  /** postgres:// URL, or undefined for the embedded PGlite database. */
  databaseUrl: string | undefined;
  /** Absolute directory holding the embedded database, media and mail files. */
  dataDir: string;
  host: string;
  port: number;
  siteUrl: string;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripePublishableKey: string | undefined;
  smtpUrl: string | undefined;
  /** PAYMENT_EMULATOR=on: the emulator even on an https:// site without Stripe keys (a demo). */
  paymentEmulator: boolean;
  /** Private visit counts (api/visits): on unless VISIT_COUNTING=off (benchmarks). */
  visitCounting: boolean;
  /** Which reverse proxies' X-Forwarded-For / -Proto are believed (api/http/client.ts). */
  trustProxy: TrustProxy;
  /** The next publish's build started ahead (~300 MB held while it waits): on unless off. */
  publishAhead: boolean;
  /** The server's daily backup: on unless BACKUPS=off. */
  backups: boolean;
  /** Where backups go (BACKUP_DIR, default DATA_DIR/backups), absolute. */
  backupDir: string;
  /** Automatic backups kept (BACKUP_KEEP, default 7). */
  backupKeep: number;
}

/** A configuration mistake the person running the site must fix; printed as one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    const message = issue?.message ?? 'invalid value';
    throw new ConfigError(message.startsWith(name) ? message : `${name}: ${message}`);
  }
  const e = parsed.data;
  const host = e.HOST ?? 'localhost';
  const port = e.PORT === undefined ? 4321 : Number(e.PORT);
  return {
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR ?? '.data'),
    host,
    port,
    siteUrl: (e.PUBLIC_SITE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripePublishableKey: e.STRIPE_PUBLISHABLE_KEY,
    smtpUrl: e.SMTP_URL,
    paymentEmulator: e.PAYMENT_EMULATOR?.toLowerCase() === 'on',
    visitCounting: e.VISIT_COUNTING?.toLowerCase() !== 'off',
    trustProxy: e.TRUST_PROXY === undefined ? TRUST_NOTHING : parseTrustProxy(e.TRUST_PROXY),
    publishAhead: e.PUBLISH_AHEAD?.toLowerCase() !== 'off',
    backups: e.BACKUPS?.toLowerCase() !== 'off',
    backupDir: path.resolve(e.BACKUP_DIR ?? path.join(e.DATA_DIR ?? '.data', 'backups')),
    backupKeep: e.BACKUP_KEEP === undefined ? 7 : Number(e.BACKUP_KEEP),
  };
}

/** The database URL with its password masked, safe to print. */
export function describeDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): string {
  if (config.databaseUrl === undefined)
    return `embedded PGlite in ${path.join(config.dataDir, 'pgdata')}`;
  try {
    const url = new URL(config.databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'DATABASE_URL (unparseable)';
  }
}

/** What a running server records in DATA_DIR, so command-line tools can find the shop. */
export interface RunningServer {
  pid: number;
  /** The address visitors use (PUBLIC_SITE_URL, else where it listens). */
  siteUrl: string;
}

const serverFile = (dataDir: string) => path.join(dataDir, 'server.json');

export function recordRunningServer(dataDir: string, siteUrl: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(serverFile(dataDir), JSON.stringify({ pid: process.pid, siteUrl }));
}

export function forgetRunningServer(dataDir: string): void {
  const current = readRunningServer(dataDir);
  if (current?.pid === process.pid) fs.rmSync(serverFile(dataDir), { force: true });
}

/** The server running on this data directory, if one is alive. */
export function readRunningServer(dataDir: string): RunningServer | null {
  try {
    const value = JSON.parse(fs.readFileSync(serverFile(dataDir), 'utf8')) as RunningServer;
    if (!Number.isInteger(value.pid) || typeof value.siteUrl !== 'string') return null;
    process.kill(value.pid, 0);
    return value;
  } catch {
    return null;
  }
}
