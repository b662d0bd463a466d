// Loaded into each build's child process (`node --import`, api/build/index.ts): the rewrites of
// Astro's own modules that the build process runs unbundled (`CHILD_TARGETS`,
// ./request-objects.ts), applied as Node loads them.
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import {
  CLIENT_INPUT_FILE,
  CLIENT_OUTPUT_FILE,
  REUSE_SERVER_SUFFIX,
  rewriteChildModule,
} from './request-objects.ts';

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

// ── The client build, restored (docs/decisions/065) ──────────────────────────────────────────
//
// The browser's scripts and styles depend on the sources and the client build's inputs alone,
// which a build that keeps the server bundle has restored above: they are the kept version's,
// file for file. So that build does not make them again: it takes the kept version's files (hard
// links) and gives the rest of the build what the client build would have told it — the file of
// each island and script, the scripts inlined, the styles the client build adds to pages, the
// hashes it folds into each page's dependency hash — recorded by every build that ran one, in
// CLIENT_OUTPUT_FILE. A build that cannot record it whole (the client build changed something
// else of Astro's build state: an Astro update) writes none, and the next build runs its own.

type Style = { sheet: unknown };
type PageData = { key: string; styles: Style[] };

interface BuildState {
  entrySpecifierToBundleMap: Map<string, string>;
  prerenderOnlyEntrySpecifiers: Set<string>;
  clientChunksAndAssets: Set<string>;
  inlinedScripts: Map<string, string>;
  cssModuleToChunkIdMap: Map<string, string>;
  prerenderCssAssetByModuleKey: Map<string, string>;
  propagatedStylesMap: Map<string, Set<unknown>>;
  ssrRenderedExports?: Map<string, Set<string>>;
  pageDependencyHashes?: Map<string, string>;
  pagesByKeys: Map<string, PageData>;
  ssrAssetsPerEnvironment: Map<string, Set<string>>;
}

/** What a client build wrote and changed in the build's state, as CLIENT_OUTPUT_FILE holds it. */
interface ClientOutput {
  /** The checkout the build ran in: the ids below are its file paths. */
  root: string;
  /** Under the version's client/ folder. */
  files: string[];
  bundles: [string, string][];
  notPrerenderOnly: string[];
  chunksAndAssets: string[];
  inlinedScripts: [string, string][];
  cssChunks: [string, string][];
  prerenderCss: [string, string][];
  propagatedStyles: [string, unknown[]][];
  renderedExports: [string, string[]][];
  /** Files each environment's build emitted, by environment (the client's own). */
  assets: [string, string[]][];
  /** Appended to each page's styles. */
  pageStyles: [string, Style[]][];
  /** The client scripts' hashes folded into each page's dependency hash, or null: no fold. */
  clientHashes: [string, string[]][] | null;
}

/** The parts of the state ClientOutput carries: the rest must be left as it was. */
const CARRIED = new Set([
  'entrySpecifierToBundleMap',
  'prerenderOnlyEntrySpecifiers',
  'clientChunksAndAssets',
  'inlinedScripts',
  'cssModuleToChunkIdMap',
  'prerenderCssAssetByModuleKey',
  'propagatedStylesMap',
  'ssrRenderedExports',
  'pageDependencyHashes',
  'ssrAssetsPerEnvironment',
]);

const json = (value: unknown) => JSON.stringify(value);

/**
 * The state ClientOutput does not carry, as text (compared before and after the client build):
 * each page once, under pagesByKeys, without its styles (compared on their own).
 */
function uncarried(state: Record<string, unknown>): Map<string, string> {
  const pages = new Map<unknown, string>();
  for (const page of (state['pagesByKeys'] as Map<string, PageData>).values())
    pages.set(page, page.key);
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(state)) {
    if (CARRIED.has(name)) continue;
    const seen = new WeakSet<object>();
    out.set(
      name,
      JSON.stringify(value, (_key, v: unknown) => {
        if (pages.has(v)) {
          if (name !== 'pagesByKeys') return `page:${pages.get(v)}`;
          const { styles: _styles, ...page } = v as PageData;
          return page;
        }
        if (v instanceof Map) return { map: [...v] };
        if (v instanceof Set) return { set: [...v] };
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[seen]';
          seen.add(v);
        }
        return v;
      }) ?? 'undefined',
    );
  }
  return out;
}

