// Astro's per-request objects without per-request accessors (docs/decisions/057).
//
// V8 keeps an object whose getter is a closure made for that object — `{ get locals() { return
// self.locals } }`, or `Object.defineProperty(o, k, { get: () => state.resolve(k) })` — and
// everything the closure reaches alive through every young-generation collection, until the next
// full one: each such object gets a hidden class of its own, made in the old generation, which
// holds the getter. Astro 7 makes several per request (the render options, the endpoint's
// context, the providers' getters), each reaching the request, its state, its headers and its
// response; the node adapter's web `Request` follows an `AbortSignal`, which undici tracks with a
// `WeakRef` and a `FinalizationRegistry`, strong to the same collections. So every on-demand
// request outlived its scavenge: ~11 MB per scavenge at ~7 000 requests/s, 13–16 ms pauses, a
// mark-compact every second or so — the p99 of `/api/cart/count` (17 ms for a p50 of 0) and of a
// cart add on PostgreSQL.
//
// This plugin rewrites those few places when the server bundle is built: the same properties,
// with getters shared by every request (they read their state from a symbol-keyed slot), and the
// request without the signal (nothing in Astro or here reads `request.signal`; a closed socket
// still ends the response through the adapter's own `close` listener). Each rewrite names the
// text it replaces; when an Astro update changes that text the build stops and says which, rather
// than silently losing the fix.
import type { Plugin } from 'vite';

export interface Rewrite {
  /** What it is for, shown when the text is not found. */
  what: string;
  from: string | RegExp;
  to: string;
  /** How many times the text occurs (default 1). */
  count?: number;
}

const STATE = 'GALERIE_FETCH_STATE';

/** Shared getters for fetch-state.js, appended to the module (it imports every name used here). */
const FETCH_STATE_HELPERS = `
const ${STATE} = Symbol.for("galerie.fetchState");
function galerieRenderOptions(state, options) {
  const { locals: _locals, ...rest } = options;
  Object.defineProperty(rest, ${STATE}, { value: state, configurable: true });
  Object.defineProperty(rest, "locals", { get: galerieRenderOptionsLocals, enumerable: true, configurable: true });
  return rest;
}
function galerieRenderOptionsLocals() {
  return this[${STATE}].locals;
}
const GALERIE_ACTION_CONTEXT_ACCESSORS = {
  cookies: { get() { return this[${STATE}].cookies; }, enumerable: true, configurable: true },
  clientAddress: { get() { return this[${STATE}].getClientAddress(); }, enumerable: true, configurable: true },
  currentLocale: { get() { return this[${STATE}].computeCurrentLocale(); }, enumerable: true, configurable: true },
  locals: {
    get() { return this[${STATE}].locals; },
    set(_) { throw new AstroError(AstroErrorData.LocalsReassigned); },
    enumerable: true,
    configurable: true
  },
  preferredLocale: { get() { return this[${STATE}].computePreferredLocale(); }, enumerable: true, configurable: true },
  preferredLocaleList: { get() { return this[${STATE}].computePreferredLocaleList(); }, enumerable: true, configurable: true },
  originPathname: { get() { return getOriginPathname(this[${STATE}].request); }, enumerable: true, configurable: true },
  csp: { get() { return this[${STATE}].getCsp(); }, enumerable: true, configurable: true },
  logger: { get() { return astroToRuntimeLogger(this[${STATE}].logger); }, enumerable: true, configurable: true }
};
const galerieProviderGetters = new Map();
function galerieProviderGetter(key) {
  let getter = galerieProviderGetters.get(key);
  if (!getter) {
    getter = function () { return this[${STATE}].resolve(key); };
    galerieProviderGetters.set(key, getter);
  }
  return getter;
}
const galerieSessionWarned = new WeakSet();
function galerieNoSession() {
  const state = this[${STATE}];
  if (!galerieSessionWarned.has(state)) {
    galerieSessionWarned.add(state);
    state.logger.warn(
      "session",
      "\`Astro.session\` was accessed but no session storage is configured. Either configure the storage manually or use an adapter that provides session storage. For more information, see https://docs.astro.build/en/guides/sessions/"
    );
  }
  return void 0;
}
`;

