// Starts the real server for the end-to-end tests on a database of their own: a fresh DATA_DIR
// for the embedded database, or a fresh PostgreSQL database when DATABASE_URL is set.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { databaseUrlFor, quoteIdent } from '../helpers/pg-admin.ts';
import { E2E_ADMIN } from './admin.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const port = process.env['E2E_PORT'] ?? '4399';
// One per port, so two suites can run side by side (E2E_PORT).
const dataDir = path.join(root, '.cache', `e2e-data-${port}`);
await fs.rm(dataDir, { recursive: true, force: true });

const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: port,
  HOST: '127.0.0.1',
  PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
  SMTP_URL: '',
};

const url = process.env['DATABASE_URL'];
if (url) {
  const name = `galerie_e2e_${port}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
  await client.end();
  env['DATABASE_URL'] = databaseUrlFor(url, name);
}

// The owner's invitation, made as a newcomer would (npm run admin:invite) before the server
// holds the database; tests/e2e/admin.ts accepts it once and signs in afterwards.
const invite = spawnSync(
  process.execPath,
  [path.join(root, 'api', 'cli', 'admin-invite.ts'), E2E_ADMIN.email],
  { cwd: root, env, encoding: 'utf8' },
);
const link = /\/admin\/invitation\?token=\S+/.exec(invite.stdout)?.[0];
if (invite.status !== 0 || !link) {
  console.error(`e2e: admin:invite failed:\n${invite.stdout}${invite.stderr}`);
  process.exit(1);
}
await fs.writeFile(E2E_ADMIN.invitationFile, link);

const server = spawn(process.execPath, [path.join(root, 'api', 'server.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
