// `npm run certificate:verify -- <certificate.pdf | certificate.json | serial> [--key <file | url>]
// [--site <url>]`: says OK or FAILED (with the reason) for a certificate of authenticity
// (docs/decisions/046). A PDF or a saved JSON needs only the gallery's public key — a PEM file or
// the /.well-known/galerie-certificates.json document, from a file or a URL — so a collector checks
// offline. A serial is read from this shop's database (DATA_DIR / DATABASE_URL), or from the site
// given by --site, whose answer is checked with the key all the same. Exit code 0 when valid,
// 1 when not, 2 for a usage mistake.
import fs from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { normalizeSerial, natureText } from '../certificates/content.ts';
import { readPublicKeys } from '../certificates/signing.ts';
import { extractSignedCertificate, parseSigned, verifySigned } from '../certificates/verify.ts';
import type { SignedCertificate } from '../certificates/pdf.ts';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
import { runCli } from './run.ts';

const USAGE =
  'Usage: npm run certificate:verify -- <certificate.pdf | certificate.json | serial> [--key <PEM or JSON file, or URL>] [--site <https://gallery.example>]';

interface Args {
  target: string;
  key: string | undefined;
  site: string | undefined;
}

function parseArgs(argv: readonly string[]): Args | null {
  let target: string | undefined;
  let key: string | undefined;
  let site: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--key' || arg === '--site') {
      const value = argv[++i];
      if (!value) return null;
      if (arg === '--key') key = value;
      else site = value.replace(/\/+$/, '');
    } else if (arg.startsWith('-') || target !== undefined) return null;
    else target = arg;
  }
  return target ? { target, key, site } : null;
}

async function readText(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { redirect: 'follow' });
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    return response.text();
  }
  return fs.readFileSync(source, 'utf8');
}

/** What a lookup of a serial tells beyond the signature: the certificate's state now. */
interface Looked {
  signed: SignedCertificate;
  state: string;
  replacedBy: string | null;
}

async function lookUp(serial: string, site: string | undefined): Promise<Looked> {
  if (site) {
    const response = await fetch(`${site}/api/certificates/${serial}`);
    if (response.status === 404) throw new Error(`${site} knows no certificate ${serial}`);
    if (!response.ok) throw new Error(`${site} answered ${response.status}`);
    const text = await response.text();
    const body = JSON.parse(text) as { state?: string; replacedBy?: string | null };
    return {
      signed: parseSigned(text),
      state: body.state ?? 'unknown',
      replacedBy: body.replacedBy ?? null,
    };
  }
  const handle = await openConfiguredDatabase(loadConfig());
  try {
    const row = await handle.db
      .selectFrom('certificates')
      .select(['content', 'signature', 'state', 'replaced_by', 'key_id'])
      .where('serial', '=', serial)
      .executeTakeFirst();
    if (!row) throw new Error(`this shop's database knows no certificate ${serial}`);
    return {
      signed: parseSigned(
        JSON.stringify({ keyId: row.key_id, content: row.content, signature: row.signature }),
      ),
      state: row.state,
      replacedBy: row.state === 'replaced' ? row.replaced_by : null,
    };
  } finally {
    await handle.close();
  }
}

async function keysFor(args: Args): Promise<Map<string, KeyObject>> {
  if (args.key) return readPublicKeys(await readText(args.key));
  if (args.site)
    return readPublicKeys(await readText(`${args.site}/.well-known/galerie-certificates.json`));
  // On the gallery's own machine: the keys its database publishes.
  const handle = await openConfiguredDatabase(loadConfig());
  try {
    const rows = await handle.db.selectFrom('signing_keys').select('public_key').execute();
    if (rows.length === 0)
      throw new Error('this shop has no signing key yet; give the gallery’s key with --key');
    const keys = new Map<string, KeyObject>();
    for (const row of rows)
      for (const [id, key] of readPublicKeys(row.public_key)) keys.set(id, key);
    return keys;
  } finally {
    await handle.close();
  }
}

await runCli('certificate:verify', async () => {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  let signed: SignedCertificate;
  let looked: Looked | null = null;
  try {
    const serial = fs.existsSync(args.target) ? null : normalizeSerial(args.target);
    if (serial) {
      looked = await lookUp(serial, args.site);
      signed = looked.signed;
    } else if (!fs.existsSync(args.target)) {
      console.error(`${args.target} is neither a file nor a certificate serial (GAL-…).`);
      console.error(USAGE);
      process.exitCode = 2;
      return;
    } else if (args.target.toLowerCase().endsWith('.json')) {
      signed = parseSigned(fs.readFileSync(args.target, 'utf8'));
    } else {
      signed = await extractSignedCertificate(fs.readFileSync(args.target));
    }
  } catch (error) {
    console.log(`FAILED: ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  let keys: Map<string, KeyObject>;
  try {
    keys = await keysFor(args);
  } catch (error) {
    console.log(`FAILED: no public key to check with (${(error as Error).message})`);
    process.exitCode = 1;
    return;
  }
  const verdict = verifySigned(signed, keys);
  const c = signed.content;
  if (!verdict.ok) {
    console.log(`FAILED: ${verdict.reason}`);
    process.exitCode = 1;
    return;
  }
  console.log(`OK: certificate ${c.serial} is signed by the gallery's key ${c.keyId}.`);
  console.log(
    `  ${c.artist}, « ${c.work.title[c.language]} »${c.work.year ? `, ${c.work.year}` : ''} — ${natureText(c, 'en')}`,
  );
  console.log(`  issued ${c.issuedAt.slice(0, 10)} by ${c.gallery.name}; sold ${c.saleDate}`);
  if (looked && looked.state !== 'valid') {
    console.log(
      `FAILED: the signature is genuine but the certificate is ${looked.state}${looked.replacedBy ? ` (replaced by ${looked.replacedBy})` : ''}.`,
    );
    process.exitCode = 1;
  } else if (!looked) {
    console.log(`  its current state is on its public page: ${c.publicUrl}`);
  }
});
