// The order mails (issue 9): HTML with a plain-text alternative, the works listed, the country by
// name, in the buyer's language, and a certificate of authenticity promised for originals only.
// Issue 26: the seller's identity, the edition numbers, the invoice attached and linked, one
// wording per link across the mails, French spacing in French, the carrier's tracking page.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMail } from '../../tests/helpers/mail.ts';
import type { OrderSummary } from '../orders/index.ts';
import { DEFAULT_SETTINGS } from '../settings/index.ts';
import { createMailer } from './index.ts';
import { galleryOrderNotification, orderConfirmationMail } from './orders.ts';
import { cancellationMail, partialRefundMail } from './cancellation.ts';
import { shippingMail } from './shipping.ts';

/** A kitchen-sink order: an original, two copies of a print, a promo code, free shipping. */
const order = (overrides: Partial<OrderSummary> = {}): OrderSummary => ({
  id: '00000000-0000-4000-8000-000000000001',
  number: 'GS-2026-01001',
  email: 'ana@example.org',
  name: 'Ana Ribeiro',
  locale: 'en',
  status: 'pending',
  paymentStatus: 'paid',
  currency: 'EUR',
  subtotalCents: 1_320_000,
  discountCents: 198_000,
  shippingCents: 0,
  totalCents: 1_122_000,
  promoCode: 'SASHA25',
  paymentIntentId: 'pi_123',
  sessionId: 'cs_test_123',
  createdAt: '2026-11-22T10:00:00.000Z',
  shippingAddress: {
    street: 'Rua do Norte 12',
    city: 'Lisboa',
    postalCode: '1200-286',
    country: 'NL',
  },
  lines: [
    {
      title: 'Lumière du Tage',
      type: 'original',
      quantity: 1,
      unitPriceCents: 1_250_000,
      editions: [],
    },
    {
      title: 'Seuil',
      type: 'print',
      quantity: 2,
      unitPriceCents: 35_000,
      editions: ['7/50', '8/50'],
    },
  ],
  ...overrides,
});

