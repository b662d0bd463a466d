// Pruning a dist folder shared by nodes of several hosts (docs/decisions/028): a version another
// host's node serves is kept while its marker is fresh, and a partial build of another host is
// not taken for a dead process's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FOREIGN_MARKER_TTL_MS,
  FOREIGN_PARTIAL_TTL_MS,
  HOST,
  listVersions,
  markInUse,
  partialDir,
  pruneVersions,
  touchInUse,
  unmarkInUse,
  versionDir,
  versionsDir,
  writeCurrent,
} from './versions.ts';

let dist: string;

function addVersion(id: string): string {
  const dir = versionDir(dist, id);
  fs.mkdirSync(path.join(dir, 'server'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'server', 'entry.mjs'), '');
  return dir;
}

function age(file: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  fs.utimesSync(file, then, then);
}

// A pid no process of this host has (above the kernel's pid_max).
const DEAD_PID = 4_194_305;

beforeEach(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-versions-'));
});
afterEach(() => fs.rmSync(dist, { recursive: true, force: true }));

describe('pruning versions shared by several nodes', () => {
  it('keeps what a node of another host serves while it keeps its marker fresh', () => {
    for (const id of ['20260101T000000000Z-1', '20260102T000000000Z-1', '20260103T000000000Z-1'])
      addVersion(id);
    addVersion('20260104T000000000Z-1');
    writeCurrent(dist, '20260104T000000000Z-1');
    // Served by node 77 on another machine (fresh), and by a node of another machine that died.
    const fresh = path.join(versionDir(dist, '20260101T000000000Z-1'), '.in-use-77@other-host');
    const stale = path.join(versionDir(dist, '20260102T000000000Z-1'), '.in-use-78@gone-host');
    fs.writeFileSync(fresh, '');
    fs.writeFileSync(stale, '');
    age(fresh, FOREIGN_MARKER_TTL_MS - 60_000);
    age(stale, FOREIGN_MARKER_TTL_MS + 60_000);

    expect(pruneVersions(dist)).toEqual(['20260102T000000000Z-1']);
    expect(listVersions(dist)).toEqual([
      '20260101T000000000Z-1',
      '20260103T000000000Z-1',
      '20260104T000000000Z-1',
    ]);
    // Once its node stops touching it, the marker goes stale and the version goes too.
    age(fresh, FOREIGN_MARKER_TTL_MS + 1);
    expect(pruneVersions(dist)).toEqual(['20260101T000000000Z-1']);
  });

  it('on this host, believes the pid; a marker it writes names the host and can be touched', () => {
    for (const id of ['20260101T000000000Z-1', '20260102T000000000Z-1', '20260103T000000000Z-1'])
      addVersion(id);
    writeCurrent(dist, '20260103T000000000Z-1');
    markInUse(dist, '20260101T000000000Z-1');
    const mine = path.join(
      versionDir(dist, '20260101T000000000Z-1'),
      `.in-use-${process.pid}@${HOST}`,
    );
    expect(fs.existsSync(mine)).toBe(true);
    // Old, but this process lives: kept. A dead pid of this host: removed at once.
    age(mine, FOREIGN_MARKER_TTL_MS * 10);
    expect(pruneVersions(dist, [], 1)).toEqual(['20260102T000000000Z-1']);
    touchInUse(dist, '20260101T000000000Z-1');
    expect(Date.now() - fs.statSync(mine).mtimeMs).toBeLessThan(60_000);
    fs.writeFileSync(
      path.join(versionDir(dist, '20260101T000000000Z-1'), `.in-use-${DEAD_PID}@${HOST}`),
      '',
    );
    unmarkInUse(dist, '20260101T000000000Z-1');
    expect(pruneVersions(dist, [], 1)).toEqual(['20260101T000000000Z-1']);
  });

  it('leaves another host’s build in progress alone, and removes this host’s dead ones', () => {
    fs.mkdirSync(versionsDir(dist), { recursive: true });
    const building = path.join(versionsDir(dist), '.partial-20260101T000000000Z-5@other-host');
    const abandoned = path.join(versionsDir(dist), '.partial-20260101T000000000Z-6@gone-host');
    const crashedHere = path.join(versionsDir(dist), `.partial-20260101T000000000Z-${DEAD_PID}`);
    const mine = partialDir(dist, '20260101T000000000Z-7');
    for (const dir of [building, abandoned, crashedHere]) fs.mkdirSync(dir);
    fs.mkdirSync(mine);
    age(abandoned, FOREIGN_PARTIAL_TTL_MS + 60_000);
    pruneVersions(dist);
    expect(fs.existsSync(building)).toBe(true);
    expect(fs.existsSync(abandoned)).toBe(false);
    expect(fs.existsSync(crashedHere)).toBe(false);
    // Its pid is not alive here (7 is no process of this test): a dead build of this host.
    expect(path.basename(mine)).toBe(`.partial-20260101T000000000Z-7@${HOST}`);
  });
});
