import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.ts';
import {
  argon2Runs,
  assertUncommonPassword,
  hashPassword,
  isCommonPassword,
  PASSWORD_TOO_COMMON,
  verifyDummyPassword,
  verifyPassword,
} from './passwords.ts';

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

  it('knows the 10 000 most common passwords, whatever their case', () => {
    for (const common of ['password', 'PassWord', 'azerty', 'password123', 'Bonjour', 'soleil'])
      expect(isCommonPassword(common), common).toBe(true);
    for (const rare of ['correct horse', 'toile-de-lin-74', 'k7#qz!', 'atelier de Lisbonne 2026'])
      expect(isCommonPassword(rare), rare).toBe(false);
  });

  it('refuses a common password with the field error the forms show under the password', () => {
    let thrown: unknown;
    try {
      assertUncommonPassword('Azerty');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: 'invalid_input',
      fields: { password: PASSWORD_TOO_COMMON },
    });
    expect(() => assertUncommonPassword('k7#qz!')).not.toThrow();
  });
});
