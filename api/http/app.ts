// The one Node HTTP server: built files first (from memory, precompressed), then Astro's handler
// for on-demand pages and endpoints (compressed on the fly), then the localized 404 page.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import compression from 'compression';
import { aliasTarget } from './aliases.ts';
import type { StaticFiles } from './static-files.ts';

export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void | Promise<void>;

export interface AppOptions {
  staticFiles: StaticFiles;
  /** Astro's middleware-mode handler (dist/server/entry.mjs), or any handler in tests. */
  handler: NodeHandler;
  /** Answers first when it returns true (the payment emulator's /v1/* and /emulator/*). */
  before?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export interface GalerieServer {
  server: http.Server;
  /** Set when shutdown starts: responses then close their connection. */
  draining: { value: boolean };
}

// `compression` is typed for Express but only touches the plain Node request and response.
type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
const compress = compression({
  threshold: 512,
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
}) as unknown as NodeMiddleware;

export function createGalerieServer({ staticFiles, handler, before }: AppOptions): GalerieServer {
  const draining = { value: false };

  const notFound = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const page = pathname === '/en' || pathname.startsWith('/en/') ? '/en/404' : '/404';
    const file = staticFiles.lookup(page);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) {
      staticFiles.send(req, res, file, 404);
      return;
    }
    res.statusCode = 404;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ error: { code: 'not_found', message: 'Not found' } }));
  };

  const server = http.createServer((req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (draining.value) res.setHeader('Connection', 'close');
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (staticFiles.serve(req, res, pathname)) return;
    if (before?.(req, res)) return;
    const alias = aliasTarget(req.url ?? '/');
    if (alias && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(301, { Location: alias, 'Cache-Control': 'public, max-age=86400' });
      res.end();
      return;
    }
    compress(req, res, () => {
      void Promise.resolve(handler(req, res, () => notFound(req, res, pathname))).catch(
        (error: unknown) => {
          console.error(`Request ${req.method} ${pathname} failed:`, error);
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader('Content-Type', 'application/json; charset=utf-8');
            res.end(JSON.stringify({ error: { code: 'internal', message: 'Internal error' } }));
          } else {
            res.destroy();
          }
        },
      );
    });
  });
  server.keepAliveTimeout = 5000;
  return { server, draining };
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
  const log = options.log ?? ((line: string) => console.log(line));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping: Promise<void> | undefined;

  const shutdown = (signal: string): Promise<void> => {
    stopping ??= (async () => {
      log(`Galerie: ${signal} received, finishing requests in flight…`);
      app.draining.value = true;
      const closed = new Promise<void>((resolve) => app.server.close(() => resolve()));
      app.server.closeIdleConnections();
      const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
      const force = setTimeout(() => app.server.closeAllConnections(), options.timeoutMs ?? 10_000);
      await closed;
      clearInterval(sweeper);
      clearTimeout(force);
      await options.onClosed();
      log('Galerie: stopped.');
      exit(0);
    })();
    return stopping;
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return () => shutdown('shutdown');
}
