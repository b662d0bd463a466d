// Starts the real server for the end-to-end tests on a fresh shop of their own: the golden shop
// (tests/setup/golden.ts: seeded, images encoded, built for this server's address) copied into
// .cache/e2e-data-<port>, and with DATABASE_URL a database cloned from the golden template. So the
// server starts in a second or two: it has nothing to migrate, seed, encode or build.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  cloneDatabase,
  copyGoldenShop,
  dropDatabase,
  ensureGoldenShop,
  makeGoldenTemplate,
} from '../setup/golden.ts';
import { E2E_ADMIN } from './admin.ts';
import { databaseName, shopDir, SHOPS, siteUrlOf } from './shops.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
// This server's port (playwright.config.ts); E2E_PORT, the first of the run's, stays as given.
const port = process.env['E2E_SHOP_PORT'] ?? String(SHOPS.shop);
const siteUrl = siteUrlOf(port);
const work = shopDir(port);
fs.rmSync(work, { recursive: true, force: true });

// Every shop of the run is built for its own address: made at once, whichever server asks first
// (the others find them made), so the builds share the two cores instead of taking turns.
const log = (line: string) => console.log(`e2e ${port}: ${line}`);
const [golden] = await Promise.all(
  [port, ...Object.values(SHOPS).filter((p) => String(p) !== port)].map((p) =>
    ensureGoldenShop(siteUrlOf(p), log),
  ),
);
// DATA_DIR is the folder itself (the specs read its mail/), the versions beside it.
const { dataDir, dist } = await copyGoldenShop(golden!, work);

const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  GALERIE_DIST_DIR: dist,
  PORT: port,
  HOST: '127.0.0.1',
  PUBLIC_SITE_URL: siteUrl,
  SMTP_URL: '',
  BACKUPS: 'off',
};

const url = process.env['DATABASE_URL'];
const name = databaseName(Number(port));
let template: string | undefined;
if (url) {
  // One template for the run's servers (E2E_RUN: playwright.config.ts).
  template = await makeGoldenTemplate(url, golden!, Number(process.env['E2E_RUN'] ?? process.pid));
  env['DATABASE_URL'] = await cloneDatabase(url, template, name);
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
fs.writeFileSync(E2E_ADMIN.invitationFile(port), link);

const server = spawn(process.execPath, [path.join(root, 'api', 'server.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  const done = () => process.exit(code ?? 0);
  if (!url) return done();
  // The template and this server's database go with the run.
  void Promise.all([dropDatabase(url, template!), dropDatabase(url, name)]).finally(done);
});
