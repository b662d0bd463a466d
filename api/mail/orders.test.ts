// The order mails (issue 9): HTML with a plain-text alternative, the works listed, the country by
// name, in the buyer's language, and a certificate of authenticity promised for originals only.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMail } from '../../tests/helpers/mail.ts';
import type { OrderSummary } from '../orders/index.ts';
import { DEFAULT_SETTINGS } from '../settings/index.ts';
import { createMailer } from './index.ts';
import { galleryOrderNotification, orderConfirmationMail } from './orders.ts';

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
    { title: 'Seuil', type: 'print', quantity: 2, unitPriceCents: 35_000, editions: [] },
  ],
  ...overrides,
});

describe('order confirmation mail', () => {
  it('lists the works and the amounts, in English for an English order', () => {
    const mail = orderConfirmationMail(order(), DEFAULT_SETTINGS);
    expect(mail.subject).toBe('Your order GS-2026-01001 is confirmed');
    for (const body of [mail.text, mail.html!]) {
      expect(body).toContain('Lumière du Tage');
      expect(body).toContain('Original artwork, quantity 1');
      expect(body).toContain('Fine-art print, quantity 2');
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
    expect(mail.text).toContain('Œuvre originale, quantité 1');
    expect(mail.text).toContain('Pays-Bas');
    expect(mail.html).toContain('Pays-Bas');
  });
});
