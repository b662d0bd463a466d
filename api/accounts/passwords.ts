// Password hashing with Argon2id at the OWASP minimum (m = 19456 KiB, t = 2, p = 1), and the dummy
// verification that makes "no such account" cost the same time as a wrong password.
import { hash, verify } from '@node-rs/argon2';
// storefront §5, §9: at least 6 characters; more than 256 is refused (Argon2 cost, abuse).
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../src/schemas/accounts.ts';

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

// Argon2id is @node-rs/argon2's default algorithm (its `Algorithm` is a const enum, which
// isolated modules cannot import); the PHC string records it and `verify` checks it.
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Counts every Argon2 run, so tests can prove that an answer cost a real hash or verify. */
export const argon2Runs = { hash: 0, verify: 0 };

export async function hashPassword(password: string): Promise<string> {
  argon2Runs.hash++;
  return hash(password, ARGON2_OPTIONS);
}

/** Whether `password` matches the stored PHC string; a malformed hash is simply a mismatch. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  argon2Runs.verify++;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies `password` against a hash of a random password nobody knows, and returns false: the
 * answer for an unknown account takes as long as for a known one with a wrong password.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hash(crypto.randomUUID(), ARGON2_OPTIONS);
  await verifyPassword(await dummyHash, password);
  return false;
}
