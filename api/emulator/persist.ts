// What the emulator keeps in its data directory (DATA_DIR/emulator, docs/decisions/023): its secret
// key, random per directory and readable by the owner only, and its state — sessions, coupons,
// payment intents, refunds and the webhook deliveries not yet acknowledged — rewritten atomically
// (temporary file, fsync, rename) before an answer that depends on it leaves, so a process killed
// right after the payment page answered loses nothing.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { StoreSnapshot } from './store.ts';
import type { StripeEvent } from './webhooks.ts';

const KEY_FILE = 'secret-key';
const STATE_FILE = 'state.json';
const KEY_PATTERN = /^sk_test_[A-Za-z0-9_-]{32,200}$/;

export interface EmulatorState {
  version: 1;
  store: StoreSnapshot;
  /** Events whose delivery is not over yet: sent again when the emulator starts. */
  pending: StripeEvent[];
}

/** A fresh emulator key: Stripe's test-key prefix, then 256 random bits. */
export function newSecretKey(): string {
  return `sk_test_emu_${randomBytes(32).toString('base64url')}`;
}

function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * The emulator's secret key for `dir`: read from `dir/secret-key`, or generated and written there
 * (mode 0600) the first time. Two processes starting at once agree: the file is linked into place,
 * which fails for the second, which then reads the first one's key.
 */
export function emulatorSecretKey(dir: string): string {
  ensureDir(dir);
  const file = path.join(dir, KEY_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const key = fs.readFileSync(file, 'utf8').trim();
      if (!KEY_PATTERN.test(key)) {
        throw new Error(
          `${file} does not hold a payment emulator key: delete it and a new one is made at start`,
        );
      }
      if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
      return key;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(tmp, `${newSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  throw new Error(`Cannot create the payment emulator key in ${file}`);
}

/** The state written by an earlier process, or null; an unreadable file is set aside, not lost. */
export function readState(dir: string, log: (line: string) => void): EmulatorState | null {
  const file = path.join(dir, STATE_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const state = JSON.parse(text) as EmulatorState;
    if (state.version !== 1 || !Array.isArray(state.store?.sessions)) throw new Error('bad shape');
    return state;
  } catch (error) {
    const aside = `${file}.unreadable-${Date.now()}`;
    fs.renameSync(file, aside);
    log(`state file unreadable (${(error as Error).message}): moved to ${aside}, starting empty`);
    return null;
  }
}

/** Replaces the state file atomically and durably (the rename is fsynced with its directory). */
export function writeState(dir: string, state: EmulatorState): void {
  ensureDir(dir);
  const file = path.join(dir, STATE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(state));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  try {
    const dirFd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  }
}
