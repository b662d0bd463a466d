// Random tokens and their stored form, after the Lucia design (lucia-auth.com): 160 random bits
// encoded in lowercase base32, only a SHA-256 digest kept in the database, compared in constant
// time. Used for session secrets and for the single-use links (reset, verification, invitation).
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { getRandomValues } from 'node:crypto';

/** 20 bytes = 160 bits, as 32 base32 characters. */
export const TOKEN_BYTES = 20;
const TOKEN_LENGTH = 32;
const TOKEN_PATTERN = /^[a-z2-7]{32}$/;

/** A new random string of 160 bits (32 characters of [a-z2-7]). */
export function randomToken(): string {
  return encodeBase32LowerCaseNoPadding(getRandomValues(new Uint8Array(TOKEN_BYTES)));
}

/** Whether `value` has the shape of a token from `randomToken` (checked before any lookup). */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && value.length === TOKEN_LENGTH && TOKEN_PATTERN.test(value);
}

/** The SHA-256 digest stored in place of a token (bytea columns). */
export function hashToken(token: string): Buffer {
  return Buffer.from(sha256(new TextEncoder().encode(token)));
}

/** Whether `token` hashes to `storedHash`, in constant time. */
export function tokenMatches(token: string, storedHash: Uint8Array): boolean {
  const digest = hashToken(token);
  return digest.byteLength === storedHash.byteLength && constantTimeEqual(digest, storedHash);
}
