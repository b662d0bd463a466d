// Issue 24, break 2: a title holding `</script><script>…` ran on every public page — the JSON-LD
// block wrote it raw — and pushed the policy's <meta> out of <head>. Every text the owner or a
// customer can set now carries `</script>` and `<!--`, and every built page, mail and invoice that
// shows it must show it as text: no element it opens, no script it ends, the JSON-LD still the
// same data, and each page's policy a header the markup cannot move.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildInputs,
  buildSnapshot,
  catalogSnapshot,
  computeSourceHash,
  type CatalogSnapshot,
} from '#api/build/index.ts';
import { openDatabase } from '#api/db/index.ts';
import { readPagePolicies } from '#api/http/site.ts';
import { renderInvoicePdf } from '#api/invoices/pdf.ts';
import { pdfText } from '#api/invoices/pdf-text.ts';
import { galleryOrderNotification, orderConfirmationMail } from '#api/mail/orders.ts';
import { shippingMail } from '#api/mail/shipping.ts';
import { galleryWithdrawalNotification, withdrawalConfirmationMail } from '#api/mail/withdrawal.ts';
import type { OrderSummary } from '#api/orders/index.ts';
import { DEFAULT_SETTINGS } from '#api/settings/index.ts';
import type { SiteSettings } from '../../src/schemas/settings.ts';
import { testDbKind } from '../helpers/db.ts';
import { freshShop, root, type FreshShop } from '../helpers/server.ts';

/** What an attacker types into every field: no spaces, so it fits single-line and URL fields. */
const PAYLOAD = '</script><script>alert("xss")</script><!--<SCRIPT>';
const hostile = (value: string) => `${value}${PAYLOAD}`;
const both = (value: { fr: string; en: string }) => ({
  fr: hostile(value.fr),
  en: hostile(value.en),
});

function hostileSettings(settings: SiteSettings): SiteSettings {
  return {
    ...settings,
    site_title: hostile(settings.site_title),
    site_description: both(settings.site_description),
    artist_name: hostile(settings.artist_name),
    contact_address: hostile(settings.contact_address),
    instagram_url: `https://instagram.com/galerie${PAYLOAD}`,
    legal_identity: {
      ...settings.legal_identity,
      name: hostile(settings.legal_identity.name),
      address: hostile(settings.legal_identity.address),
      vat_mention: hostile(settings.legal_identity.vat_mention),
    },
    artist_portrait: settings.artist_portrait && {
      ...settings.artist_portrait,
      alt: both(settings.artist_portrait.alt),
    },
  };
}

/** Everything a browser would run: the text of each executable <script>. */
function scriptsThatRun(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)]
    .filter(([, attrs]) => !/type="application\/ld\+json"/i.test(attrs!))
    .map(([, , text]) => text!);
}

