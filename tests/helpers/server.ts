// The real server (`node api/server.ts`) for the suites that test processes: a fresh shop copied
// from the golden one (tests/setup/golden.ts), started, and known ready from its own "ready" line —
// an event, not a poll on the clock. Deadlines here only bound a failure.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { copyGoldenShop, ensureGoldenShop, GOLDEN_SITE_URL } from '../setup/golden.ts';

export const root = path.resolve(import.meta.dirname, '..', '..');

/** How long a server may take to start on a loaded machine before the test fails. */
const START_DEADLINE_MS = 5 * 60_000;

export interface FreshShop {
  /** The suite's own folder under .cache (removed by `remove`). */
  work: string;
  dataDir: string;
  dist: string;
  /** The public site URL its version was built for: the one Origin posts must carry. */
  siteUrl: string;
  remove(): void;
}

/**
 * A fresh shop of the suite's own: the golden one's database, media and built site, copied into
 * `.cache/<name>-…` (inside the checkout: the built server bundle resolves packages upwards).
 */
export async function freshShop(name: string, siteUrl = GOLDEN_SITE_URL): Promise<FreshShop> {
  const golden = await ensureGoldenShop(siteUrl);
  fs.mkdirSync(path.join(root, '.cache'), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, '.cache', `${name}-`));
  const { dataDir, dist } = await copyGoldenShop(golden, work);
  return {
    work,
    dataDir,
    dist,
    siteUrl,
    remove: () => fs.rmSync(work, { recursive: true, force: true }),
  };
}

export interface RunningServer {
  child: ChildProcess;
  port: number;
  /** Where to connect: http://127.0.0.1:<port>. */
  base: string;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the output once `text` (a regular expression's source) was printed. */
  printed(pattern: RegExp, ms?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL, and waits for the exit. */
  kill9(): Promise<void>;
}

export interface StartOptions {
  dataDir: string;
  dist: string;
  siteUrl: string;
  /** 0 (the default): any free port, read back from the server's "ready" line. */
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** Resolve as soon as the process is spawned, without waiting for "ready". */
  noWait?: boolean;
  /** The umask the server starts with (through /bin/sh); the caller's when absent. */
  umask?: number;
}

/** Starts `node api/server.ts` on a shop; resolves once it printed that it is ready. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const [command, args] =
    options.umask === undefined
      ? [process.execPath, ['api/server.ts']]
      : [
          '/bin/sh',
          [
            '-c',
            `umask ${options.umask.toString(8).padStart(3, '0')} && exec "$0" api/server.ts`,
            process.execPath,
          ],
        ];
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      STRIPE_SECRET_KEY: '',
      SMTP_URL: '',
      // The golden site is https://: the payment emulator runs there only when asked.
      PAYMENT_EMULATOR: 'on',
      BACKUPS: 'off',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      ...options.env,
      DATA_DIR: options.dataDir,
      GALERIE_DIST_DIR: options.dist,
      HOST: '127.0.0.1',
      PORT: String(options.port ?? 0),
      PUBLIC_SITE_URL: options.siteUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wake of waiters) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
      for (const wake of waiters) wake();
    }),
  );

  const printed = (pattern: RegExp, ms = START_DEADLINE_MS): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (pattern.test(output)) {
          finish();
          resolve(output);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          finish();
          reject(new Error(`the server stopped before printing ${pattern}:\n${output}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`the server did not print ${pattern} in ${ms} ms:\n${output}`));
      }, ms);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const server: RunningServer = {
    child,
    port: options.port ?? 0,
    base: '',
    output: () => output,
    printed,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  if (options.noWait) return server;
  const ready = await printed(/Galerie: ready at http:\/\/[^:]+:(\d+)\//);
  server.port = Number(/Galerie: ready at http:\/\/[^:]+:(\d+)\//.exec(ready)![1]);
  server.base = `http://127.0.0.1:${server.port}`;
  return server;
}
