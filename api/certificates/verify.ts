// Checking a certificate (issue 26): the signed content attached to its PDF — or served by its
// public page's JSON — against the gallery's public key. Needs nothing but the file and the key,
// so a collector can check offline; any changed byte of the content breaks the signature.
import type { KeyObject } from 'node:crypto';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFString,
} from 'pdf-lib';
import { asContent } from './content.ts';
import { ATTACHMENT_NAME, type SignedCertificate } from './pdf.ts';
import { keyIdOf, verifyContent } from './signing.ts';

export type Verdict =
  | { ok: true; signed: SignedCertificate }
  | { ok: false; reason: string; signed?: SignedCertificate };

/** The attachment `certificate.json` of a certificate PDF; throws with a reason when absent. */
export async function extractSignedCertificate(pdf: Uint8Array): Promise<SignedCertificate> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false });
  } catch {
    throw new Error('the file is not a readable PDF');
  }
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const embedded = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const list = embedded?.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (!list) throw new Error('the PDF carries no signed content (no attached certificate.json)');
  for (let i = 0; i + 1 < list.size(); i += 2) {
    const name = list.lookup(i);
    const label =
      name instanceof PDFString || name instanceof PDFHexString ? name.decodeText() : '';
    if (label !== ATTACHMENT_NAME) continue;
    const spec = list.lookup(i + 1, PDFDict);
    const files = spec.lookupMaybe(PDFName.of('EF'), PDFDict);
    const stream = files?.lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream)) break;
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      decodePDFRawStream(stream).decode(),
    );
    return parseSigned(text);
  }
  throw new Error('the PDF carries no signed content (no attached certificate.json)');
}

/** The signed document as JSON text (the attachment, or the public page's JSON). */
export function parseSigned(text: string): SignedCertificate {
  let value: Partial<SignedCertificate>;
  try {
    value = JSON.parse(text) as Partial<SignedCertificate>;
  } catch {
    throw new Error('the signed content is not valid JSON');
  }
  if (typeof value.signature !== 'string' || typeof value.keyId !== 'string')
    throw new Error('the signed content has no signature');
  return {
    algorithm: 'Ed25519',
    keyId: value.keyId,
    content: asContent(value.content),
    signature: value.signature,
  };
}

/**
 * The verdict on a signed certificate with the given public keys (by key id): the key must be
 * the one the certificate names, and the signature must sign exactly its content.
 */
export function verifySigned(
  signed: SignedCertificate,
  keys: ReadonlyMap<string, KeyObject>,
): Verdict {
  if (signed.content.keyId !== signed.keyId)
    return { ok: false, reason: 'the content names another key than its signature', signed };
  const key = keys.get(signed.keyId);
  if (!key) {
    const known = [...keys.values()].map(keyIdOf).join(', ') || 'none';
    return {
      ok: false,
      reason: `signed with key ${signed.keyId}, not with the key given (${known})`,
      signed,
    };
  }
  if (!verifyContent(signed.content, signed.signature, key))
    return {
      ok: false,
      reason: 'the signature does not match the content: it was changed after signing, or forged',
      signed,
    };
  return { ok: true, signed };
}

/** Reads and verifies a certificate PDF in one step. */
export async function verifyCertificatePdf(
  pdf: Uint8Array,
  keys: ReadonlyMap<string, KeyObject>,
): Promise<Verdict> {
  let signed: SignedCertificate;
  try {
    signed = await extractSignedCertificate(pdf);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  return verifySigned(signed, keys);
}
