// The processes the bench starts and always stops: the real Galerie server (as tests/e2e/serve.ts
// starts it, on a fresh embedded database) and an nginx-light reference serving the same files.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { errorMessage, freePort, onCleanup, rawGet, sleep } from './util.ts';

export const run = promisify(execFile);

/** The full path of a program on PATH (or in the sbin folders, where nginx lives), or null. */
export async function findExecutable(name: string): Promise<string | null> {
  const dirs = [...(process.env['PATH'] ?? '').split(':'), '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const full = path.join(dir, name);
    try {
      await fs.access(full, constants.X_OK);
      return full;
    } catch {
      // not in this folder
    }
  }
  return null;
}

export interface Running {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
function stopper(child: ChildProcess, graceMs: number): () => Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
}

function collectLines(child: ChildProcess, onLine: (line: string) => void): string[] {
  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      onLine(line);
    });
  }
  return tail;
}

async function waitUntilReady(
  child: ChildProcess,
  url: string,
  timeoutMs: number,
  tail: string[],
  progress: (seconds: number) => void,
): Promise<void> {
  const started = Date.now();
  let reported = started;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `exited (${child.exitCode ?? child.signalCode}) before answering:\n${tail.join('\n')}`,
      );
    }
    try {
      if ((await rawGet(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(`not ready after ${timeoutMs / 1000} s:\n${tail.join('\n')}`);
    }
    if (Date.now() - reported >= 30_000) {
      reported = Date.now();
      progress(Math.round((reported - started) / 1000));
    }
    await sleep(250);
  }
}

export interface GalerieServer extends Running {
  /** What the server printed about building ("built the site (…) in 40.1 s"), if it built. */
  buildLine: string | null;
  startupMs: number;
}

/**
 * `node api/server.ts` with a fresh temporary DATA_DIR on a free loopback port, as the end-to-end
 * tests start it. It builds dist/ first when the sources or the catalogue changed.
 */
export async function startGalerie(
  root: string,
  log: (line: string) => void,
  options: {
    dataDir?: string;
    env?: NodeJS.ProcessEnv;
    /** Node options put before api/server.ts (e.g. `--import` a probe). */
    nodeArgs?: string[];
    /** Every line the server prints, stdout and stderr (log records are JSON lines). */
    onLine?: (line: string) => void;
  } = {},
): Promise<GalerieServer> {
  const started = performance.now();
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-bench-')));
  if (!options.dataDir) onCleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: url,
    SMTP_URL: '',
  };
  // The embedded database unless the bench gives a database of its own: never seed or change a
  // configured PostgreSQL.
  delete env['DATABASE_URL'];
  Object.assign(env, options.env);
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), path.join(root, 'api', 'server.ts')],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = stopper(child, 15_000);
  onCleanup(stop);
  let buildLine: string | null = null;
  const tail = collectLines(child, (line) => {
    options.onLine?.(line);
    if (!line.startsWith('Galerie')) return;
    if (line.includes('built the site')) buildLine = line;
    log(line);
  });
  await waitUntilReady(child, `${url}/api/health`, 300_000, tail, (s) =>
    log(`… still starting after ${s} s (building the site takes a while)`),
  ).catch((error: unknown) => {
    throw new Error(`the Galerie server ${errorMessage(error)}`);
  });
  return {
    url,
    pid: child.pid ?? 0,
    stop,
    buildLine,
    startupMs: Math.round(performance.now() - started),
  };
}

/**
 * nginx-light serving `clientDir` with gzip_static, one worker pinned to `core`, from a config
 * written to a temporary directory that also holds its pid file, logs and temp paths.
 */
