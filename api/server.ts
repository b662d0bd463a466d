// Production entry (`npm start`): turns on Node's compile cache, then loads the server
// (./server-main.ts). A restart, a deploy, each test's server then reads the compiled code of the
// modules it loads (ours, Astro's handler, Kysely, PGlite, pino…) instead of compiling them again:
// 0.3–0.5 CPU-s less per start on a 2-core host, ready 0.1–0.3 s sooner (docs/decisions/064).
// Not on a first start (no version built yet): there the cache would only be written, and
// writing it cost about 2 s of the way to ready; the next start writes it. Only the small
// versions module is imported before: whatever is imported statically is compiled before the
// cache is on. The folder is Node's default, `os.tmpdir()/node-compile-cache`, which several
// processes may share at once; NODE_COMPILE_CACHE names another, NODE_DISABLE_COMPILE_CACHE=1
// turns it off. A missing or stale entry is compiled as usual: the cache never changes what runs.
import { enableCompileCache } from 'node:module';
import path from 'node:path';
import { distDirOf, readCurrent } from './build/versions.ts';

if (readCurrent(distDirOf(path.resolve(import.meta.dirname, '..')))) enableCompileCache();
await import('./server-main.ts');
