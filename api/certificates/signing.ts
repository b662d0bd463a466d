// The gallery's signing key and the one way certificate content is signed and checked
// (docs/decisions/046). The Ed25519 key pair is made once, at the first start, and kept in the
// database — with the data, so every backup and every app server has it; its public half is
// published at /.well-known/galerie-certificates.json. What is signed is the content's canonical
// JSON (keys sorted, no spaces, UTF-8): the same content always gives the same bytes, on any machine.
import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { Executor } from '../db/index.ts';

export interface PublicSigningKey {
  /** 'gal-' + the first 16 hex digits of the SHA-256 of the key's DER (SPKI) form. */
  id: string;
  algorithm: 'ed25519';
  /** SPKI PEM, what `--key` of the verify command reads. */
  pem: string;
  createdAt: string;
  active: boolean;
}

export interface SigningKey extends PublicSigningKey {
  privateKey: KeyObject;
}

/** The key id of a public key: short, stable, printed on every certificate. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return `gal-${createHash('sha256').update(der).digest('hex').slice(0, 16)}`;
}

/** JSON with object keys sorted at every level and no whitespace: the bytes that are signed. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new TypeError('A certificate cannot hold a non-finite number.');
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`A certificate cannot hold ${typeof value}.`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The Ed25519 signature of the content's canonical JSON, base64url. */
export function signContent(content: unknown, privateKey: KeyObject): string {
  return sign(null, Buffer.from(canonicalJson(content), 'utf8'), privateKey).toString('base64url');
}

/** Whether `signature` (base64url) signs `content` under `publicKey`; never throws. */
export function verifyContent(content: unknown, signature: string, publicKey: KeyObject): boolean {
  try {
    if (!/^[A-Za-z0-9_-]{86}$/.test(signature)) return false;
    return verify(
      null,
      Buffer.from(canonicalJson(content), 'utf8'),
      publicKey,
      Buffer.from(signature, 'base64url'),
    );
  } catch {
    return false;
  }
}

/** A public key from PEM text (SPKI), or from the published JSON document. */
export function readPublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const doc = JSON.parse(trimmed) as { keys?: Array<{ pem?: unknown; active?: unknown }> };
    const keys = doc.keys ?? [];
    const chosen = keys.find((k) => k.active === true) ?? keys[0];
    if (!chosen || typeof chosen.pem !== 'string') throw new Error('No key in this document.');
    return readPublicKey(chosen.pem);
  }
  const key = createPublicKey(trimmed);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('Not an Ed25519 public key.');
  return key;
}

/** Every public key in a published document (by id), for certificates signed by an older key. */
export function readPublicKeys(text: string): Map<string, KeyObject> {
  const trimmed = text.trim();
  const keys = new Map<string, KeyObject>();
  if (trimmed.startsWith('{')) {
    const doc = JSON.parse(trimmed) as { keys?: Array<{ pem?: unknown }> };
    for (const entry of doc.keys ?? [])
      if (typeof entry.pem === 'string') {
        const key = readPublicKey(entry.pem);
        keys.set(keyIdOf(key), key);
      }
  } else {
    const key = readPublicKey(trimmed);
    keys.set(keyIdOf(key), key);
  }
  return keys;
}

type KeyRow = {
  id: string;
  public_key: string;
  private_key: string;
  active: boolean;
  created_at: Date | string;
};

function toKey(row: KeyRow): SigningKey {
  return {
    id: row.id,
    algorithm: 'ed25519',
    pem: row.public_key,
    createdAt: new Date(row.created_at).toISOString(),
    active: row.active,
    privateKey: createPrivateKey(row.private_key),
  };
}

/**
 * The active signing key, made now if the shop has none (the first start). Two callers racing on
 * a fresh database both try to insert; the unique index on the active key keeps one, and both
 * read that one back.
 */
export async function ensureSigningKey(db: Executor, now: Date = new Date()): Promise<SigningKey> {
  const found = await db
    .selectFrom('signing_keys')
    .select(['id', 'public_key', 'private_key', 'active', 'created_at'])
    .where('active', '=', true)
    .executeTakeFirst();
  if (found) return toKey(found);
  const pair = generateKeyPairSync('ed25519');
  await db
    .insertInto('signing_keys')
    .values({
      id: keyIdOf(pair.publicKey),
      algorithm: 'ed25519',
      public_key: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      active: true,
      created_at: now,
    })
    .onConflict((oc) => oc.column('active').where('active', '=', true).doNothing())
    .execute();
  const row = await db
    .selectFrom('signing_keys')
    .select(['id', 'public_key', 'private_key', 'active', 'created_at'])
    .where('active', '=', true)
    .executeTakeFirstOrThrow();
  return toKey(row);
}

/** Every key the shop has signed with, the active one first: what /.well-known publishes. */
export async function publicSigningKeys(db: Executor): Promise<PublicSigningKey[]> {
  const rows = await db
    .selectFrom('signing_keys')
    .select(['id', 'public_key', 'active', 'created_at'])
    .orderBy('active', 'desc')
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    algorithm: 'ed25519',
    pem: row.public_key,
    createdAt: new Date(row.created_at).toISOString(),
    active: row.active,
  }));
}

/** The published document: what a verifier downloads once and keeps. */
export function publishedKeysDocument(keys: readonly PublicSigningKey[], siteUrl: string) {
  return {
    issuer: siteUrl,
    algorithm: 'Ed25519',
    signed: 'canonical JSON of the certificate content (keys sorted, no whitespace, UTF-8)',
    keys: keys.map((k) => ({ id: k.id, pem: k.pem, active: k.active, createdAt: k.createdAt })),
  };
}

/**
 * A secret for the download links (HMAC), derived from the private key so it needs no setting of
 * its own and travels with it in backups; it cannot be turned back into the key.
 */
export function linkSecret(key: SigningKey): Buffer {
  const pkcs8 = key.privateKey.export({ type: 'pkcs8', format: 'der' });
  return createHmac('sha256', 'galerie certificate download links').update(pkcs8).digest();
}
