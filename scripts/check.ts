// `npm run check`: type check (astro check: the .astro files and every .ts file of the project,
// with the same tsconfig tsc would read), lint, format check and schema drift check, side
// by side — each is one process that mostly waits on a single core — with each one's output
// printed whole once it ends. Fails when any fails. First `astro sync`: the typed lint rules need
// the types it generates in .astro/ (a fresh clone has none).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

const checks: { name: string; command: string; args: string[]; env?: NodeJS.ProcessEnv }[] = [
  {
    name: 'astro check',
    command: bin('astro'),
    args: ['check', '--minimumSeverity', 'warning'],
    env: { GALERIE_CATALOG_SNAPSHOT: 'defaults' },
  },
  // `npm run lint` in two processes, each with the programs it needs: the .astro files (and
  // their client scripts) with the classic TypeScript program astro-eslint-parser uses, the rest
  // with the project service. In one process the two ran one after the other and were this
  // check's longest part.
  {
    name: 'eslint (.astro)',
    command: bin('eslint'),
    args: ['src/**/*.astro', '--max-warnings', '0'],
  },
  {
    name: 'eslint',
    command: bin('eslint'),
    args: ['.', '--ignore-pattern', '**/*.astro', '--max-warnings', '0'],
  },
  { name: 'prettier', command: bin('prettier'), args: ['--check', '.'] },
  { name: 'db:types', command: process.execPath, args: ['api/cli/db-types.ts', '--check'] },
];

const sync = spawnSync(bin('astro'), ['sync'], {
  cwd: root,
  env: { ...process.env, GALERIE_CATALOG_SNAPSHOT: 'defaults' },
  encoding: 'utf8',
});
if (sync.status !== 0) {
  console.log(`── astro sync: FAILED\n${sync.stdout}${sync.stderr}`);
  process.exit(1);
}

const results = await Promise.all(
  checks.map(
    (check) =>
      new Promise<{ name: string; ok: boolean; output: string; seconds: number }>((resolve) => {
        const started = performance.now();
        const child = spawn(check.command, check.args, {
          cwd: root,
          env: { ...process.env, ...check.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr.on('data', (c: Buffer) => (output += c.toString()));
        child.on('close', (code) => {
          const result = {
            name: check.name,
            ok: code === 0,
            output,
            seconds: (performance.now() - started) / 1000,
          };
          console.log(
            `\n── ${result.name}: ${result.ok ? 'ok' : 'FAILED'} (${result.seconds.toFixed(0)} s)\n${output.trimEnd()}`,
          );
          resolve(result);
        });
      }),
  ),
);
const failed = results.filter((r) => !r.ok).map((r) => r.name);
console.log(failed.length ? `\ncheck failed: ${failed.join(', ')}` : '\ncheck: all passed');
process.exit(failed.length ? 1 : 0);