const TAG =
  /(<[a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)(\s*\/?>)/g;

/** The markup with quoted attribute values (but `type`) emptied: inside one, `<script>` is text. */
function withoutAttributeValues(html: string): string {
  return html.replace(
    TAG,
    (_, open: string, attrs: string, close: string) =>
      `${open}${attrs.replace(/(\s)(?!type\b)([^\s"'>/=]+)\s*=\s*("[^"]*"|'[^']*')/g, '$1$2=""')}${close}`,
  );
}

function expectShownAsText(html: string, where: string): void {
  const markup = withoutAttributeValues(html);
  expect(markup, where).not.toContain(PAYLOAD);
  expect(markup.toLowerCase(), where).not.toContain('<script>alert');
  expect(markup, where).not.toContain('<!--<SCRIPT>');
  for (const script of scriptsThatRun(markup)) expect(script, where).not.toContain('alert(');
}

describe.skipIf(testDbKind() !== 'pglite')('hostile text the owner or a customer can set', () => {
  let shop: FreshShop;
  let snapshot: CatalogSnapshot;
  let version: string;

  beforeAll(async () => {
    shop = await freshShop('hostile-text');
    const handle = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pgdata') });
    const golden = await catalogSnapshot(handle.db);
    await handle.close();
    snapshot = {
      settings: hostileSettings(golden.settings),
      artworks: golden.artworks.map((work) => ({
        ...work,
        title: both(work.title),
        description: both(work.description),
        technique: both(work.technique),
        dimensions: hostile(work.dimensions),
        collection: hostile(work.collection),
        image: work.image && { ...work.image, alt: both(work.image.alt) },
      })),
    };
    const sourceHash = await computeSourceHash(root);
    const built = await buildSnapshot(
      snapshot,
      { ...buildInputs(snapshot, sourceHash, shop.siteUrl), builtAt: '' },
      { root, dist: path.join(shop.work, 'dist'), siteUrl: shop.siteUrl, niceness: 0 },
    );
    version = built.dir;
  });
  afterAll(() => shop?.remove());

  it('every built page shows it as text; its JSON-LD is the same data; its policy is a header', async () => {
    const client = path.join(version, 'client');
    const policies = await readPagePolicies(version);
    let pages = 0;
    let shown = 0;
    let jsonLd = 0;
    for (const file of fs.readdirSync(client, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.html')) continue;
      const html = fs.readFileSync(path.join(client, file), 'utf8');
      expectShownAsText(html, file);
      // The payload is on the page, escaped: the test is not vacuous.
      if (html.includes('&lt;/script&gt;&lt;script&gt;alert(')) shown++;
      for (const [, data] of html.matchAll(
        /<script type="application\/ld\+json">([\s\S]*?)<\/script>/g,
      )) {
        // Read back as JSON, the block holds the text exactly as typed.
        const parsed = JSON.stringify(JSON.parse(data!));
        if (parsed.includes(JSON.stringify(PAYLOAD).slice(1, -1))) jsonLd++;
      }
      // No <meta> policy to push out of <head>: the server sends each page's as a header.
      expect(html, file).not.toMatch(/http-equiv="content-security-policy"/i);
      const route = `/${file}`.replace(/\/index\.html$/, '').replace(/\.html$/, '') || '/';
      expect(policies?.byRoute.get(route), file).toMatch(/script-src 'self' 'sha256-/);
      pages++;
    }
    expect(pages).toBeGreaterThan(10);
    expect(shown).toBeGreaterThan(pages / 2);
    expect(jsonLd).toBeGreaterThan(25);
  });

  it('every mail shows it as text', () => {
    const settings = snapshot.settings;
    const order: OrderSummary = {
      id: '00000000-0000-4000-8000-000000000001',
      number: 'GS-2026-01001',
      email: 'ana@example.org',
      name: hostile('Ana Ribeiro'),
      locale: 'fr',
      status: 'pending',
      paymentStatus: 'paid',
      currency: 'EUR',
      subtotalCents: 35_000,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 35_000,
      promoCode: null,
      paymentIntentId: 'pi_123',
      sessionId: 'cs_test_123',
      createdAt: '2026-11-22T10:00:00.000Z',
      shippingAddress: {
        street: hostile('Rua do Norte 12'),
        city: hostile('Lisboa'),
        postalCode: '1200-286',
        country: 'PT',
      },
      lines: [
        {
          title: hostile('Seuil'),
          type: 'print',
          quantity: 1,
          unitPriceCents: 35_000,
          editions: [],
        },
      ],
    };
    const withdrawal = {
      orderNumber: order.number,
      orderedAt: order.createdAt,
      lines: [{ title: hostile('Seuil'), type: 'print' as const, quantity: 1 }],
      statement: hostile('Je notifie'),
      requestedAt: '2026-11-23T10:00:00.000Z',
      name: hostile('Ana Ribeiro'),
      email: order.email,
      locale: 'fr' as const,
    };
    const mails = {
      confirmation: orderConfirmationMail(order, settings),
      gallery: galleryOrderNotification(order, settings),
      shipping: shippingMail(
        order,
        { carrier: hostile('Colissimo'), trackingNumber: hostile('8N123') },
        settings,
      ),
      withdrawal: withdrawalConfirmationMail(withdrawal, settings),
      galleryWithdrawal: galleryWithdrawalNotification(withdrawal, settings, true),
    };
    for (const [name, mail] of Object.entries(mails)) {
      expect(mail.html, name).toBeTruthy();
      expectShownAsText(mail.html!, name);
      expect(mail.html, name).toContain('&lt;/script&gt;');
      expect(mail.text, name).toContain(PAYLOAD);
    }
    expect(DEFAULT_SETTINGS.site_title).not.toContain('<');
  });

  it('an invoice prints it as the characters typed', async () => {
    const pdf = await renderInvoicePdf({
      version: 1,
      kind: 'invoice',
      number: 'FA-2026-00001',
      issuedAt: '2026-11-22T10:00:00.000Z',
      refersTo: null,
      orderNumber: 'GS-2026-01001',
      seller: {
        name: snapshot.settings.legal_identity.name,
        address: snapshot.settings.legal_identity.address,
        siret: '',
        vatMention: snapshot.settings.legal_identity.vat_mention,
        email: 'atelier@example.org',
      },
      buyer: {
        name: hostile('Ana Ribeiro'),
        email: 'ana@example.org',
        addressLines: [hostile('Rua do Norte 12')],
      },
      lines: [
        {
          title: hostile('Seuil'),
          type: 'print',
          quantity: 1,
          unitPriceCents: 35_000,
          lineTotalCents: 35_000,
        },
      ],
      subtotalCents: 35_000,
      promoCode: null,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 35_000,
      currency: 'EUR',
      payment: { date: '2026-11-22T10:00:00.000Z', method: 'Carte bancaire (Stripe)' },
    });
    const text = (await pdfText(pdf)).replace(/\s+/g, '');
    expect(text).toContain('alert("xss")');
    expect(text).toContain('<!--<SCRIPT>');
  });
});
