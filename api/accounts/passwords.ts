// Password hashing with Argon2id at the OWASP minimum (m = 19456 KiB, t = 2, p = 1), the dummy
// verification that makes "no such account" cost the same time as a wrong password, and the refusal
// of the 10 000 most common passwords wherever one is chosen.
import fs from 'node:fs';
import path from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../http/errors.ts';
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

/** The field error of a refused common password (the form shows it under the password). */
export const PASSWORD_TOO_COMMON = 'auth.error.passwordTooCommon';

const COMMON_PASSWORDS_FILE = path.join('api', 'accounts', 'common-passwords.txt');
let commonPasswords: ReadonlySet<string> | undefined;

/**
 * The repository's list (scripts/common-passwords.mjs writes it), read once. Endpoints run from a
 * bundle under dist/, so the file is looked for upwards from this module, then from the working
 * directory the server was started in (as the invoice fonts are, api/invoices/pdf.ts).
 */
function loadCommonPasswords(): ReadonlySet<string> {
  for (const start of [import.meta.dirname, process.cwd()]) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, COMMON_PASSWORDS_FILE);
      if (fs.existsSync(candidate))
        return new Set(fs.readFileSync(candidate, 'utf8').split('\n').filter(Boolean));
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error(`${COMMON_PASSWORDS_FILE} not found: run node scripts/common-passwords.mjs.`);
}

/** Whether `password` is one of the 10 000 most common ones, whatever its case. */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadCommonPasswords();
  return commonPasswords.has(password.toLowerCase());
}

/**
 * Refuses a common password with the same field error shape as the schemas' length rules
 * (`invalid_input`, `fields.password`), so every form shows it under its password field. Called
 * by every path that sets a password: signup, reset, change, invitation.
 */
export function assertUncommonPassword(password: string): void {
  if (isCommonPassword(password))
    throw new AppError('invalid_input', { fields: { password: PASSWORD_TOO_COMMON } });
}
