// The one Node HTTP server: built files first (from memory, precompressed), then Astro's handler
// for on-demand pages and endpoints (compressed on the fly), then the localized 404 page. Health and
// maintenance mode are decided here, before any of them (docs/decisions/012).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { log, newRequestId, runInRequest } from '../log.ts';
import { aliasTarget, workPageTarget } from './aliases.ts';
import {
  attachClient,
  clientResolver,
  thisMachineResolver,
  TRUST_NOTHING,
  type TrustProxy,
} from './client.ts';
import { CompressingResponse } from './compress.ts';
import { securityHeaderList, securityHeaders } from './headers.ts';
import type { BodyGate } from './body-gate.ts';
import { DATABASE_RETRY_AFTER_SECONDS, ERRORS, isConnectionError } from './errors.ts';
import {
  ALLOW_HEADER,
  BODY_BUDGET_BYTES,
  BodyBudget,
  bodyLimit,
  declaresTooMuch,
  hasBody,
  hasUndeclaredBody,
  KNOWN_METHODS,
  readUndeclaredBody,
  refuseBody,
  refuseUnread,
} from './request-limits.ts';
import { LiveSite, type NodeHandler, type SiteVersion } from './site.ts';
import type { StaticFiles } from './static-files.ts';

export type { NodeHandler } from './site.ts';

/** What the HTTP layer decides before anything is served (maintenance mode, api/http/maintenance.ts). */
export type Gate = ((
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  version: SiteVersion,
) => Promise<'open' | 'answered' | 'notice'> | 'open' | 'answered' | 'notice') & {
  /** True when every request would be let through now, known without reading anything. */
  openNow?: () => boolean;
};

export interface AppOptions {
  /** The served version, swapped by publishing; or a fixed one (tests). */
  site?: LiveSite;
  staticFiles?: StaticFiles;
  handler?: NodeHandler;
  /** Answers first when it returns true (the payment emulator's /v1/* and /emulator/*). */
  before?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** `/api/health`, answered here so it tells whether pages can be rendered at all. */
  health?: () => Promise<{ status: 'ok' | 'error' }>;
  gate?: Gate;
  /** Sees every request first, with its path (private visit counts, api/visits): must be cheap
   * and never throw; it may listen for the response's end. A built file's answer, whose headers
   * are not kept in the response, gives its Content-Type. */
  observe?: (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    contentType?: string,
  ) => void;
  /** GET /api/availability from memory (api/catalog/availability-cache.ts); every unsafe
   * request invalidates it once answered. */
  availability?: {
    serve: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    invalidate: () => void;
  };
  /** PUBLIC_SITE_URL: an https:// site is announced HSTS (api/http/headers.ts). */
  siteUrl?: string;
  /** TRUST_PROXY: whose X-Forwarded-For / -Proto are believed (api/http/client.ts). */
  trustProxy?: TrustProxy;
  /** Decides, on the headers alone, whether a request may send its body (api/http/body-gate.ts). */
  bodyGate?: BodyGate;
  /** Bytes of bodies read at once, all requests together (default BODY_BUDGET_BYTES). */
  bodyBudget?: number;
}

