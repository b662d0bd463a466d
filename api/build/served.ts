// The one way a server changes the version it serves (docs/decisions/012, 028): mark it in use,
// load it whole, swap it in, unmark the one it replaced, prune. Swaps are queued, so this node's
// own publish and a version another node published (api/cluster/follow.ts) never interleave, and
// a version already served is not loaded twice.
import { loadVersion, type LiveSite, type SiteVersion } from '../http/site.ts';
import { markInUse, pruneVersions, unmarkInUse } from './versions.ts';

export interface ServedVersionOptions {
  site: LiveSite;
  dist: string;
  /** Loads a complete version folder, given the one served now (tests may stand in). */
  load?: (id: string, dir: string, previous: SiteVersion | null) => Promise<SiteVersion>;
}

export class ServedVersion {
  /**
   * More than 0 while this node builds under the publish lock: the version it writes to
   * `current` is its own to swap in, not one to follow.
   */
  building = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly site: LiveSite;
  private readonly dist: string;
  private readonly load: (
    id: string,
    dir: string,
    previous: SiteVersion | null,
  ) => Promise<SiteVersion>;

  constructor(options: ServedVersionOptions) {
    this.site = options.site;
    this.dist = options.dist;
    this.load = options.load ?? loadVersion;
  }

  /** Id of the version served now. */
  get id(): string | null {
    return this.site.version?.id ?? null;
  }

  /**
   * Serves version `id` from now on, once loaded whole; resolves false when it already was.
   * Rejects (serving the previous version still) when it cannot be loaded.
   */
  serve(id: string, dir: string): Promise<boolean> {
    const run = async (): Promise<boolean> => {
      if (this.site.version?.id === id) return false;
      // Marked before loading: no node prunes it while it is read.
      markInUse(this.dist, id);
      let version: SiteVersion;
      try {
        version = await this.load(id, dir, this.site.version);
      } catch (error) {
        unmarkInUse(this.dist, id);
        throw error;
      }
      const previous = this.site.swap(version);
      // The folder of the bundle it renders with stays marked: its prerendered error pages are
      // read from there.
      const kept = new Set([id, version.bundleOf ?? id]);
      for (const old of new Set([previous?.id, previous?.bundleOf]))
        if (old && !kept.has(old)) unmarkInUse(this.dist, old);
      pruneVersions(this.dist, this.site.busy());
      return true;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }
}
