// What a node learns from the others sharing its PostgreSQL database and dist folder
// (docs/decisions/028), once a second:
// - the version another node published: `dist/current` names a version this node does not serve,
//   built from this node's own sources for its site URL → loaded whole, then swapped in (the old one
//   is served until then). A version built from other sources (a rolling upgrade) is left alone
//   until this node restarts on them.
// - a settings change saved on another node: the settings table's fingerprint changed → the live
//   settings cache (docs/decisions/013) is emptied, so money and access follow within a second.
// - and, each minute, its own in-use marker is touched, so nodes of other hosts do not prune the
//   version it serves.
import { sql } from 'kysely';
import { readBuildInfo, type BuildInfo } from '../build/index.ts';
import type { ServedVersion } from '../build/served.ts';
import { readCurrent, touchInUse, versionDir } from '../build/versions.ts';
import type { Database } from '../db/index.ts';
import { log } from '../log.ts';
import { invalidateSettings } from '../settings/index.ts';

export interface FollowOptions {
  db: Database;
  dist: string;
  /** What this node builds with: a version must match both to be served here. */
  siteUrl: string;
  sourceHash: string;
  served: ServedVersion;
  /** After a version another node built is served here. */
  onAdopted?: (id: string, info: BuildInfo) => void;
  intervalMs?: number;
  heartbeatMs?: number;
}

export interface Follower {
  /** One look now (tests); the timer keeps looking. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A digest of every stored setting and of the row version that holds it (`xmin`, the writing
 * transaction): any save, on any node, changes it — also a setting switched on and back off
 * between two looks, which a digest of the values alone would miss (maintenance on, then off
 * within the second, left the node that saved "on" closed for good).
 */
export async function settingsFingerprint(db: Database): Promise<string> {
  const { rows } = await sql<{ fp: string }>`
    SELECT md5(coalesce(string_agg(key || '=' || value::text || '@' || xmin::text, ',' ORDER BY key), '')) AS fp
    FROM site_settings`.execute(db);
  return rows[0]?.fp ?? '';
}

export function followCluster(options: FollowOptions): Follower {
  const { db, dist, served } = options;
  const intervalMs = options.intervalMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 60_000;
  /** Versions this node will not serve (other sources, or failed to load): said once. */
  const refused = new Set<string>();
  let fingerprint: string | undefined;
  let lastBeat = Date.now();
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  const followSettings = async () => {
    const next = await settingsFingerprint(db);
    // The first look too: a save may have come between this node's first read and now.
    if (next !== fingerprint) invalidateSettings(db);
    fingerprint = next;
  };

  const followVersion = async () => {
    const id = readCurrent(dist);
    if (!id || id === served.id || served.building > 0 || refused.has(id)) return;
    const dir = versionDir(dist, id);
    const info = await readBuildInfo(dir);
    if (!info) return;
    if (info.sourceHash !== options.sourceHash || info.siteUrl !== options.siteUrl) {
      refused.add(id);
      log.warn(
        `Galerie: version ${id} was built from other sources or for another site URL; this node keeps serving ${served.id ?? 'nothing'} until it restarts`,
      );
      return;
    }
    try {
      if (await served.serve(id, dir)) {
        log.info(`Galerie: serving version ${id}, published by another node`);
        options.onAdopted?.(id, info);
      }
    } catch (error) {
      refused.add(id);
      log.error({ err: error }, `Galerie: version ${id} cannot be loaded`);
    }
  };

  const tick = () =>
    (running ??= (async () => {
      try {
        await followSettings();
        await followVersion();
        if (Date.now() - lastBeat >= heartbeatMs && served.id) {
          lastBeat = Date.now();
          touchInUse(dist, served.id);
        }
        if (failing) log.info('Galerie: following the other nodes again');
        failing = false;
      } catch (error) {
        // Said once per outage, not every second.
        if (!failing) log.warn({ err: error }, 'Galerie: following the other nodes failed');
        failing = true;
      }
    })().finally(() => {
      running = null;
    }));

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void tick().finally(schedule), intervalMs);
    timer.unref();
  };
  schedule();

  return {
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