export interface GalerieServer {
  server: http.Server;
  site: LiveSite;
  /** Set when shutdown starts: responses then close their connection. */
  draining: { value: boolean };
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

const METHOD_NOT_ALLOWED = { code: 'method_not_allowed', message: 'Method not allowed.' };
const BUSY = JSON.stringify({
  error: { code: 'busy', message: 'The server is receiving too much at once; try again shortly.' },
});

export function fixedSite(staticFiles: StaticFiles, handler: NodeHandler): LiveSite {
  const site = new LiveSite();
  site.swap({ id: 'fixed', staticFiles, handler });
  return site;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A request on its way through the layer, once its path and client are known. */
interface Request {
  req: IncomingMessage;
  res: ServerResponse;
  pathname: string;
  client: ReturnType<ReturnType<typeof clientResolver>>;
  maxBody: number;
}

export function createGalerieServer(options: AppOptions): GalerieServer {
  const { before, health, gate, observe, availability } = options;
  const site =
    options.site ??
    (options.staticFiles && options.handler
      ? fixedSite(options.staticFiles, options.handler)
      : new LiveSite());
  const draining = { value: false };
  const resolveClient = clientResolver(options.trustProxy ?? TRUST_NOTHING);
  // Only the first administrator's setup link reads it (src/pages/admin/login.astro).
  const isFromThisMachine = thisMachineResolver(options.trustProxy ?? TRUST_NOTHING);
  const budget = new BodyBudget(options.bodyBudget ?? BODY_BUDGET_BYTES);

  const notFound = (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    staticFiles: StaticFiles,
  ) => {
    const page = pathname === '/en' || pathname.startsWith('/en/') ? '/en/404' : '/404';
    const file = staticFiles.lookup(page);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) {
      staticFiles.send(req, res, file, 404);
      return;
    }
    json(res, 404, { error: { code: 'not_found', message: 'Not found' } });
  };

  // A request is answered synchronously as far as it can be: a built file, when nothing on its
  // way needs the database, is written within the same turn that read the request (no promise,
  // no microtask, no version held in flight: its bytes are in memory and the write keeps them).
  const handle = (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    securityHeaders(res, { siteUrl: options.siteUrl ?? '' });
    if (draining.value) res.setHeader('Connection', 'close');
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    // The client, resolved once (TRUST_PROXY): visit counts read it here, Astro in `locals`.
    const client = resolveClient(req);
    attachClient(req, client);
    observe?.(req, res, pathname);
    // Whatever an unsafe request changed (a hold, a sale, a work edited) shows on the next look.
    if (availability && !SAFE_METHODS.has(req.method ?? ''))
      res.once('close', () => availability.invalidate());
    // Methods nobody answers and bodies larger than the path needs, refused before any reading.
    if (!KNOWN_METHODS.has(req.method ?? '')) {
      json(res, 405, { error: METHOD_NOT_ALLOWED }, { Allow: ALLOW_HEADER });
      return;
    }
    const maxBody = bodyLimit(pathname);
    if (declaresTooMuch(req, maxBody)) {
      refuseBody(req, res);
      return;
    }
    const request: Request = { req, res, pathname, client, maxBody };
    if (hasBody(req))
      return admitBody(request).then((admitted) => (admitted ? route(request) : undefined));
    return route(request);
  };

  /** Who may send a body, then whether there is room for it: both before a byte is read. */
  const admitBody = async ({ req, res, pathname, maxBody }: Request): Promise<boolean> => {
    const refused = await options.bodyGate?.(req, pathname);
    if (refused) {
      refuseUnread(req, res, refused.status, JSON.stringify({ error: refused }));
      return false;
    }
    const declared = req.headers['content-length'];
    if (!budget.reserve(declared === undefined ? maxBody : Number(declared), res)) {
      log.warn(`Refused a body on ${pathname}: ${budget.inUse} bytes of bodies being read`);
      refuseUnread(req, res, 503, BUSY, { 'Retry-After': '5' });
      return false;
    }
    return true;
  };

  const route = (request: Request): void | Promise<void> => {
    const { req, res, pathname } = request;
    if (health && pathname === '/api/health') {
      return health().then((result) => json(res, result.status === 'ok' ? 200 : 503, result));
    }
    if (before?.(req, res)) return;
    const version = site.peek();
    if (!version) {
      // Listening before the first version is loaded: say so instead of refusing connections.
      json(
        res,
        503,
        { error: { code: 'starting', message: 'The site is starting, try again in a moment' } },
        { 'Retry-After': '5' },
      );
      return;
    }
    const decision = gate ? gate(req, res, pathname, version) : 'open';
    if (typeof decision === 'string') return answer(request, version, decision, false);
    // The gate reads the database: the version stays in use until the answer is finished.
    const held = site.acquire(res) ?? version;
    return decision.then((decided) => answer(request, held, decided, true));
  };

  const answer = (
    request: Request,
    version: SiteVersion,
    decision: 'open' | 'answered' | 'notice',
    held: boolean,
  ): void | Promise<void> => {
    const { req, res, pathname, client, maxBody } = request;
    if (decision === 'answered') return;
    // An overlay link of the gallery from before the works had pages (issue 25): to the page.
    const workPage =
      (req.method === 'GET' || req.method === 'HEAD') &&
      workPageTarget(req.url ?? '/', (page) => version.staticFiles.lookup(page) !== undefined);
    if (workPage) {
      res.writeHead(301, { Location: workPage, 'Cache-Control': 'public, max-age=3600' });
      res.end();
      return;
    }
    if (
      decision === 'notice'
        ? serveWithNotice(req, res, pathname, version.staticFiles)
        : version.staticFiles.serve(req, res, pathname)
    )
      return;
    if (
      availability &&
      pathname === '/api/availability' &&
      (req.method === 'GET' || req.method === 'HEAD')
    ) {
      return availability.serve(req, res);
    }
    const alias = aliasTarget(req.url ?? '/');
    if (alias && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(301, { Location: alias, 'Cache-Control': 'public, max-age=86400' });
      res.end();
      return;
    }
    // Astro's handler may read its server files long after this turn: the version stays in use
    // (never pruned from disk) until the answer is finished.
    if (!held) site.acquire(res);
    return render(req, res, pathname, client, maxBody, version);
  };

  const render = async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    client: Request['client'],
    maxBody: number,
    version: SiteVersion,
  ): Promise<void> => {
    if (hasUndeclaredBody(req)) {
      // Astro takes a body already read (`req.body`) as it is.
      const body = await readUndeclaredBody(req, maxBody);
      if (!body) {
        refuseBody(req, res);
        return;
      }
      (req as IncomingMessage & { body?: Buffer }).body = body;
    }
    // What is rendered now is compressed now (api/http/compress.ts); built files were at build time.
    if (res instanceof CompressingResponse) res.compressOnTheFly();
    void Promise.resolve(
      version.handler(req, res, () => notFound(req, res, pathname, version.staticFiles), {
        client,
        fromThisMachine: isFromThisMachine(req),
      }),
    ).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ERR_MODULE_NOT_FOUND')
        site.markBroken(version.id);
      fail(req, res, pathname, error);
    });
  };

  const fail = (req: IncomingMessage, res: ServerResponse, pathname: string, error: unknown) => {
    if (isConnectionError(error)) {
      // The database went away under a request that escaped the routes' own handling (the
      // middleware's settings read, for one): like theirs, a 503 the client may retry.
      log.warn({ err: error, method: req.method, path: pathname }, 'Database unreachable');
      if (!res.headersSent) {
        const { status, message } = ERRORS.database_unavailable;
        json(
          res,
          status,
          { error: { code: 'database_unavailable', message } },
          { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
        );
      } else res.destroy();
      return;
    }
    // The path without its query (a reset link's token travels there); the error without its data.
    log.error(
      { err: error, method: req.method, path: pathname },
      `Request ${req.method} ${pathname} failed`,
    );
    if (!res.headersSent)
      json(res, 500, { error: { code: 'internal', message: 'Internal error' } });
    else res.destroy();
  };

  // The static path (issue 28): a built file asked for plainly — GET or HEAD, no query, no body,
  // no condition — while the gate is open is answered here, before anything else is set up, with
  // its headers written in one list. Anything else takes the whole way below, which answers such a
  // request the same.
  const common = securityHeaderList({ siteUrl: options.siteUrl ?? '' });
  const serveBuilt = (req: IncomingMessage, res: ServerResponse, reqId: string): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    if (url.includes('?') || hasBody(req) || req.headers['if-none-match'] !== undefined)
      return false;
    const version = site.peek();
    if (!version || (gate && !gate.openNow?.())) return false;
    const file = version.staticFiles.lookup(url);
    if (!file) return false;
    attachClient(req, resolveClient(req));
    observe?.(req, res, url, file.type);
    version.staticFiles.sendBuilt(req, res, file, common, reqId, draining.value);
    return true;
  };

  const server = http.createServer({ ServerResponse: CompressingResponse }, (req, res) => {
    // One id per request: on every line logged while answering it (api/log.ts), and in the answer.
    const reqId = newRequestId();
    try {
      if (serveBuilt(req, res, reqId)) return;
    } catch (error) {
      fail(req, res, (req.url ?? '/').split('?')[0] ?? '/', error);
      return;
    }
    res.setHeader('X-Request-Id', reqId);
    const failed = (error: unknown) => fail(req, res, (req.url ?? '/').split('?')[0] ?? '/', error);
    runInRequest(reqId, () => {
      try {
        handle(req, res)?.catch(failed);
      } catch (error) {
        failed(error);
      }
    });
  });
  // `Expect: 100-continue` (curl above 1 MB): a body too large is refused before it is sent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (!declaresTooMuch(req, bodyLimit(pathname))) res.writeContinue();
    server.emit('request', req, res);
  });
  // An idle keep-alive connection stays open 65 s (Node's default is 5 s): a client reusing it
  // just as the server closes it gets ECONNRESET for a request it never sent (seen in CI on a
  // loaded machine, a PDF fetched a few seconds after the previous request). Browsers retry such a
  // request, most HTTP clients do not; 65 s also outlasts the 60 s idle timeout of the usual
  // reverse proxies in front, so they never reuse a connection we are closing.
  server.keepAliveTimeout = 65_000;
  return { server, site, draining };
}

