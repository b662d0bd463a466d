// Certificates of authenticity (issue 26, docs/decisions/046) against a real database: issued in
// the payment's transaction for each original and each numbered copy, signed so that the published
// key verifies them — in the code and with `npm run certificate:verify` — and a changed byte does
// not; the public JSON names no buyer; revocation, reissue, a refund and a transfer show at once;
// lookups are rate-limited; the PDF says everything in the buyer's language, the same bytes each time.
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provideDatabase } from '#api/db/context.ts';
import { eraseCustomer } from '#api/admin/customers.ts';
import { transferByToken } from '#api/certificates/lifecycle.ts';
import { certificateClaimData } from '../../src/lib/certificate-claim.ts';
import { findCertificate, certificatesOfOrders } from '#api/certificates/index.ts';
import { certificatePdfByLink, renderStoredCertificate } from '#api/certificates/public.ts';
import { readPublicKeys, canonicalJson } from '#api/certificates/signing.ts';
import { offerTransfer } from '#api/certificates/transfer.ts';
import {
  extractSignedCertificate,
  verifyCertificatePdf,
  verifySigned,
} from '#api/certificates/verify.ts';
import { renderCertificatePdf } from '#api/certificates/pdf.ts';
import { pdfText } from '#api/invoices/pdf-text.ts';
import type { Mailer, MailMessage } from '#api/mail/index.ts';
import { diskStorage } from '#api/media/storage.ts';
import { storeMaster } from '#api/media/index.ts';
import sharp from 'sharp';
import { applyStripeEvent, readOrder } from '#api/orders/index.ts';
import { sendPaidOrderMails } from '#api/payments/webhook.ts';
import { orderReturned } from '#api/orders/returns.ts';
import { GET as PUBLIC_JSON } from '../../src/pages/api/certificates/[serial].ts';
import { GET as PDF } from '../../src/pages/api/certificates/[serial]/pdf.ts';
import { GET as MINE } from '../../src/pages/api/certificates/mine.ts';
import { POST as TRANSFER } from '../../src/pages/api/certificates/transfer.ts';
import { GET as ADMIN_LIST } from '../../src/pages/api/admin/certificates/index.ts';
import { POST as REVOKE } from '../../src/pages/api/admin/certificates/[serial]/revoke.ts';
import { POST as REISSUE } from '../../src/pages/api/admin/certificates/[serial]/reissue.ts';
import { GET as WELL_KNOWN } from '../../src/pages/.well-known/galerie-certificates.json.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callEndpoint } from '../helpers/endpoint.ts';
import { makeArtwork, makeOrder, makeUser } from '../helpers/factories.ts';

const ORIGIN = 'http://localhost:4321';
const root = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
let t: TestDatabase;
let tmp: string;
const noMedia = diskStorage(path.join(os.tmpdir(), 'galerie-no-media'));

function paidEvent(order: { id: string; totalCents: number; sessionId: string }): Stripe.Event {
  const key = randomUUID().replaceAll('-', '');
  return {
    id: `evt_${key}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: order.sessionId,
        object: 'checkout.session',
        metadata: { order_id: order.id },
        status: 'complete',
        payment_status: 'paid',
        amount_total: order.totalCents,
        currency: 'eur',
        payment_intent: `pi_${key}`,
      },
    },
  } as unknown as Stripe.Event;
}

/** A paid order of a new original and two copies of a new print edition of 30, in `locale`. */
async function paidOrder(options: { locale?: 'fr' | 'en'; email?: string; mediaId?: string } = {}) {
  const original = await makeArtwork(t.db, {
    ...(options.mediaId ? { media_id: options.mediaId } : {}),
    title_fr: 'Lumière sur le Tage',
    title_en: 'Light on the Tagus',
    signature_fr: 'Signée en bas à droite',
    signature_en: 'Signed lower right',
    year: 2024,
  });
  const print = await makeArtwork(t.db, {
    artwork_type: 'print',
    title_fr: 'Marée basse',
    title_en: 'Low tide',
    edition_size: 30,
    stock: 30,
  });
  const order = await makeOrder(t.db, {
    lines: [
      {
        artworkId: original.id,
        type: 'original',
        unitPriceCents: 410_000,
        title: 'Lumière sur le Tage',
      },
      {
        artworkId: print.id,
        type: 'print',
        unitPriceCents: 35_000,
        quantity: 2,
        title: 'Marée basse',
      },
    ],
    paidAt: null,
    ...(options.email ? { email: options.email } : {}),
  });
  await t.db
    .updateTable('orders')
    .set({ locale: options.locale ?? 'fr' })
    .where('id', '=', order.id)
    .execute();
  const outcome = await applyStripeEvent(t.db, paidEvent(order));
  expect(outcome.kind).toBe('paid');
  const rows = await t.db
    .selectFrom('certificates')
    .select(['serial', 'edition_number'])
    .where('order_id', '=', order.id)
    .orderBy('order_item_id')
    .orderBy('edition_number')
    .execute();
  return { order, serials: rows.map((r) => r.serial), original, print };
}

const get = (url: string, extra: { cookie?: string; ip?: string } = {}) =>
  new Request(`${ORIGIN}${url}`, { headers: extra.cookie ? { cookie: extra.cookie } : {} });
const post = (url: string, body: unknown, cookie: string) =>
  new Request(`${ORIGIN}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
    body: JSON.stringify(body),
  });