function filesUnder(dir: string): Set<string> {
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))),
  );
}

let before:
  | {
      files: Set<string>;
      bundles: Map<string, string>;
      prerenderOnly: Set<string>;
      chunksAndAssets: Set<string>;
      inlinedScripts: Map<string, string>;
      cssChunks: Map<string, string>;
      prerenderCss: Map<string, string>;
      propagated: Map<string, string[]>;
      renderedExports: Map<string, string>;
      assets: Map<string, Set<string>>;
      pageStyles: Map<string, string[]>;
      rest: Map<string, string>;
    }
  | undefined;
let clientHashes: [string, string[]][] | null = null;

hooks[Symbol.for('galerie.clientHashes')] = (byComponent: Map<string, string[]>) => {
  clientHashes = [...byComponent].map(([page, hashes]): [string, string[]] => [page, [...hashes]]);
};

const changed = <V>(now: Map<string, V>, then: Map<string, V>): [string, V][] =>
  [...now].filter(([key, value]) => !then.has(key) || json(then.get(key)) !== json(value));

hooks[Symbol.for('galerie.clientBuild')] = (internals: BuildState, step: 'before' | 'after') => {
  if (!outDir) return false;
  const client = path.join(outDir, 'client');
  const state = internals as unknown as Record<string, unknown>;
  if (step === 'before') {
    const from = reusedFrom();
    const recorded = from && path.join(from, CLIENT_OUTPUT_FILE);
    // Loaded with Astro's build plugins; without it, the pages' hashes could not be folded.
    const canFold = typeof hooks[Symbol.for('galerie.foldClientHashes')] === 'function';
    if (recorded && canFold && existsSync(recorded)) {
      const output = JSON.parse(readFileSync(recorded, 'utf8')) as ClientOutput;
      const complete =
        output.root === process.cwd() &&
        output.files.every((file) => existsSync(path.join(from, 'client', file)));
      if (complete) {
        restore(internals, output, from, client);
        writeFileSync(path.join(outDir, CLIENT_OUTPUT_FILE), JSON.stringify(output));
        console.log(`galerie: the client build of ${path.basename(from)} is reused`);
        return true;
      }
    }
    before = {
      files: filesUnder(client),
      bundles: new Map(internals.entrySpecifierToBundleMap),
      prerenderOnly: new Set(internals.prerenderOnlyEntrySpecifiers),
      chunksAndAssets: new Set(internals.clientChunksAndAssets),
      inlinedScripts: new Map(internals.inlinedScripts),
      cssChunks: new Map(internals.cssModuleToChunkIdMap),
      prerenderCss: new Map(internals.prerenderCssAssetByModuleKey),
      propagated: new Map(
        [...internals.propagatedStylesMap].map(([id, sheets]) => [id, [...sheets].map(json)]),
      ),
      renderedExports: new Map(
        [...(internals.ssrRenderedExports ?? [])].map(([id, names]) => [id, json([...names])]),
      ),
      assets: new Map(
        [...internals.ssrAssetsPerEnvironment].map(([env, files]) => [env, new Set(files)]),
      ),
      pageStyles: new Map(
        [...internals.pagesByKeys].map(([key, page]) => [key, page.styles.map(json)]),
      ),
      rest: uncarried(state),
    };
    return false;
  }
  if (!before) return false;
  const then = before;
  before = undefined;
  const rest = uncarried(state);
  const moved = [...rest.keys()].filter((name) => rest.get(name) !== then.rest.get(name));
  // A page's styles are only added to.
  for (const [key, page] of internals.pagesByKeys) {
    const had = then.pageStyles.get(key) ?? [];
    if (had.some((style, i) => json(page.styles[i]) !== style)) moved.push(`the styles of ${key}`);
  }
  if (moved.length > 0) {
    console.log(
      `galerie: the client build changed ${moved.join(', ')}: its output is not recorded`,
    );
    return false;
  }
  const output: ClientOutput = {
    root: process.cwd(),
    files: [...filesUnder(client)].filter((file) => !then.files.has(file)).sort(),
    bundles: changed(internals.entrySpecifierToBundleMap, then.bundles),
    notPrerenderOnly: [...then.prerenderOnly].filter(
      (id) => !internals.prerenderOnlyEntrySpecifiers.has(id),
    ),
    chunksAndAssets: [...internals.clientChunksAndAssets].filter(
      (f) => !then.chunksAndAssets.has(f),
    ),
    inlinedScripts: changed(internals.inlinedScripts, then.inlinedScripts),
    cssChunks: changed(internals.cssModuleToChunkIdMap, then.cssChunks),
    prerenderCss: changed(internals.prerenderCssAssetByModuleKey, then.prerenderCss),
    propagatedStyles: [...internals.propagatedStylesMap]
      .map(([id, sheets]): [string, unknown[]] => [
        id,
        [...sheets].filter((sheet) => !(then.propagated.get(id) ?? []).includes(json(sheet))),
      ])
      .filter(([, sheets]) => sheets.length > 0),
    renderedExports: [...(internals.ssrRenderedExports ?? [])]
      .filter(([id, names]) => then.renderedExports.get(id) !== json([...names]))
      .map(([id, names]) => [id, [...names]]),
    assets: [...internals.ssrAssetsPerEnvironment]
      .map(([env, files]): [string, string[]] => [
        env,
        [...files].filter((file) => !then.assets.get(env)?.has(file)),
      ])
      .filter(([env, files]) => files.length > 0 || !then.assets.has(env)),
    pageStyles: [...internals.pagesByKeys]
      .map(([key, page]): [string, Style[]] => [
        key,
        page.styles.slice(then.pageStyles.get(key)?.length ?? 0),
      ])
      .filter(([, styles]) => styles.length > 0),
    clientHashes,
  };
  writeFileSync(path.join(outDir, CLIENT_OUTPUT_FILE), JSON.stringify(output));
  return true;
};

