// Issue 24, "The owner's account": an administrator's session ends after 2 hours without a
// request and 7 days after sign-in however active; a customer's keeps its 30 days, renewed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_IDLE_MS,
  ADMIN_LIFETIME_MS,
  createSession,
  validateSessionToken,
} from '#api/accounts/sessions.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { makeUser } from '../helpers/factories.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.dispose());

const MINUTE = 60_000;
const at = (start: Date, ms: number) => new Date(start.getTime() + ms);

describe('administrators’ sessions', () => {
  it('end after two hours without a request', async () => {
    const { id } = await makeUser(t.db, { role: 'admin' });
    const start = new Date('2026-11-26T08:00:00Z');
    const { token } = await createSession(t.db, id, start);
    // Used within each two hours, it lives on.
    let now = start;
    for (let i = 0; i < 4; i++) {
      now = at(now, ADMIN_IDLE_MS - MINUTE);
      expect(
        await validateSessionToken(t.db, token, now),
        `after ${i + 1} × 1 h 59`,
      ).not.toBeNull();
    }
    // Then two hours and a minute without one: over, and gone.
    expect(await validateSessionToken(t.db, token, at(now, ADMIN_IDLE_MS + MINUTE))).toBeNull();
    expect(await validateSessionToken(t.db, token, at(now, MINUTE))).toBeNull();
  });

  it('end seven days after sign-in, however active', async () => {
    const { id } = await makeUser(t.db, { role: 'admin' });
    const start = new Date('2026-11-26T08:00:00Z');
    const { token } = await createSession(t.db, id, start);
    let now = start;
    while (now.getTime() + ADMIN_IDLE_MS / 2 < start.getTime() + ADMIN_LIFETIME_MS) {
      expect(await validateSessionToken(t.db, token, now)).not.toBeNull();
      now = at(now, ADMIN_IDLE_MS / 2);
    }
    expect(
      await validateSessionToken(t.db, token, at(start, ADMIN_LIFETIME_MS + MINUTE)),
    ).toBeNull();
  });

  it('leave customers’ sessions as they were: days without a request are fine', async () => {
    const { id } = await makeUser(t.db);
    const start = new Date('2026-11-26T08:00:00Z');
    const { token } = await createSession(t.db, id, start);
    expect(await validateSessionToken(t.db, token, at(start, 10 * 24 * 3600_000))).not.toBeNull();
  });
});