describe('order confirmation mail', () => {
  it('lists the works and the amounts, in English for an English order', () => {
    const mail = orderConfirmationMail(order(), DEFAULT_SETTINGS);
    expect(mail.subject).toBe('Your order GS-2026-01001 is confirmed');
    for (const body of [mail.text, mail.html!]) {
      expect(body).toContain('Lumière du Tage');
      expect(body).toContain('Original work, unique piece, quantity 1');
      expect(body).toContain('Print no. 7/50, Print no. 8/50, quantity 2');
      expect(body).toContain('€700.00');
      expect(body).toContain('Discount (SASHA25)');
      expect(body).toContain('€11,220.00');
      expect(body).toContain('Netherlands');
      expect(body).not.toMatch(/\bNL\b/);
      expect(body).toContain('certificate of authenticity');
    }
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
  });

  it('speaks French to a French buyer and promises no certificate for prints alone', () => {
    const mail = orderConfirmationMail(
      order({
        locale: 'fr',
        lines: [
          { title: 'Seuil', type: 'print', quantity: 1, unitPriceCents: 35_000, editions: [] },
        ],
        shippingAddress: {
          street: '1 rue de la Paix',
          city: 'Paris',
          postalCode: '75002',
          country: 'FR',
        },
      }),
      DEFAULT_SETTINGS,
    );
    expect(mail.subject).toBe('Confirmation de votre commande GS-2026-01001');
    expect(mail.text).toContain('Tirage d’art, quantité 1');
    expect(mail.text).toContain('France');
    expect(mail.text).not.toContain('certificat');
    expect(mail.html).not.toContain('certificat');
  });

  it('escapes what the buyer typed in the HTML', () => {
    const mail = orderConfirmationMail(order({ name: '<b>Ana</b>' }), DEFAULT_SETTINGS);
    expect(mail.html).toContain('&lt;b&gt;Ana&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Ana</b>');
  });

  it('goes out as multipart/alternative with both bodies', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-mail-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, dataDir });
      await mailer.send(orderConfirmationMail(order(), DEFAULT_SETTINGS));
      const [file] = await fs.readdir(path.join(dataDir, 'mail'));
      const parsed = parseMail(await fs.readFile(path.join(dataDir, 'mail', file!), 'utf8'));
      expect(parsed.headers).toMatch(/content-type:\s*multipart\/alternative/i);
      expect(parsed.text).toContain('Lumière du Tage');
      expect(parsed.html).toContain('Lumière du Tage');
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('gallery notification', () => {
  it('is in French, with the works and the country named', () => {
    const mail = galleryOrderNotification(order(), DEFAULT_SETTINGS);
    expect(mail.text).toContain('Œuvre originale, pièce unique, quantité 1');
    // The owner pencils the numbers on the prints.
    expect(mail.text).toContain('Tirage n° 7/50, Tirage n° 8/50, quantité 2');
    expect(mail.text).toContain('Client\u00a0: Ana Ribeiro');
    expect(mail.text).toContain('Pays-Bas');
    expect(mail.html).toContain('Pays-Bas');
  });
});

describe('issue 26: what the buyer’s mails carry', () => {
  const SETTINGS = {
    ...DEFAULT_SETTINGS,
    legal_identity: {
      name: 'Sasha Kovač EI',
      address: 'Rua da Rosa 112\n1200-389 Lisboa',
      siret: '',
      vat_mention: '',
      vat_regime: 'franchise' as const,
      vat_rate_bp: 0,
    },
  };
  const invoice = {
    number: 'F-000042',
    url: 'https://galerie.example/api/invoices/x?sig=y',
    pdf: {
      filename: 'invoice-F-000042.pdf',
      content: new Uint8Array([37, 80]),
      contentType: 'application/pdf',
    },
  };
  const context = { siteUrl: 'https://galerie.example', invoice };

  it('names the seller without an empty SIRET, and attaches the invoice', () => {
    for (const locale of ['fr', 'en'] as const) {
      const mail = orderConfirmationMail(order({ locale }), SETTINGS, context);
      expect(mail.text).toContain('Sasha Kovač EI\nRua da Rosa 112\n1200-389 Lisboa');
      expect(mail.text).not.toMatch(/SIRET|non renseigné|not provided/);
      expect(mail.attachments).toEqual([invoice.pdf]);
    }
  });

  it('gives the link only when the PDF could not be made', () => {
    const mail = orderConfirmationMail(order(), SETTINGS, {
      ...context,
      invoice: { ...invoice, pdf: null },
    });
    expect(mail.attachments).toBeUndefined();
    expect(mail.text).toContain(
      'You can download your invoice F-000042 from this link, without an account:',
    );
    expect(mail.text).toContain(`Download the invoice (PDF):\n${invoice.url}`);
  });

  it('lists the certificates given to it, each with the same link wording', () => {
    const mail = orderConfirmationMail(order({ locale: 'fr' }), SETTINGS, {
      ...context,
      certificates: [
        { title: 'Lumière du Tage', label: null, url: 'https://galerie.example/c/1' },
        { title: 'Seuil', label: '7/50', url: 'https://galerie.example/c/2' },
      ],
    });
    expect(mail.text).toContain('Lumière du Tage, œuvre originale');
    expect(mail.text).toContain('Seuil, tirage n° 7/50');
    expect(mail.text.split('Télécharger le certificat (PDF)\u00a0:')).toHaveLength(3);
  });

  it('tells a refund of some works: those works, the amount, the credit note attached', () => {
    const note = {
      ...invoice,
      number: 'A-000007',
      pdf: { ...invoice.pdf, filename: 'avoir-A-000007.pdf' },
    };
    const seuil = order().lines[1]!;
    const fr = partialRefundMail(order({ locale: 'fr' }), SETTINGS, {
      refundedCents: 59_500,
      lines: [seuil],
      creditNote: note,
    });
    expect(fr.subject).toBe('Remboursement partiel de votre commande GS-2026-01001');
    expect(fr.to).toEqual({ name: 'Ana Ribeiro', address: 'ana@example.org' });
    expect(fr.attachments).toEqual([note.pdf]);
    for (const body of [fr.text, fr.html!]) {
      expect(body).toMatch(/La galerie vous a remboursé 595,00\s€ pour les œuvres ci-dessous/);
      expect(body).toContain('Seuil');
      expect(body).not.toContain('Lumière du Tage');
      expect(body).toContain('Le reste de votre commande est maintenu.');
    }
    expect(fr.text).toContain('L’avoir A-000007, qui porte sur ces œuvres, est joint');
    expect(fr.text).toContain(note.url);
    expect(fr.text).toContain('Sasha Kovač EI');

    const en = partialRefundMail(order(), SETTINGS, {
      refundedCents: 59_500,
      lines: [seuil],
      creditNote: { ...note, pdf: null },
    });
    expect(en.subject).toBe('Part of your order GS-2026-01001 has been refunded');
    expect(en.attachments).toBeUndefined();
    expect(en.text).toContain('The gallery has refunded €595.00 for the works of your order');
    expect(en.text).toContain('You can download credit note A-000007, for these works');
  });

  it('words each link the same in every mail, in each language', () => {
    for (const locale of ['fr', 'en'] as const) {
      const confirmation = orderConfirmationMail(order({ locale }), SETTINGS, context);
      const cancellation = cancellationMail(order({ locale }), SETTINGS, {
        refundedCents: 1_122_000,
        creditNote: { ...invoice, number: 'A-000001' },
      });
      const shipped = shippingMail(
        order({ locale }),
        { carrier: 'DHL Express', trackingNumber: '12 34' },
        SETTINGS,
      );
      const labels = (text: string) =>
        text
          .split('\n')
          .map((line, i, all) => (/^https:\/\//.test(all[i + 1] ?? '') ? line : null))
          .filter((line): line is string => line !== null);
      const all = [confirmation, cancellation, shipped].flatMap((m) => labels(m.text));
      const byLabel = new Map<string, Set<string>>();
      for (const mail of [confirmation, cancellation, shipped]) {
        const lines = mail.text.split('\n');
        lines.forEach((line, i) => {
          const next = lines[i + 1] ?? '';
          if (!/^https:\/\//.test(next)) return;
          const target = next
            .replace(/[?#].*$/, '')
            .replace(/\/api\/invoices\/.*/, '/api/invoices');
          byLabel.set(target, (byLabel.get(target) ?? new Set()).add(line));
        });
      }
      // One wording per target: the invoice and the credit note share the signed-link endpoint,
      // each with its own words.
      for (const [target, words] of byLabel)
        expect(words.size, target).toBeLessThanOrEqual(target.endsWith('/api/invoices') ? 2 : 1);
      expect(all.length).toBeGreaterThanOrEqual(5);
      expect(shipped.text).toContain(
        locale === 'fr'
          ? 'Suivre le colis\u00a0:\nhttps://www.dhl.com/global-en/home/tracking.html?tracking-id=1234'
          : 'Track the parcel:\nhttps://www.dhl.com/global-en/home/tracking.html?tracking-id=1234',
      );
    }
  });

  it('keeps French spacing in French and none in English, in every mail', () => {
    for (const locale of ['fr', 'en'] as const) {
      const mails = [
        orderConfirmationMail(order({ locale }), SETTINGS, context),
        cancellationMail(order({ locale }), SETTINGS, { refundedCents: null }),
        shippingMail(order({ locale }), { carrier: 'Colissimo', trackingNumber: '6A1' }, SETTINGS),
      ];
      for (const mail of mails) {
        const text = mail.text.replace(/https?:\/\/\S+/g, '');
        const bad = text
          .split('\n')
          .filter((line) =>
            locale === 'fr'
              ? /(^|[^\u00a0])[:;?!](\s|$)/.test(line)
              : /[\u00a0\u202f][:;?!]/.test(line),
          );
        expect(bad, `${locale}: ${mail.subject}`).toEqual([]);
      }
      expect(mails[0]!.text).toContain(locale === 'fr' ? 'Sous-total\u00a0: ' : 'Subtotal: ');
      expect(mails[0]!.text).toContain(
        locale === 'fr' ? 'Adresse de livraison\u00a0:' : 'Shipping address:',
      );
    }
  });

  it('tells a buyer whose cancelled order was not refunded so, in their language, with no attachment', () => {
    const mail = cancellationMail(order({ locale: 'fr' }), SETTINGS, { refundedCents: null });
    expect(mail.subject).toBe('Annulation de votre commande GS-2026-01001');
    expect(mail.text).toContain('ne s’accompagne pas d’un remboursement');
    expect(mail.attachments).toBeUndefined();
    expect(mail.html).toMatch(/<html lang="fr">/);
  });

  it('says a cancellation follows the buyer’s withdrawal when it does', () => {
    const fr = cancellationMail(order({ locale: 'fr' }), SETTINGS, {
      refundedCents: 1_122_000,
      withdrawal: true,
    });
    expect(fr.text).toContain(
      'Suite à votre rétractation, votre commande GS-2026-01001 est annulée.',
    );
    expect(fr.text).not.toContain('annulée par la galerie');
    const en = cancellationMail(order(), SETTINGS, { refundedCents: 1_122_000, withdrawal: true });
    expect(en.text).toContain('Following your withdrawal, your order GS-2026-01001 is cancelled.');
    expect(en.text).toContain('We have refunded €11,220.00');
  });

  it('goes out with the invoice attached as application/pdf', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'galerie-mail-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, dataDir });
      await mailer.send(orderConfirmationMail(order(), SETTINGS, context));
      const [file] = await fs.readdir(path.join(dataDir, 'mail'));
      const raw = await fs.readFile(path.join(dataDir, 'mail', file!), 'utf8');
      expect(raw).toMatch(/content-type:\s*multipart\/mixed/i);
      expect(raw).toMatch(/Content-Type: application\/pdf; name=invoice-F-000042\.pdf/i);
      expect(raw).toMatch(/Content-Disposition: attachment; filename=invoice-F-000042\.pdf/i);
      // Both bodies still read, from inside the mixed part.
      const parsed = parseMail(raw);
      expect(parsed.text).toContain('Your invoice F-000042 is attached');
      expect(parsed.html).toContain('Your invoice F-000042 is attached');
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an older order’s address (issue 27: one formatter, api/orders/address.ts)', () => {
  const older = order({
    locale: 'fr',
    shippingAddress: {
      street: '12 rue des Lilas',
      postal_code: '75011',
      city: 'Paris',
      country: 'FR',
    },
  });

  it('keeps its postal code in the confirmation, the notification and the shipping mail', () => {
    const mails = [
      orderConfirmationMail(older, DEFAULT_SETTINGS),
      galleryOrderNotification(older, DEFAULT_SETTINGS),
      shippingMail(older, { carrier: 'Colissimo', trackingNumber: '6A1' }, DEFAULT_SETTINGS),
    ];
    for (const mail of mails) expect(mail.text).toContain('75011 Paris');
  });

  it('links the carrier’s tracking page in the shipping mail', () => {
    const mail = shippingMail(
      older,
      { carrier: 'Colissimo', trackingNumber: '6A123' },
      DEFAULT_SETTINGS,
    );
    expect(mail.text).toContain('https://www.laposte.fr/outils/suivre-vos-envois?code=6A123');
    expect(mail.html).toContain(
      'href="https://www.laposte.fr/outils/suivre-vos-envois?code=6A123"',
    );
  });
});
