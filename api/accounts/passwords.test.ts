import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { argon2Runs, hashPassword, verifyDummyPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('are hashed with Argon2id, m=19456 KiB, t=2, p=1, and verified', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored.startsWith('$argon2id$')).toBe(true);
    expect(parseOptions(stored)).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'correct horsE')).toBe(false);
  });

  it('treats a malformed stored hash as a mismatch', async () => {
    expect(await verifyPassword('not a hash', 'whatever')).toBe(false);
  });

  it('runs a real verification for unknown accounts', async () => {
    const before = argon2Runs.verify;
    expect(await verifyDummyPassword('guess')).toBe(false);
    expect(argon2Runs.verify).toBe(before + 1);
  });
});
