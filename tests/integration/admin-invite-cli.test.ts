// `npm run admin:invite` (issue 9): the link points where the shop really runs, and when the
// server holds the embedded database the command says what to do instead of suggesting another
// data directory (which would invite an administrator into a different database).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../helpers/db.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

function invite(
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['api/cli/admin-invite.ts', 'owner@example.org'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', PUBLIC_SITE_URL: '', PORT: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// The command and its messages do not depend on the database kind: run once.
describe.skipIf(testDbKind() !== 'pglite')('npm run admin:invite', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-invite-'));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('prints a link on the port it is given', async () => {
    const result = await invite({ DATA_DIR: dataDir, PORT: '8080' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^http:\/\/localhost:8080\/admin\/invitation\?token=[\w.-]+$/m);
  });

  it('uses the address the running server recorded', async () => {
    // A live process recorded as the shop's server (this test process stands in for it).
    await fs.writeFile(
      path.join(dataDir, 'server.json'),
      JSON.stringify({ pid: process.pid, siteUrl: 'https://galerie.example' }),
    );
    try {
      const result = await invite({ DATA_DIR: dataDir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^https:\/\/galerie\.example\/admin\/invitation\?token=/m);
    } finally {
      await fs.rm(path.join(dataDir, 'server.json'));
    }
  });

  it('says to stop the server when it holds the embedded database', async () => {
    await fs.writeFile(path.join(dataDir, 'pgdata.lock'), String(process.pid));
    try {
      const result = await invite({ DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`the shop's server (process ${process.pid}) holds`);
      expect(result.stderr).toContain('Stop the server');
      expect(result.stderr).not.toContain('DATA_DIR');
      expect(result.stdout).not.toContain('/admin/invitation');
    } finally {
      await fs.rm(path.join(dataDir, 'pgdata.lock'), { force: true });
    }
  });
});
