// `npm install`'s last step: the migrated template of new embedded databases
// (api/db/template.ts), so that a first `npm start` unpacks its database instead of running
// `initdb` and every migration. Never fails the install: without the template a new database is
// made as before, only slower. Plain JavaScript, so an older Node says what it needs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  console.warn(
    `galerie: Node ${process.versions.node} is too old (22.19 or newer is needed); the database template was not made.`,
  );
  process.exit(0);
}
const cli = path.join(import.meta.dirname, '..', 'api', 'cli', 'db-template.ts');
const result = spawnSync(process.execPath, [cli], { stdio: 'inherit' });
if (result.status !== 0)
  console.warn(
    'galerie: the database template was not made (see above); a new embedded database will be made from scratch.',
  );
