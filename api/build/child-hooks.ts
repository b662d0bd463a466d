// Loaded into each build's child process (`node --import`, api/build/index.ts): the rewrites of
// Astro's own modules that the build process runs unbundled (`CHILD_TARGETS`,
// ./request-objects.ts), applied as Node loads them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { CLIENT_INPUT_FILE, REUSE_SERVER_SUFFIX, rewriteChildModule } from './request-objects.ts';

registerHooks({
  load(url, context, nextLoad) {
    const result = nextLoad(url, context);
    if (!url.includes('/astro/dist/') || result.source == null) return result;
    const source =
      typeof result.source === 'string' ? result.source : new TextDecoder().decode(result.source);
    const rewritten = rewriteChildModule(url, source);
    return rewritten === null ? result : { ...result, source: rewritten };
  },
});

// A publish that keeps the server bundle of the current version (docs/decisions/063) says so in
// a file beside the snapshot, written before the snapshot: the rewritten static-build.js asks
// once the prerender build is done, when the catalogue is known.
const snapshot = process.env['GALERIE_CATALOG_SNAPSHOT'];
const outDir = process.env['GALERIE_OUT_DIR'];
const reusedFrom = (): string | null => {
  const flag = snapshot && snapshot + REUSE_SERVER_SUFFIX;
  return flag && existsSync(flag) ? readFileSync(flag, 'utf8') : null;
};
const hooks = globalThis as Record<symbol, unknown>;
hooks[Symbol.for('galerie.reuseServer')] = () => {
  const from = reusedFrom();
  if (from) console.log(`galerie: the server bundle of ${path.basename(from)} is reused`);
  return from !== null;
};

/** What Astro's analyzer found in the SSR and prerender builds: the client build's inputs. */
interface Discovered {
  discoveredHydratedComponents: Map<string, string[]>;
  discoveredClientOnlyComponents: Map<string, string[]>;
  discoveredScripts: Set<string>;
  /** Each page's styles, found by the build of its environment. */
  pagesByViteID: Map<string, { route: { prerender: boolean }; styles: unknown[] }>;
}

interface Saved {
  hydrated: [string, string[]][];
  clientOnly: [string, string[]][];
  scripts: string[];
  /**
   * The on-demand pages' styles: the inline ones are hashed into every page's Content-Security-
   * Policy (Astro lists the site's inline styles as a whole).
   */
  serverStyles: [string, unknown[]][];
}

// Before the client build. Without its SSR build, a build has not seen the islands and scripts
// of the on-demand pages: the client build would then split the shared modules otherwise, and
// its files — under other names — would not be those the kept bundle's pages load. They are
// restored from the version whose bundle is kept, where every build records them.
hooks[Symbol.for('galerie.clientInput')] = (internals: Discovered) => {
  const from = reusedFrom();
  if (from) {
    const saved = JSON.parse(readFileSync(path.join(from, CLIENT_INPUT_FILE), 'utf8')) as Saved;
    const merge = (into: Map<string, string[]>, entries: [string, string[]][]) => {
      for (const [id, names] of entries)
        into.set(id, [...new Set([...(into.get(id) ?? []), ...names])]);
    };
    merge(internals.discoveredHydratedComponents, saved.hydrated);
    merge(internals.discoveredClientOnlyComponents, saved.clientOnly);
    for (const script of saved.scripts) internals.discoveredScripts.add(script);
    for (const [id, styles] of saved.serverStyles) {
      const page = internals.pagesByViteID.get(id);
      if (page && page.styles.length === 0) page.styles = styles;
    }
  }
  if (!outDir) return;
  const sorted = (map: Map<string, string[]>): [string, string[]][] =>
    [...map].map(([id, names]): [string, string[]] => [id, [...new Set(names)].sort()]).sort();
  const saved: Saved = {
    hydrated: sorted(internals.discoveredHydratedComponents),
    clientOnly: sorted(internals.discoveredClientOnlyComponents),
    scripts: [...internals.discoveredScripts].sort(),
    serverStyles: [...internals.pagesByViteID]
      .filter(([, page]) => !page.route.prerender && page.styles.length > 0)
      .map(([id, page]) => [id, page.styles]),
  };
  writeFileSync(path.join(outDir, CLIENT_INPUT_FILE), JSON.stringify(saved));
};