const cookieJar = (cookie: string) =>
  ({
    get: (name: string) => {
      const [k, v] = cookie.split('=');
      return k === name ? { value: v! } : undefined;
    },
  }) as never;

let ipCounter = 0;
/** A new client address per call, so the rate limit of one test does not spill into another. */
const freshIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;

async function publicJson(serial: string, ip = freshIp()) {
  return callEndpoint(PUBLIC_JSON, {
    request: get(`/api/certificates/${serial}`),
    params: { serial },
    clientAddress: ip,
  });
}

async function publishedKeys() {
  const response = await callEndpoint(WELL_KNOWN, {
    request: get('/.well-known/galerie-certificates.json'),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, keys: readPublicKeys(text) };
}

beforeAll(async () => {
  t = await createTestDatabase();
  provideDatabase(t);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'certificates-'));
});
afterAll(async () => {
  await t.dispose();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('issue on payment', () => {
  it('makes one certificate per original and per numbered copy, with the edition numbers', async () => {
    const { order, serials } = await paidOrder();
    expect(serials).toHaveLength(3);
    for (const serial of serials) expect(serial).toMatch(/^GAL-[A-Z2-7]{20}$/);
    const certificates = await Promise.all(serials.map((s) => findCertificate(t.db, s)));
    expect(certificates.map((c) => c!.content.edition?.label ?? null)).toEqual([
      null,
      '1/30',
      '2/30',
    ]);
    expect(certificates.every((c) => c!.state === 'valid')).toBe(true);
    const [unique] = certificates;
    expect(unique!.content.work).toMatchObject({
      type: 'original',
      title: { fr: 'Lumière sur le Tage', en: 'Light on the Tagus' },
      year: 2024,
      signed: { fr: 'Signée en bas à droite', en: 'Signed lower right' },
    });
    // The order's views get them with links that work without an account.
    const listed = (await certificatesOfOrders(t.db, [order.id])).get(order.id)!;
    expect(listed.map((c) => c.label)).toEqual([null, '1/30', '2/30']);
    const pdf = await callEndpoint(PDF, {
      request: get(new URL(listed[0]!.pdfUrl).pathname + new URL(listed[0]!.pdfUrl).search),
      params: { serial: listed[0]!.serial },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const wrong = await callEndpoint(PDF, {
      request: get(`/api/certificates/${listed[0]!.serial}/pdf?token=${'A'.repeat(32)}`),
      params: { serial: listed[0]!.serial },
    });
    expect(wrong.status).toBe(404);
    // A second delivery of the payment issues nothing more.
    const again = await t.db
      .selectFrom('certificates')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(Number(again.n)).toBe(3);
  });

  it('signs them: the published key verifies the PDF, a changed byte of the content fails', async () => {
    const { serials } = await paidOrder();
    const { keys, text } = await publishedKeys();
    expect(JSON.parse(text)).toMatchObject({ algorithm: 'Ed25519' });
    const found = (await findCertificate(t.db, serials[1]!))!;
    const pdf = await renderStoredCertificate(t.db, found, noMedia);
    expect((await verifyCertificatePdf(pdf, keys)).ok).toBe(true);

    const signed = await extractSignedCertificate(pdf);
    expect(signed.content).toEqual(found.content);
    // One byte of the canonical content: 30 → 31 copies.
    const bytes = canonicalJson(signed.content).replace('"size":30', '"size":31');
    const changed = { ...signed, content: JSON.parse(bytes) as typeof signed.content };
    const verdict = verifySigned(changed, keys);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.reason).toMatch(/does not match the content/);

    // And through the command a collector runs, offline, with the PEM of the published key.
    const pdfFile = path.join(tmp, `${found.serial}.pdf`);
    const keyFile = path.join(tmp, 'key.pem');
    const jsonFile = path.join(tmp, 'changed.json');
    await fs.writeFile(pdfFile, pdf);
    await fs.writeFile(keyFile, [...keys.values()][0]!.export({ type: 'spki', format: 'pem' }));
    await fs.writeFile(jsonFile, JSON.stringify(changed));
    const cli = (args: string[]) =>
      run(process.execPath, ['api/cli/certificate-verify.ts', ...args], { cwd: root }).then(
        (r) => ({ code: 0, out: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
      );
    const ok = await cli([pdfFile, '--key', keyFile]);
    expect(ok.out).toMatch(new RegExp(`^OK: certificate ${found.serial} is signed`));
    expect(ok.code).toBe(0);
    const failed = await cli([jsonFile, '--key', keyFile]);
    expect(failed.out).toMatch(/^FAILED: the signature does not match the content/);
    expect(failed.code).toBe(1);
    // A PDF made with the changed content and the genuine signature (a forger's try) fails too.
    const forged = path.join(tmp, 'forged.pdf');
    await fs.writeFile(forged, await renderCertificatePdf(changed, null));
    const verdictOfFile = await verifyCertificatePdf(await fs.readFile(forged), keys);
    expect(verdictOfFile.ok).toBe(false);
    const forgedCli = await cli([forged, '--key', keyFile]);
    expect(forgedCli.out).toMatch(/^FAILED: the signature does not match the content/);
    expect(forgedCli.code).toBe(1);
    // Another key (a key the gallery did not publish) does not verify it either.
    const otherKey = path.join(tmp, 'other.pem');
    await fs.writeFile(
      otherKey,
      generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }),
    );
    expect((await cli([pdfFile, '--key', otherKey])).out).toMatch(/^FAILED: signed with key gal-/);
  });

  it('prints every field in the buyer’s language, the same bytes each time', async () => {
    const fr = await paidOrder({ locale: 'fr' });
    const en = await paidOrder({ locale: 'en' });
    const frOriginal = (await findCertificate(t.db, fr.serials[0]!))!;
    const enPrint = (await findCertificate(t.db, en.serials[2]!))!;
    const frPdf = await renderStoredCertificate(t.db, frOriginal, noMedia);
    expect(Buffer.from(await renderStoredCertificate(t.db, frOriginal, noMedia))).toEqual(
      Buffer.from(frPdf),
    );
    const frText = (await pdfText(frPdf)).replace(/[\u202f\u00a0]/g, ' ');
    for (const expected of [
      'Certificat d’authenticité',
      'Lumière sur le Tage',
      '2024',
      'Huile sur toile',
      '100 x 80 cm',
      'Œuvre originale — pièce unique',
      'Signée en bas à droite',
      'Date de vente',
      frOriginal.serial,
      'Galerie Sasha Kovač',
      frOriginal.content.keyId,
    ])
      expect(frText).toContain(expected);
    const enText = (await pdfText(await renderStoredCertificate(t.db, enPrint, noMedia))).replace(
      /[\u202f\u00a0]/g,
      ' ',
    );
    for (const expected of [
      'Certificate of authenticity',
      'Low tide',
      'Giclée print',
      'Fine-art print, copy no. 2/30',
      'Date of sale',
      enPrint.serial,
      `/en/certificate/${enPrint.serial}`,
    ])
      expect(enText).toContain(expected);
    expect(enText).not.toContain('Tirage');
  });
});

describe('the photo', () => {
  it('is the master the content names, drawn the same every time', async () => {
    const storage = diskStorage(path.join(tmp, 'media'));
    const image = await sharp({
      create: { width: 640, height: 800, channels: 3, background: '#23395b' },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg width="640" height="800"><circle cx="320" cy="400" r="200" fill="#d9a441"/></svg>',
          ),
        },
      ])
      .jpeg()
      .toBuffer();
    const media = await storeMaster(t.db, storage, image, { fr: 'Photo', en: 'Photo' });
    const { serials } = await paidOrder({ mediaId: media.id });
    const found = (await findCertificate(t.db, serials[0]!))!;
    expect(found.content.work.photo).toBe(media.sha256);
    const first = Buffer.from(await renderStoredCertificate(t.db, found, storage));
    const second = Buffer.from(await renderStoredCertificate(t.db, found, storage));
    expect(second.equals(first)).toBe(true);
    expect(first.includes('/Subtype /Image')).toBe(true);
    const { keys } = await publishedKeys();
    expect((await verifyCertificatePdf(first, keys)).ok).toBe(true);
  });
});

describe('the order mail', () => {
  it('links each certificate’s PDF, in the buyer’s language, by a link that needs no account', async () => {
    const { order, serials } = await paidOrder({ locale: 'en' });
    const summary = (await readOrder(t.db, { id: order.id }))!;
    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      description: 'test',
      send: (m) => {
        sent.push(m);
        return Promise.resolve();
      },
    };
    await sendPaidOrderMails({ db: t.db, mailer, payments: undefined as never }, summary);
    const mail = sent.find((m) => m.subject.includes(summary.number) && m.to !== undefined)!;
    expect(mail.html).toContain('Your certificates of authenticity');
    expect(mail.text).toContain('Light on the Tagus');
    const links = [
      ...mail.text.matchAll(
        /https?:\/\/\S+\/api\/certificates\/(GAL-[A-Z2-7]{20})\/pdf\?token=\S+/g,
      ),
    ];
    expect(links.map((l) => l[1]).sort()).toEqual([...serials].sort());
    const url = new URL(links[0]![0]);
    const response = await callEndpoint(PDF, {
      request: get(url.pathname + url.search),
      params: { serial: links[0]![1] },
    });
    expect(response.status).toBe(200);
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain('Certificate of authenticity');
  });
});

