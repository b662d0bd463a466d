// Issue 24, break 5: under the default umask, PGlite's 968 files were 0666 (it ignores the umask):
// another local user could write pg_control, read backups (password hashes, personal data) and the
// .eml files holding reset links. Now, whatever the umask the server or a tool starts with,
// DATA_DIR and the backups' folder are 0700, and what is under them the owner's only — what was
// there before, what PGlite creates, mails and backups written afterwards.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePrivate } from '#api/private-files.ts';
import { testDbKind } from '../helpers/db.ts';
import { freshShop, root, startServer, type FreshShop } from '../helpers/server.ts';
import { until } from '../helpers/wait.ts';

/** Every entry under `dir` (and itself) that a group or other user could read, write or enter. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) found.push(`${(stat.mode & 0o777).toString(8)} ${entry}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return found;
}

function openUp(dir: string): void {
  fs.chmodSync(dir, 0o777);
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const entry = path.join(dir, name);
    if (!fs.lstatSync(entry).isSymbolicLink()) fs.chmodSync(entry, 0o777);
  }
}

describe('makePrivate', () => {
  it('takes every group and other bit off folders and files, keeping the owner’s', () => {
    const dir = fs.mkdtempSync(path.join(root, '.cache', 'private-'));
    try {
      fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'a', 'b', 'f'), 'x');
      fs.writeFileSync(path.join(dir, 'run'), 'x');
      openUp(dir);
      fs.chmodSync(path.join(dir, 'run'), 0o755);
      expect(makePrivate(dir).fixed).toHaveLength(5);
      expect(openToOthers(dir)).toEqual([]);
      expect(fs.statSync(path.join(dir, 'run')).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, 'a', 'b', 'f')).mode & 0o777).toBe(0o700);
      expect(makePrivate(dir).fixed).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(testDbKind() !== 'pglite')('the shop’s files, under umask 000', () => {
  let shop: FreshShop;
  let backups: string;

  beforeAll(async () => {
    shop = await freshShop('private-files');
    backups = path.join(shop.work, 'backups');
    openUp(shop.dataDir);
  });
  afterAll(() => shop?.remove());

  it('the server leaves nothing readable by others: the database, media, mails', async () => {
    const server = await startServer({ ...shop, umask: 0o000, env: { BACKUP_DIR: backups } });
    try {
      const forgot = await fetch(`${server.base}/api/auth/password/forgot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: shop.siteUrl },
        body: JSON.stringify({ email: 'someone@example.org', locale: 'fr' }),
      });
      expect(forgot.status).toBe(200);
      const mails = path.join(shop.dataDir, 'mail');
      // No account: no mail. A contact message is mailed to the gallery.
      const contact = await fetch(`${server.base}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: shop.siteUrl },
        body: JSON.stringify({
          name: 'Inês Ferreira',
          email: 'ines@example.org',
          subject: 'private_visit',
          message: 'Une visite privée, samedi ?',
          locale: 'fr',
        }),
      });
      expect(contact.status, await contact.text()).toBeLessThan(300);
      await until(
        'the contact mail on disk',
        () => fs.existsSync(mails) && fs.readdirSync(mails).some((f) => f.endsWith('.eml')),
      );
      expect(openToOthers(shop.dataDir)).toEqual([]);
      expect(openToOthers(backups)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('a backup made under umask 000 is the owner’s only', () => {
    openUp(shop.dataDir);
    const run = spawnSync(
      '/bin/sh',
      ['-c', 'umask 000 && exec "$0" api/cli/backup.ts', process.execPath],
      {
        cwd: root,
        encoding: 'utf8',
        env: {
          ...process.env,
          DATABASE_URL: '',
          DATA_DIR: shop.dataDir,
          BACKUP_DIR: backups,
          LOG_FORMAT: 'json',
        },
      },
    );
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(fs.readdirSync(backups).length).toBeGreaterThan(0);
    expect(openToOthers(shop.dataDir)).toEqual([]);
    expect(openToOthers(backups)).toEqual([]);
  });
});
