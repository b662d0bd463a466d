import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHealth } from '#api/health.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

describe('health', { tags: ['pg-driver'] }, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.dispose());

  // The database's answer is waited for without the 2 s bound a load balancer's probe gets: on a
  // loaded machine a first query can take longer, and how fast it is is not what is checked here.
  const patient = 120_000;

  it('is ok while the database answers and pages render, an error otherwise', async () => {
    expect(await checkHealth(t.db, undefined, patient)).toEqual({
      status: 'ok',
      db: 'ok',
      pages: 'ok',
    });
    expect(await checkHealth(t.db, () => false, patient)).toEqual({
      status: 'error',
      db: 'ok',
      pages: 'error',
    });
    await t.close();
    expect(await checkHealth(t.db, undefined, patient)).toEqual({
      status: 'error',
      db: 'error',
      pages: 'ok',
    });
  });
});
