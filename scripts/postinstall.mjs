// `npm install`'s last step, two things made once per install so that a first `npm start` has
// less to do, side by side (one is PGlite on one core, the other sharp on every core):
// - the migrated template of new embedded databases (api/db/template.ts, api/cli/db-template.ts),
//   unpacked instead of running `initdb` and every migration;
// - the demo catalogue's images (api/catalog/seed-renders.ts, api/cli/seed-renders.ts), stored
//   instead of drawn.
// Never fails the install: without them a first start makes the same things itself, only slower.
// Plain JavaScript, so an older Node says what it needs.
import { spawn } from 'node:child_process';
import path from 'node:path';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  console.warn(
    `galerie: Node ${process.versions.node} is too old (22.19 or newer is needed); the database template and the demo's images were not made.`,
  );
  process.exit(0);
}

const steps = [
  [
    'db-template.ts',
    'the database template was not made; a new embedded database will be made from scratch',
  ],
  ['seed-renders.ts', "the demo's images were not rendered; a first start will draw them itself"],
];
await Promise.all(
  steps.map(
    ([cli, otherwise]) =>
      new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [path.join(import.meta.dirname, '..', 'api', 'cli', cli)],
          {
            stdio: 'inherit',
          },
        );
        const fallBack = () => {
          console.warn(`galerie: ${otherwise} (see above).`);
          resolve();
        };
        child.on('error', fallBack);
        child.on('exit', (code) => (code === 0 ? resolve() : fallBack()));
      }),
  ),
);
