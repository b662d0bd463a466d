// The server's own daily backup (docs/decisions/027): every hour it looks at BACKUP_DIR and, when
// its newest automatic backup is a day old (or there is none), writes a new one and keeps the
// newest BACKUP_KEEP. The first look comes a few minutes after start, so a start-up is never
// slowed and a restart does not take a second backup the same day. On PostgreSQL an advisory lock
// lets one node of several do it at a time.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { systemClock, type Clock } from '../clock.ts';
import { tryClusterLock } from '../cluster/lock.ts';
import { log } from '../log.ts';
import { createBackup, type BackupResult } from './index.ts';

export const CHECK_INTERVAL_MS = 60 * 60_000;
/** After start, before the first look. */
export const FIRST_CHECK_DELAY_MS = 5 * 60_000;
/** A backup this old is due: a day less one check interval, so the hour stays put day after day. */
export const BACKUP_AGE_MS = 24 * 60 * 60_000 - CHECK_INTERVAL_MS;
/** pg_try_advisory_lock's key for this job ("G027" in ASCII), the same on every node. */
export const BACKUP_LOCK_KEY = '1194340919';

const AUTO = /^galerie-auto-(\d{8})T(\d{6})Z\.tar\.gz$/;

const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

/** `galerie-auto-20261124T031500Z.tar.gz`: the server's own backups (the only ones it prunes). */
export function autoBackupName(date: Date): string {
  return `galerie-auto-${stamp(date)}.tar.gz`;
}

/** `galerie-backup-20261124T031500Z.tar.gz`: a backup asked for with `npm run backup`. */
export function manualBackupName(date: Date): string {
  return `galerie-backup-${stamp(date)}.tar.gz`;
}

/** The time an automatic backup's name records; null for any other file. */
export function autoBackupTime(name: string): Date | null {
  const match = AUTO.exec(name);
  if (!match) return null;
  const [, d = '', t = ''] = match;
  const date = new Date(
    `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}Z`,
  );
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The automatic backups among these file names, newest first. */
export function autoBackups(names: readonly string[]): { name: string; at: Date }[] {
  return names
    .map((name) => ({ name, at: autoBackupTime(name) }))
    .filter((b): b is { name: string; at: Date } => b.at !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.name < b.name ? 1 : -1));
}

/** Due when there is none, when the newest is a day old, or when it is in the future (clock set back). */
export function isBackupDue(newest: Date | null, now: Date): boolean {
  if (!newest) return true;
  const age = now.getTime() - newest.getTime();
  return age >= BACKUP_AGE_MS || age < -CHECK_INTERVAL_MS;
}

/** The automatic backups beyond the newest `keep`, to delete. */
export function backupsToPrune(names: readonly string[], keep: number): string[] {
  return autoBackups(names)
    .slice(Math.max(1, keep))
    .map((b) => b.name);
}

export interface ScheduleOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- backs up any schema
  db: Kysely<any>;
  kind: 'pglite' | 'postgres';
  dataDir: string;
  backupDir: string;
  keep: number;
  now?: Clock;
  intervalMs?: number;
  firstDelayMs?: number;
}

export interface ScheduledRun {
  /** false: another node held the lock, or none was due. */
  ran: boolean;
  backup?: BackupResult;
  pruned: string[];
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** One look: a backup when due, then pruning to the newest `keep`. */
export async function runScheduledBackup(options: ScheduleOptions): Promise<ScheduledRun> {
  const pass = async (): Promise<ScheduledRun> => {
    const now = (options.now ?? systemClock)();
    const newest = autoBackups(await listDir(options.backupDir))[0]?.at ?? null;
    if (!isBackupDue(newest, now)) return { ran: false, pruned: [] };
    const backup = await createBackup({
      db: options.db,
      kind: options.kind,
      dataDir: options.dataDir,
      out: path.join(options.backupDir, autoBackupName(now)),
      now,
    });
    const pruned = backupsToPrune(await listDir(options.backupDir), options.keep);
    for (const name of pruned) await fs.rm(path.join(options.backupDir, name), { force: true });
    return { ran: true, backup, pruned };
  };
  if (options.kind !== 'postgres') return pass();
  // Not on PGlite: one process owns it, and its single connection is needed by the backup itself.
  const result = await tryClusterLock(options.db, BACKUP_LOCK_KEY, pass);
  return result ?? { ran: false, pruned: [] };
}

export interface BackupSchedule {
  /** A look now (or the one in progress). */
  run(): Promise<ScheduledRun>;
  /** Stops the timers and waits for a backup in progress. */
  stop(): Promise<void>;
}

export function startBackupSchedule(options: ScheduleOptions): BackupSchedule {
  let running: Promise<ScheduledRun> | null = null;
  let stopped = false;
  const run = () =>
    (running ??= runScheduledBackup(options)
      .then((result) => {
        if (result.backup)
          log.info(
            `Galerie: backup written to ${result.backup.file} (${(result.backup.bytes / 1e6).toFixed(1)} MB in ${(result.backup.ms / 1000).toFixed(1)} s)${result.pruned.length ? `; removed ${result.pruned.length} older` : ''}`,
          );
        return result;
      })
      .catch((error: unknown): ScheduledRun => {
        log.error({ err: error }, 'Galerie: the daily backup failed');
        return { ran: false, pruned: [] };
      })
      .finally(() => {
        running = null;
      }));
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    if (stopped) return;
    void run();
    interval = setInterval(() => void run(), options.intervalMs ?? CHECK_INTERVAL_MS);
    interval.unref();
  }, options.firstDelayMs ?? FIRST_CHECK_DELAY_MS);
  first.unref();
  return {
    run,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(interval);
      await running;
    },
  };
}