/**
 * A prerendered HTML page for a signed-in administrator during maintenance: the same page with
 * its "Mode maintenance actif" notice shown (Base.astro renders it hidden). Never cached.
 */
function serveWithNotice(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  staticFiles: StaticFiles,
): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const file = staticFiles.lookup(pathname);
  if (!file) return false;
  if (!file.type.startsWith('text/html')) return staticFiles.serve(req, res, pathname);
  const html = file.identity.body
    .toString('utf8')
    .replace('data-maintenance-notice hidden', 'data-maintenance-notice');
  res.statusCode = 200;
  res.setHeader('Content-Type', file.type);
  res.setHeader('Cache-Control', 'private, no-store');
  res.end(req.method === 'HEAD' ? undefined : html);
  return true;
}

export interface ShutdownOptions {
  /** Runs once the server has stopped and every request in flight has finished. */
  onClosed: () => Promise<void>;
  /** Requests still running after this long are cut. */
  timeoutMs?: number;
  log?: (line: string) => void;
  exit?: (code: number) => void;
}

/**
 * SIGTERM / SIGINT: stop accepting connections, let requests in flight finish, close idle
 * keep-alive connections, then close the database and exit 0.
 */
export function installGracefulShutdown(
  app: GalerieServer,
  options: ShutdownOptions,
): () => Promise<void> {
  const say = options.log ?? ((line: string) => log.info(line));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping: Promise<void> | undefined;

  const shutdown = (signal: string): Promise<void> => {
    stopping ??= (async () => {
      say(`Galerie: ${signal} received, finishing requests in flight…`);
      app.draining.value = true;
      const closed = new Promise<void>((resolve) => app.server.close(() => resolve()));
      app.server.closeIdleConnections();
      const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
      const force = setTimeout(() => app.server.closeAllConnections(), options.timeoutMs ?? 10_000);
      await closed;
      clearInterval(sweeper);
      clearTimeout(force);
      await options.onClosed();
      say('Galerie: stopped.');
      exit(0);
    })();
    return stopping;
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return () => shutdown('shutdown');
}
