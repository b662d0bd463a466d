// Start-up problems stop the server with one line saying what to fix, never a bare stack trace.
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MigrationError, migrateToLatest } from '#api/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

function runServer(
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['api/server.ts'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('start-up failures', () => {
  it('an unreachable DATABASE_URL stops start-up with one clear line', async () => {
    const result = await runServer({
      DATABASE_URL: 'postgres://galerie:secret@127.0.0.1:1/galerie',
      PORT: '0',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Galerie could not start: Cannot reach PostgreSQL at postgres:\/\/galerie:\*\*\*@127\.0\.0\.1:1\/galerie .*DATABASE_URL/,
    );
    expect(result.stderr).not.toContain('secret');
  });

  it('a malformed variable names itself', async () => {
    const result = await runServer({ PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Galerie could not start: PORT must be a number between 0 and 65535',
    );
  });

  describe('a failing migration', { tags: ['pg-server'] }, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase({ empty: true });
    });
    afterAll(() => t.dispose());

    it('is reported with its name and leaves nothing half applied', async () => {
      // A table in the way makes the initial migration fail part-way through.
      await sql`CREATE TABLE orders (id integer)`.execute(t.db);
      const failure = migrateToLatest(t.db);
      await expect(failure).rejects.toThrow(MigrationError);
      await expect(failure).rejects.toThrow(
        /^Migration 20261122_0300_initial failed: .*orders.*fix the migration or the database/,
      );
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'artworks'`.execute(
        t.db,
      );
      expect(rows[0]?.n).toBe(0);
    });
  });
});
