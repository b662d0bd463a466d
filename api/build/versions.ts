// The built site as versioned folders (docs/decisions/012): every build writes
// dist/versions/<id>/ beside the ones being served, under a `.partial-` name until it is complete;
// dist/current names the newest complete version. A server marks the version it serves with
// `.in-use-<pid>@<host>`, so no other process (`npm run build`, a second `npm start`, another node
// sharing the folder: docs/decisions/028) removes it. A process of this host is alive when its pid
// is; one of another host while it keeps its marker fresh (`touchInUse`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../clock.ts';

const PARTIAL = '.partial-';
const IN_USE = '.in-use-';
/** This machine, as markers and partial builds name it. */
export const HOST = os.hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'localhost';
/** A marker of another host older than this is a dead node's (live nodes touch theirs each minute). */
export const FOREIGN_MARKER_TTL_MS = 5 * 60_000;
/** A partial build of another host older than this is a dead node's (a build takes minutes). */
export const FOREIGN_PARTIAL_TTL_MS = 60 * 60_000;

/** Where builds go: GALERIE_DIST_DIR (inside the checkout: the server bundle resolves packages
 * from node_modules upwards), else <root>/dist. */
export function distDirOf(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const custom = env['GALERIE_DIST_DIR']?.trim();
  return custom ? path.resolve(root, custom) : path.join(root, 'dist');
}

export const versionsDir = (dist: string) => path.join(dist, 'versions');
export const versionDir = (dist: string, id: string) => path.join(versionsDir(dist), id);
export const partialDir = (dist: string, id: string) =>
  path.join(versionsDir(dist), `${PARTIAL}${id}@${HOST}`);
export const logsDir = (dist: string) => path.join(dist, 'logs');

/** Sortable by time, unique per process: 20261123T142233123Z-4711. */
export function newVersionId(now: Date = systemClock(), pid: number = process.pid): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${pid}`;
}

const pidOf = (id: string): number => Number(id.split('-').at(-1));

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readCurrent(dist: string): string | null {
  try {
    const id = fs.readFileSync(path.join(dist, 'current'), 'utf8').trim();
    return id && fs.existsSync(path.join(versionDir(dist, id), 'server', 'entry.mjs')) ? id : null;
  } catch {
    return null;
  }
}

/** Points dist/current at a complete version (write then rename: never half written). */
export function writeCurrent(dist: string, id: string): void {
  const tmp = path.join(dist, `.current-${process.pid}`);
  fs.writeFileSync(tmp, `${id}\n`);
  fs.renameSync(tmp, path.join(dist, 'current'));
}

/**
 * Moves a finished build to its final name: from then on it is a complete version. `as`: the
 * version's id when it is not the build's own (a build started ahead of its publish, whose
 * version is named when it is finished: ./standby.ts).
 */
export function completeVersion(dist: string, id: string, as: string = id): string {
  const target = versionDir(dist, as);
  fs.renameSync(partialDir(dist, id), target);
  return target;
}

const marker = (dist: string, id: string) =>
  path.join(versionDir(dist, id), `${IN_USE}${process.pid}@${HOST}`);

export function markInUse(dist: string, id: string): void {
  fs.writeFileSync(marker(dist, id), '');
}

export function unmarkInUse(dist: string, id: string): void {
  fs.rmSync(marker(dist, id), { force: true });
  // The marker of earlier releases, without the host.
  fs.rmSync(path.join(versionDir(dist, id), `${IN_USE}${process.pid}`), { force: true });
}

/** Keeps this process's marker fresh, for the nodes of other hosts sharing the folder. */
export function touchInUse(dist: string, id: string, now: Date = new Date()): void {
  try {
    fs.utimesSync(marker(dist, id), now, now);
  } catch {
    if (fs.existsSync(versionDir(dist, id))) markInUse(dist, id);
  }
}

/** `<pid>` (earlier releases: this host) or `<pid>@<host>`, as markers and partial builds end. */
function owner(text: string): { pid: number; host: string } {
  const at = text.lastIndexOf('@');
  return at < 0
    ? { pid: pidOf(text), host: HOST }
    : { pid: pidOf(text.slice(0, at)), host: text.slice(at + 1) };
}

/** Whether the owner of `file` lives: its pid on this host, a fresh file on another. */
function ownerAlive(file: string, ownerText: string, ttlMs: number): boolean {
  const { pid, host } = owner(ownerText);
  if (host === HOST) return alive(pid);
  try {
    return Date.now() - fs.statSync(file).mtimeMs < ttlMs;
  } catch {
    return false;
  }
}

function inUseByLiveProcess(dir: string): boolean {
  try {
    return fs
      .readdirSync(dir)
      .some(
        (name) =>
          name.startsWith(IN_USE) &&
          ownerAlive(path.join(dir, name), name.slice(IN_USE.length), FOREIGN_MARKER_TTL_MS),
      );
  } catch {
    return false;
  }
}

export function listVersions(dist: string): string[] {
  try {
    return fs
      .readdirSync(versionsDir(dist), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Removes what nobody needs: versions beyond the newest `keep`, unless current, held by this
 * process (`busy`: requests in flight) or marked in use by a live server (of any node); partial
 * builds of dead processes; the single-folder layout of earlier releases. Returns the ids removed.
 */
export function pruneVersions(dist: string, busy: Iterable<string> = [], keep = 2): string[] {
  const held = new Set(busy);
  const current = readCurrent(dist);
  if (current) held.add(current);
  const versions = listVersions(dist);
  const removed: string[] = [];
  for (const id of versions.slice(0, Math.max(0, versions.length - keep))) {
    const dir = versionDir(dist, id);
    if (held.has(id) || inUseByLiveProcess(dir)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(id);
  }
  try {
    for (const name of fs.readdirSync(versionsDir(dist))) {
      const full = path.join(versionsDir(dist), name);
      if (
        name.startsWith(PARTIAL) &&
        !ownerAlive(full, name.slice(PARTIAL.length), FOREIGN_PARTIAL_TTL_MS)
      )
        fs.rmSync(full, { recursive: true, force: true });
    }
  } catch {
    // no versions folder yet
  }
  for (const legacy of ['client', 'server', 'build-info.json'])
    fs.rmSync(path.join(dist, legacy), { recursive: true, force: true });
  return removed;
}