describe('the public view', () => {
  it('shows the work and its state, never the buyer; unknown serials are 404', async () => {
    const user = await makeUser(t.db, { full_name: 'Camille Collectionneuse' });
    const { order, serials } = await paidOrder({ email: user.email });
    const buyer = await t.db
      .selectFrom('orders')
      .select(['customer_name', 'customer_email'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    const response = await publicJson(serials[0]!);
    expect(response.status).toBe(200);
    const text = await response.text();
    const body = JSON.parse(text) as {
      state: string;
      content: { work: { title: { fr: string } } };
    };
    expect(body.state).toBe('valid');
    expect(body.content.work.title.fr).toBe('Lumière sur le Tage');
    for (const secret of [
      buyer.customer_name,
      buyer.customer_email,
      user.email,
      'Camille',
      '1 rue de la Paix',
      '75002',
      order.orderNumber,
      order.id,
    ])
      expect(text).not.toContain(secret);

    const unknown = await publicJson('GAL-AAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await publicJson('not-a-serial')).status).toBe(404);
  });

  it('limits lookups per network: past the limit, 429 in JSON', async () => {
    const { serials } = await paidOrder();
    const ip = '203.0.113.77';
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) last = await publicJson(serials[0]!, ip);
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await last!.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // Another network is not affected.
    expect((await publicJson(serials[0]!)).status).toBe(200);
  });
});

describe('the owner', () => {
  it('revokes with a reason: the public view says so at once, and the audit log has it', async () => {
    const admin = await makeUser(t.db, { role: 'admin' });
    const { order, serials } = await paidOrder();
    const listed = await callEndpoint(ADMIN_LIST, {
      request: get(`/api/admin/certificates?order=${order.id}`, { cookie: admin.cookie }),
      cookies: cookieJar(admin.cookie),
    });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { certificates: unknown[] }).certificates).toHaveLength(3);
    const refused = await callEndpoint(REVOKE, {
      request: post(`/api/admin/certificates/${serials[0]}/revoke`, { reason: '' }, admin.cookie),
      cookies: cookieJar(admin.cookie),
      params: { serial: serials[0] },
    });
    expect(refused.status).toBe(400);
    const revoked = await callEndpoint(REVOKE, {
      request: post(
        `/api/admin/certificates/${serials[0]}/revoke`,
        { reason: 'Erreur de description' },
        admin.cookie,
      ),
      cookies: cookieJar(admin.cookie),
      params: { serial: serials[0] },
    });
    expect(revoked.status).toBe(200);
    const view = (await (await publicJson(serials[0]!)).json()) as { state: string };
    expect(view.state).toBe('revoked');
    const entry = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('entity', '=', 'certificate')
      .where('entity_id', '=', serials[0]!)
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ action: 'certificate.revoke', actor_email: admin.email });
    // A customer may not.
    const customer = await makeUser(t.db);
    const forbidden = await callEndpoint(REVOKE, {
      request: post(
        `/api/admin/certificates/${serials[1]}/revoke`,
        { reason: 'Non' },
        customer.cookie,
      ),
      cookies: cookieJar(customer.cookie),
      params: { serial: serials[1] },
    });
    expect([401, 403]).toContain(forbidden.status);
  });

  it('reissues a lost certificate: the old serial says replaced, by the new one', async () => {
    const admin = await makeUser(t.db, { role: 'admin' });
    const { serials } = await paidOrder();
    const response = await callEndpoint(REISSUE, {
      request: post(`/api/admin/certificates/${serials[1]}/reissue`, {}, admin.cookie),
      cookies: cookieJar(admin.cookie),
      params: { serial: serials[1] },
    });
    expect(response.status).toBe(200);
    const { serial } = (await response.json()) as { serial: string };
    const old = (await (await publicJson(serials[1]!)).json()) as {
      state: string;
      replacedBy: string;
    };
    expect(old).toMatchObject({ state: 'replaced', replacedBy: serial });
    const fresh = (await findCertificate(t.db, serial))!;
    expect(fresh.state).toBe('valid');
    expect(fresh.content.replaces).toBe(serials[1]);
    expect(fresh.content.edition?.label).toBe('1/30');
    const { keys } = await publishedKeys();
    expect(
      verifySigned(
        {
          algorithm: 'Ed25519',
          keyId: fresh.content.keyId,
          content: fresh.content,
          signature: fresh.signature,
        },
        keys,
      ).ok,
    ).toBe(true);
  });

  it('a refund or a withdrawal revokes the order’s certificates at once', async () => {
    const { order, serials } = await paidOrder();
    await t.db
      .transaction()
      .execute((trx) => orderReturned(trx, order.id, new Date(), 'withdrawal'));
    for (const serial of serials) {
      const view = (await (await publicJson(serial)).json()) as { state: string };
      expect(view.state).toBe('revoked');
    }
    expect((await findCertificate(t.db, serials[0]!))!.revokedReason).toBe(
      'Rétractation de l’acheteur',
    );
  });
});

