// The version of the built site a running server serves, swapped atomically when a publish
// completes (docs/decisions/012). A version is loaded whole before it is served: its static files
// into memory and every module of its server bundle into Node's module cache, so rendering never
// reads dist/ again — nothing another process writes or removes there can break it.
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from './client.ts';
import { PAGE_DIRECTIVES } from './headers.ts';
import { StaticFiles, type PagePolicies } from './static-files.ts';

export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
  /** Astro's `locals` to start from: `client` and `fromThisMachine`, resolved by the HTTP layer
   * (api/http/client.ts). */
  locals?: { client: Client; fromThisMachine?: boolean },
) => void | Promise<void>;

export interface SiteVersion {
  id: string;
  staticFiles: StaticFiles;
  /** Astro's middleware-mode handler, or any handler in tests. */
  handler: NodeHandler;
  /** build-info.json's `serverHash`: what the handler's bundle was built from. */
  serverHash?: string | null;
  /** The version whose server bundle the handler is, when not this one's (kept on disk). */
  bundleOf?: string;
}

async function* modules(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* modules(full);
    else if (entry.isFile() && entry.name.endsWith('.mjs')) yield full;
  }
}

async function readServerHash(dir: string): Promise<string | null> {
  try {
    const info = JSON.parse(await fs.readFile(path.join(dir, 'build-info.json'), 'utf8')) as {
      serverHash?: unknown;
    };
    return typeof info.serverHash === 'string' ? info.serverHash : null;
  } catch {
    return null;
  }
}

/**
 * The prerendered pages' policies Astro wrote beside client/ (`_headers.json`, docs/decisions/036);
 * null for a version built before they were (its pages carry a <meta> instead).
 */
export async function readPagePolicies(dir: string): Promise<PagePolicies | null> {
  let entries: unknown;
  try {
    entries = JSON.parse(await fs.readFile(path.join(dir, '_headers.json'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const byRoute = new Map<string, string>();
  for (const entry of entries as { pathname: string; headers: { key: string; value: string }[] }[])
    for (const header of entry.headers)
      if (header.key.toLowerCase() === 'content-security-policy')
        byRoute.set(entry.pathname, header.value);
  return {
    byRoute,
    fallback: [...PAGE_DIRECTIVES, "script-src 'self'", "style-src 'self'"].join('; '),
  };
}

/**
 * Loads a complete version folder (client/ and server/). Throws when any module fails. When the
 * version's server bundle was built from the same inputs as `previous`'s (a sale that changed only
 * prerendered pages, docs/decisions/032), `previous`'s handler renders its on-demand pages: Node
 * never frees a module, so each bundle loaded stays in memory until the process ends.
 */
export async function loadVersion(
  id: string,
  dir: string,
  previous?: SiteVersion | null,
): Promise<SiteVersion> {
  const serverHash = await readServerHash(dir);
  const policies = await readPagePolicies(dir);
  const staticFiles = () => StaticFiles.load(path.join(dir, 'client'), policies ?? undefined);
  if (serverHash && previous?.serverHash === serverHash)
    return {
      id,
      handler: previous.handler,
      staticFiles: await staticFiles(),
      serverHash,
      bundleOf: previous.bundleOf ?? previous.id,
    };
  const serverDir = path.join(dir, 'server');
  const { handler } = (await import(pathToFileURL(path.join(serverDir, 'entry.mjs')).href)) as {
    handler: NodeHandler;
  };
  // Astro imports page modules lazily; importing them all now keeps them off the disk later.
  for await (const file of modules(serverDir)) await import(pathToFileURL(file).href);
  return { id, handler, staticFiles: await staticFiles(), serverHash };
}

/**
 * The served version and the requests in flight on each one. A request keeps the version it
 * started on until it finishes, even if a swap happens meanwhile.
 */
export class LiveSite {
  private current: SiteVersion | null = null;
  private readonly inFlight = new Map<string, number>();
  /** Set when a loaded version failed to render a module it should have had. */
  private broken: string | null = null;

  get version(): SiteVersion | null {
    return this.current;
  }

  /** Can this server render its pages? (health) */
  canRender(): boolean {
    return this.current !== null && this.broken !== this.current.id;
  }

  markBroken(id: string): void {
    this.broken = id;
  }

  /** Serves `next` from now on; returns the version it replaced. */
  swap(next: SiteVersion): SiteVersion | null {
    const previous = this.current;
    this.current = next;
    return previous;
  }

  /** Ids of versions some request still uses (never pruned from disk). */
  busy(): string[] {
    return [...this.inFlight.keys()];
  }

  /** The version served now, not counted in flight: for an answer written in this turn. */
  peek(): SiteVersion | null {
    return this.current;
  }

  /** Runs `use` on the current version, counted in flight until the response is finished. */
  acquire(res: ServerResponse): SiteVersion | null {
    const version = this.current;
    if (!version) return null;
    this.inFlight.set(version.id, (this.inFlight.get(version.id) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.inFlight.get(version.id) ?? 1) - 1;
      if (n <= 0) this.inFlight.delete(version.id);
      else this.inFlight.set(version.id, n);
    };
    res.once('finish', release);
    res.once('close', release);
    return version;
  }
}