const FETCH_STATE: Rewrite[] = [
  {
    what: 'FetchState#renderOptions (a getter per request for `locals`)',
    from: `    this.renderOptions = {
      ...options ?? {
        addCookieHeader: false,
        clientAddress: void 0,
        prerenderedErrorPageFetch: fetch,
        routeData: void 0,
        waitUntil: void 0
      },
      get locals() {
        return self.locals;
      }
    };`,
    to: `    this.renderOptions = galerieRenderOptions(self, options ?? {
      addCookieHeader: false,
      clientAddress: void 0,
      prerenderedErrorPageFetch: fetch,
      routeData: void 0,
      waitUntil: void 0
    });`,
  },
  {
    what: 'FetchState#getActionAPIContext (nine getters per request)',
    from: /(getActionAPIContext\(\) \{\n {4}if \(this\.actionApiContext !== null\) return this\.actionApiContext;\n {4}const state = this;\n) {4}const ctx = \{\n[\s\S]*?\n {4}\};\n( {4}this\.defineProviderGetters\(ctx\);)/,
    to: `$1    const ctx = {
      routePattern: this.routeData.route,
      isPrerendered: this.routeData.prerender,
      generator: ASTRO_GENERATOR,
      params: this.params,
      request: this.request,
      site: getSite(this.manifest),
      url: this.url
    };
    Object.defineProperty(ctx, ${STATE}, { value: state, configurable: true });
    Object.defineProperties(ctx, GALERIE_ACTION_CONTEXT_ACCESSORS);
$2`,
  },
  {
    what: 'FetchState#defineProviderGetters (a getter per provider and request)',
    from: /( {2}defineProviderGetters\(target\) \{\n {4}const state = this;\n)[\s\S]*?\n( {2}\/\*\*)/,
    to: `$1    Object.defineProperty(target, ${STATE}, { value: state, configurable: true });
    if (this.#providers) {
      for (const key of this.#providers.keys()) {
        Object.defineProperty(target, key, {
          get: galerieProviderGetter(key),
          enumerable: true,
          configurable: true
        });
      }
    }
    if (!this.#providers?.has("session")) {
      Object.defineProperty(target, "session", {
        get: galerieNoSession,
        enumerable: true,
        configurable: true
      });
    }
  }
$2`,
  },
];

const NODE_APP: Rewrite[] = [
  {
    what: "the node adapter's Request (an AbortSignal followed per request)",
    from: `    headers: makeRequestHeaders(req),
    signal: controller.signal
  };`,
    to: `    headers: makeRequestHeaders(req)
  };`,
    count: 2,
  },
];

function occurrences(code: string, from: string | RegExp): number {
  if (typeof from === 'string') return code.split(from).length - 1;
  return [
    ...code.matchAll(
      new RegExp(from.source, from.flags.includes('g') ? from.flags : `${from.flags}g`),
    ),
  ].length;
}

/** Applies rewrites to a module's code; throws naming the first whose text is not there. */
export function rewrite(code: string, file: string, rewrites: Rewrite[], append = ''): string {
  let out = code;
  for (const step of rewrites) {
    const found = occurrences(out, step.from);
    const expected = step.count ?? 1;
    if (found !== expected)
      throw new Error(
        `galerie:request-objects: ${step.what}: expected ${expected} match(es) in ${file}, found ${found}. Astro changed this code: check whether the fix in api/build/request-objects.ts (docs/decisions/057) is still needed, and adapt or remove it.`,
      );
    out =
      typeof step.from === 'string'
        ? out.split(step.from).join(step.to)
        : out.replace(step.from, step.to);
  }
  return out + append;
}

/** The modules rewritten, by the end of their path in node_modules. */
export const TARGETS: Record<string, { rewrites: Rewrite[]; append?: string }> = {
  '/astro/dist/core/fetch/fetch-state.js': { rewrites: FETCH_STATE, append: FETCH_STATE_HELPERS },
  '/astro/dist/core/app/node.js': { rewrites: NODE_APP },
};

export function requestObjectsPlugin(): Plugin {
  return {
    name: 'galerie:request-objects',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name !== 'client',
    transform(code, id) {
      const file = id.split('?')[0]!.replaceAll('\\', '/');
      for (const [suffix, target] of Object.entries(TARGETS)) {
        if (file.endsWith(suffix))
          return { code: rewrite(code, file, target.rewrites, target.append), map: null };
      }
      return null;
    },
  };
}

/**
 * Rewrites for the build's own process (loaded by ./child-hooks.ts, not bundled): two builds of
 * one checkout at once (a publish and `npm run build`, the test of isolated builds) share the
 * checkout's `.astro/` folder, where Astro's content layer rewrites `content-assets.mjs` at every
 * build through a temporary file of fixed name, then a rename. When two builds write it at the
 * same moment, one renames the other's temporary file away and fails with ENOENT (seen once in
 * CI). Each process names its temporary files with its pid.
 */
export const CHILD_TARGETS: Record<string, Rewrite[]> = {
  // A publish that changes only what prerendered pages show keeps the server bundle of the
  // version before it (docs/decisions/063): its SSR build is skipped when the publish says so
  // (./child-hooks.ts reads the flag file beside the snapshot; api/build/index.ts copies the
  // bundle).
  '/astro/dist/core/build/static-build.js': [
    {
      what: 'the SSR build of `astro build` (skipped when the server bundle is reused)',
      from: 'if (needsServerBuild(settings, builder2)) {',
      to: 'if (needsServerBuild(settings, builder2) && !globalThis[Symbol.for("galerie.reuseServer")]?.()) {',
    },
    {
      what: "the client build's inputs (the islands and scripts the SSR build found, kept or restored)",
      from: 'internals.clientInput = getClientInput(internals, settings);',
      to: 'globalThis[Symbol.for("galerie.clientInput")]?.(internals);\n        internals.clientInput = getClientInput(internals, settings);',
    },
    {
      what: 'the client build of `astro build` (its output restored when the server bundle is reused)',
      from: `        settings.timer.start("Client build");
        await builder2.build(builder2.environments.client);`,
      to: `        settings.timer.start("Client build");
        if (!globalThis[Symbol.for("galerie.clientBuild")]?.(internals, "before")) {
          await builder2.build(builder2.environments.client);
          globalThis[Symbol.for("galerie.clientBuild")]?.(internals, "after");
        }`,
    },
  ],
  // The client build folds the hashes of each page's client scripts into the page's dependency
  // hash (Astro's incremental build renders a page again when it changes): the hashes it folds
  // are recorded, and the fold is callable without the build, for a build that restores the
  // client build's output instead (decision 065).
  '/astro/dist/core/build/plugins/plugin-incremental.js': [
    {
      what: "the incremental build's fold of the client scripts' hashes (decision 065)",
      from: `  for (const [component, clientHashes] of hashesByComponent) {
    const hasher = crypto.createHash("sha256");`,
      to: `  globalThis[Symbol.for("galerie.clientHashes")]?.(hashesByComponent);
  galerieFoldClientHashes(baseHashes, hashesByComponent);
}
globalThis[Symbol.for("galerie.foldClientHashes")] = galerieFoldClientHashes;
function galerieFoldClientHashes(baseHashes, hashesByComponent) {
  for (const [component, clientHashes] of hashesByComponent) {
    const hasher = crypto.createHash("sha256");`,
    },
  ],
  // ... whose client build then meets the scripts of .astro pages no build of its process
  // compiled (on-demand pages): compiled on first request, as Astro's dev server does, rather
  // than refused. A full build compiles every page before its client build and never gets here.
  '/astro/dist/vite-plugin-astro/index.js': [
    {
      what: 'the compile of an .astro file first met through one of its scripts (decision 063)',
      from: `            if (server) {
              const code = await loadId(server.pluginContainer, filename);
              if (code != null) await compile(code, filename);
            }`,
      to: `            if (server) {
              const code = await loadId(server.pluginContainer, filename);
              if (code != null) await compile(code, filename);
            } else {
              const { readFile } = await import("node:fs/promises");
              await compile(await readFile(filename, "utf8"), filename);
            }`,
    },
  ],
  '/astro/dist/content/mutable-data-store.js': [
    {
      what: "the content layer's temporary file (a fixed name shared by builds of one checkout)",
      from: 'new URL(`${filePath.href}.tmp`) : `${filePath}.tmp`',
      to: 'new URL(`${filePath.href}.${process.pid}.tmp`) : `${filePath}.${process.pid}.tmp`',
    },
  ],
  '/astro/dist/content/data-store-writer.js': [
    {
      what: "the data store's temporary file (a fixed name shared by builds of one checkout)",
      from: 'new URL(`${file.href}.tmp`) : `${file}.tmp`',
      to: 'new URL(`${file.href}.${process.pid}.tmp`) : `${file}.${process.pid}.tmp`',
    },
  ],
};

/**
 * Beside a build's snapshot file, naming the version folder whose server bundle is copied rather
 * than built (decision 063).
 */
export const REUSE_SERVER_SUFFIX = '.reuse-server';
/** In a version folder: the islands and scripts its SSR build found (decision 063). */
export const CLIENT_INPUT_FILE = 'client-input.json';
/**
 * In a version folder: what its client build wrote and told the rest of the build (decision 065),
 * absent when it could not be recorded whole.
 */
export const CLIENT_OUTPUT_FILE = 'client-output.json';

/** A module of the build's process rewritten, or null when none of CHILD_TARGETS concerns it. */
export function rewriteChildModule(url: string, source: string): string | null {
  for (const [suffix, rewrites] of Object.entries(CHILD_TARGETS))
    if (url.endsWith(suffix)) return rewrite(source, url, rewrites);
  return null;
}
