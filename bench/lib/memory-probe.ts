// Preloaded into the server by the soak bench (`node --expose-gc --import <this file>
// api/server.ts`), nothing in the server knows of it: when GALERIE_BENCH_PROBE_PORT is set, a
// second HTTP listener on 127.0.0.1 answers GET /memory with the process's memoryUsage(), and
// GET /memory?gc=1 runs a full garbage collection first (with --expose-gc) so the heap figure is
// what is still reachable. It runs on the server's own event loop; the variable is removed from
// the environment so the child processes the server starts (builds) never see it.
import http from 'node:http';

const port = Number(process.env['GALERIE_BENCH_PROBE_PORT'] ?? '');
delete process.env['GALERIE_BENCH_PROBE_PORT'];

if (port > 0) {
  const gc = (globalThis as { gc?: () => void }).gc;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://probe.invalid');
    if (url.pathname !== '/memory') {
      res.writeHead(404).end();
      return;
    }
    let gcMs: number | null = null;
    if (url.searchParams.get('gc') === '1' && gc) {
      const started = performance.now();
      gc();
      gcMs = performance.now() - started;
    }
    const m = process.memoryUsage();
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        rss: m.rss,
        heapUsed: m.heapUsed,
        heapTotal: m.heapTotal,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        gcMs,
      }),
    );
  });
  server.listen(port, '127.0.0.1');
  // Never what keeps the server alive, nor what delays its graceful shutdown.
  server.unref();
}