function restore(internals: BuildState, output: ClientOutput, from: string, client: string): void {
  for (const file of output.files) {
    const target = path.join(client, file);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      linkSync(path.join(from, 'client', file), target);
    } catch {
      copyFileSync(path.join(from, 'client', file), target);
    }
  }
  for (const [id, file] of output.bundles) internals.entrySpecifierToBundleMap.set(id, file);
  for (const id of output.notPrerenderOnly) internals.prerenderOnlyEntrySpecifiers.delete(id);
  for (const file of output.chunksAndAssets) internals.clientChunksAndAssets.add(file);
  for (const [id, code] of output.inlinedScripts) internals.inlinedScripts.set(id, code);
  for (const [id, chunk] of output.cssChunks) internals.cssModuleToChunkIdMap.set(id, chunk);
  for (const [key, file] of output.prerenderCss)
    internals.prerenderCssAssetByModuleKey.set(key, file);
  for (const [id, sheets] of output.propagatedStyles) {
    const set = internals.propagatedStylesMap.get(id) ?? new Set();
    for (const sheet of sheets) set.add(sheet);
    internals.propagatedStylesMap.set(id, set);
  }
  if (output.renderedExports.length > 0) internals.ssrRenderedExports ??= new Map();
  for (const [id, names] of output.renderedExports)
    internals.ssrRenderedExports!.set(id, new Set(names));
  for (const [env, files] of output.assets) {
    const set = internals.ssrAssetsPerEnvironment.get(env) ?? new Set();
    for (const file of files) set.add(file);
    internals.ssrAssetsPerEnvironment.set(env, set);
  }
  for (const [key, styles] of output.pageStyles)
    internals.pagesByKeys.get(key)?.styles.push(...styles);
  const fold = hooks[Symbol.for('galerie.foldClientHashes')] as
    ((base: Map<string, string>, byComponent: Map<string, string[]>) => void) | undefined;
  if (output.clientHashes && internals.pageDependencyHashes)
    fold!(internals.pageDependencyHashes, new Map(output.clientHashes));
}
