// Test files share their worker process (vitest.config.ts: `isolate` off): each starts as it would
// in a process of its own — with the environment variables the worker started with, and without
// what an earlier file provided to the application's process-wide holders and did not take back.
// Modules stay loaded: that is the saving (docs/decisions/066). The holders are the values the
// server and its separately bundled Astro handler share on `globalThis` under
// `Symbol.for('galerie.…')` (the database, the mailer, the payments client, the publish queue and
// its standby, the settings cache): all of them are taken back, so a holder added later needs no
// entry here. The logger's stays: api/log.ts keeps its state in the module, and the next setup
// file sets its sink per file.
const KEPT = new Set(['galerie.log']);

const START_ENV = Symbol.for('vitest-setup.start-env');
const shared = globalThis as typeof globalThis & Record<symbol, unknown>;
const startEnv = (shared[START_ENV] ??= { ...process.env }) as NodeJS.ProcessEnv;

for (const key of Object.keys(process.env)) if (!(key in startEnv)) delete process.env[key];
Object.assign(process.env, startEnv);

for (const key of Object.getOwnPropertySymbols(shared)) {
  const name = Symbol.keyFor(key);
  if (name?.startsWith('galerie.') && !KEPT.has(name)) delete shared[key];
}