export async function startNginx(
  nginx: string,
  taskset: string,
  clientDir: string,
  core: number,
): Promise<Running> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-bench-nginx-'));
  onCleanup(() => fs.rm(dir, { recursive: true, force: true }));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  await fs.writeFile(
    conf,
    `# Written by bench/storefront.ts: a reference static server for the throughput comparison.
${
  // Started by root, nginx's worker would drop to "nobody", who cannot read the build (its files
  // are the owner's only): it keeps the bench's own user instead.
  process.getuid?.() === 0 ? 'user root root;\n' : ''
}worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  # Connections are reused as long as wrk wants, as our Node server does (nginx closes them
  # after 1000 requests by default).
  keepalive_requests 1000000;
  default_type application/octet-stream;
  types {
    text/html html;
    text/css css;
    text/javascript js mjs;
    application/json json;
    image/svg+xml svg;
    text/plain txt;
    application/xml xml;
    image/avif avif;
    image/webp webp;
    font/woff2 woff2;
  }
  gzip off;
  gzip_static on;
  gzip_vary on;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  server {
    listen 127.0.0.1:${port};
    root ${clientDir};
    index index.html;
    location /_astro/ {
      add_header Cache-Control "public, max-age=31536000, immutable";
    }
  }
}
`,
  );
  const child = spawn(
    taskset,
    [
      '-c',
      String(core),
      nginx,
      '-p',
      dir,
      '-e',
      path.join(dir, 'error.log'),
      '-c',
      conf,
      '-g',
      'daemon off;',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = stopper(child, 5_000);
  onCleanup(stop);
  const tail = collectLines(child, () => {});
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, `${url}/`, 10_000, tail, () => {}).catch(async (error: unknown) => {
    const log = await fs.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
    throw new Error(`nginx ${errorMessage(error)}\n${log}`);
  });
  return { url, pid: child.pid ?? 0, stop };
}

/** Pins every thread of a running process to the given CPU list ("1", "0-1"). */
export async function pin(taskset: string, pid: number, cpus: string): Promise<void> {
  await run(taskset, ['-a', '-p', '-c', cpus, String(pid)]);
}

/**
 * Pins every running process whose command name is `name` (e.g. PostgreSQL's postmaster and its
 * backends, `postgres`) to the given CPU list; backends forked later inherit the postmaster's
 * affinity. Returns how many were pinned and a function that puts each one's previous affinity
 * back. Processes we may not touch (another user, not root) are skipped and counted as such.
 */
export async function pinNamed(
  taskset: string,
  name: string,
  cpus: string,
): Promise<{ pinned: number; refused: number; restore: () => Promise<void> }> {
  const previous: Array<{ pid: number; mask: string }> = [];
  let refused = 0;
  for (const entry of await fs.readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const comm = await fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    if (comm.trim() !== name) continue;
    try {
      const { stdout } = await run(taskset, ['-p', String(pid)]);
      const mask = /:\s*([0-9a-f,]+)\s*$/i.exec(stdout)?.[1];
      await run(taskset, ['-a', '-p', '-c', cpus, String(pid)]);
      if (mask) previous.push({ pid, mask });
    } catch {
      refused += 1;
    }
  }
  const restore = async () => {
    for (const { pid, mask } of previous) {
      await run(taskset, ['-a', '-p', mask, String(pid)]).catch(() => {});
    }
  };
  onCleanup(restore);
  return { pinned: previous.length, refused, restore };
}

/** CPU seconds (user + system) a process has used so far, from /proc; null where it is gone. */
export async function cpuSeconds(pid: number, tick: number): Promise<number | null> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / tick;
  } catch {
    return null;
  }
}

/**
 * Waits until a process has used under 50 ms of CPU in each of two consecutive seconds (at most
 * 3 minutes) and returns how many seconds that took. A server that just started encodes the
 * catalogue's image variants in the background (sharp, in its own threads): measuring before that
 * ends would bill it to the requests, and to Lighthouse's simulated CPU.
 */
export async function waitIdle(pid: number, tick: number): Promise<number> {
  const started = Date.now();
  let quiet = 0;
  let last = await cpuSeconds(pid, tick);
  if (last === null) return 0;
  while (quiet < 2 && Date.now() - started < 180_000) {
    await sleep(1000);
    const now = await cpuSeconds(pid, tick);
    if (now === null) break;
    quiet = now - last < 0.05 ? quiet + 1 : 0;
    last = now;
  }
  return Math.round((Date.now() - started) / 1000);
}

/** The kernel's clock ticks per second (for /proc CPU times). */
export async function clockTicks(): Promise<number> {
  return Number((await run('getconf', ['CLK_TCK']).catch(() => ({ stdout: '100' }))).stdout);
}