describe('erasure', () => {
  it('erasing a customer leaves the certificates standing, without their address', async () => {
    const admin = await makeUser(t.db, { role: 'admin' });
    const buyer = 'erase-me@example.test';
    const { order, serials } = await paidOrder({ email: buyer });
    await t.db
      .updateTable('orders')
      .set({ status: 'delivered', shipped_at: new Date() })
      .where('id', '=', order.id)
      .execute();
    // Past the withdrawal period: the order is closed.
    const later = new Date(Date.now() + 90 * 86_400_000);
    await eraseCustomer(t.db, { email: buyer, confirmation: buyer }, admin, { now: () => later });
    const rows = await t.db
      .selectFrom('certificates')
      .select(['holder_email', 'state'])
      .where('order_id', '=', order.id)
      .execute();
    expect(rows).toHaveLength(serials.length);
    for (const row of rows) {
      expect(row.holder_email).not.toContain('erase-me');
      expect(row.state).toBe('valid');
    }
  });
});

describe('provenance', () => {
  it('the holder transfers from the account; the new owner claims with their own account', async () => {
    const holder = await makeUser(t.db);
    const newOwner = await makeUser(t.db);
    const { serials } = await paidOrder({ email: holder.email });
    const mine = await callEndpoint(MINE, {
      request: get('/api/certificates/mine?locale=en', { cookie: holder.cookie }),
      cookies: cookieJar(holder.cookie),
    });
    const held = (
      (await mine.json()) as { certificates: Array<{ serial: string; nature: string }> }
    ).certificates;
    expect(held.map((c) => c.serial).sort()).toEqual([...serials].sort());

    // Someone else cannot offer it (404, as for an unknown serial).
    const stranger = await callEndpoint(TRANSFER, {
      request: post(
        '/api/certificates/transfer',
        { serial: serials[0], email: 'x@example.test', locale: 'fr' },
        newOwner.cookie,
      ),
      cookies: cookieJar(newOwner.cookie),
    });
    expect(stranger.status).toBe(404);

    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      description: 'test',
      send: (m) => {
        sent.push(m);
        return Promise.resolve();
      },
    };
    const now = new Date();
    await offerTransfer(
      { db: t.db, mailer, siteUrl: ORIGIN },
      holder,
      { serial: serials[0]!, email: newOwner.email, locale: 'en' },
      now,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(newOwner.email);
    expect(sent[0]!.subject).toContain('Light on the Tagus');
    const token = /token=([a-z2-7]{32})/.exec(sent[0]!.text)![1]!;
    expect(sent[0]!.text).toContain(`${ORIGIN}/en/certificate/transfer?token=${token}`);
    expect(sent[0]!.text).not.toContain(holder.email);
    expect((await transferByToken(t.db, token, now)).serial).toBe(serials[0]);

    // The claim page: the work for the link's token; a wrong token is a 400 with a message.
    const page = `${ORIGIN}/en/certificate/transfer?token=${token}`;
    const shown = await certificateClaimData(new Request(page), new URL(page), null);
    expect(shown).toMatchObject({ status: 200, failure: null });
    expect(shown.pending?.content.work.title.en).toBe('Light on the Tagus');
    const wrongPage = `${ORIGIN}/en/certificate/transfer?token=${'a'.repeat(32)}`;
    expect(
      await certificateClaimData(new Request(wrongPage), new URL(wrongPage), null),
    ).toMatchObject({ status: 400, failure: 'invalid' });
    // Its form, sent by someone signed out, takes nothing.
    const form = (who: typeof newOwner | null) =>
      certificateClaimData(
        new Request(page, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
          body: new URLSearchParams({ token }).toString(),
        }),
        new URL(page),
        who && { id: who.id, email: who.email, name: null, role: 'customer', emailVerified: true },
      );
    expect(await form(null)).toMatchObject({ status: 401, claimed: null });

    // Signed in, the new owner takes it, once.
    const claimedNow = await form(newOwner);
    expect(claimedNow).toMatchObject({ status: 200, failure: null });
    const serial = claimedNow.claimed!;
    expect(await form(newOwner)).toMatchObject({ status: 400, failure: 'invalid' });
    const old = (await (await publicJson(serials[0]!)).json()) as {
      state: string;
      replacedBy: string | null;
      provenance: Array<{ event: string; date: string }>;
    };
    expect(old.state).toBe('transferred');
    // The chain as dates only: no serial of the new owner's certificate, no one's name.
    expect(old.replacedBy).toBeNull();
    expect(old.provenance.map((p) => p.event)).toEqual(['sale', 'transfer']);
    const fresh = (await findCertificate(t.db, serial))!;
    expect(fresh).toMatchObject({ state: 'valid', holderUserId: newOwner.id });
    expect(fresh.content.language).toBe('en');
    expect(fresh.content.provenance.map((p) => p.event)).toEqual(['sale', 'transfer']);
    const freshView = await (await publicJson(serial)).text();
    expect(freshView).not.toContain(newOwner.email);
    expect(freshView).not.toContain(holder.email);
    // The new owner's account lists it; the old holder's no longer does.
    const theirs = await callEndpoint(MINE, {
      request: get('/api/certificates/mine', { cookie: newOwner.cookie }),
      cookies: cookieJar(newOwner.cookie),
    });
    expect(
      ((await theirs.json()) as { certificates: Array<{ serial: string }> }).certificates.map(
        (c) => c.serial,
      ),
    ).toEqual([serial]);
    const mineAfter = await callEndpoint(MINE, {
      request: get('/api/certificates/mine', { cookie: holder.cookie }),
      cookies: cookieJar(holder.cookie),
    });
    expect(
      ((await mineAfter.json()) as { certificates: Array<{ serial: string }> }).certificates.map(
        (c) => c.serial,
      ),
    ).not.toContain(serials[0]);
    // The new owner's PDF verifies too, through its signed link.
    const { keys } = await publishedKeys();
    const file = await certificatePdfByLink(
      t.db,
      serial,
      (await import('#api/certificates/links.ts')).downloadToken(
        await (await import('#api/certificates/signing.ts')).ensureSigningKey(t.db),
        serial,
      ),
      noMedia,
    );
    expect((await verifyCertificatePdf(file.bytes, keys)).ok).toBe(true);
  });
});
