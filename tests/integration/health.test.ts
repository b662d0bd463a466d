import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHealth } from '#api/health.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

describe('health', { tags: ['pg-driver'] }, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  it('is ok while the database answers and pages render, an error otherwise', async () => {
    expect(await checkHealth(t.db)).toEqual({ status: 'ok', db: 'ok', pages: 'ok' });
    expect(await checkHealth(t.db, () => false)).toEqual({
      status: 'error',
      db: 'ok',
      pages: 'error',
    });
    await t.close();
    expect(await checkHealth(t.db)).toEqual({ status: 'error', db: 'error', pages: 'ok' });
  });
});
