// The invoice and credit-note PDF (issue 13 §4): A4, in the buyer's language (issue 26: a version 1
// snapshot prints in French, as issued), drawn with pdf-lib from the snapshot
// stored at issue — never from the live order — in DejaVu Sans embedded through fontkit (the
// standard PDF fonts cannot print 'č'). The same snapshot always gives the same bytes: dates and
// producer come from the snapshot, fonts are subset under fixed names (docs/decisions/019).
import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { editionCaption, parseEditionLabel } from '../../src/domain/editions.ts';
import { formatVatRate, vatMention } from '../../src/domain/legal.ts';
import { formatLongDate } from '../../src/domain/dates.ts';
import { formatMoney } from '../../src/domain/money.ts';
import type { InvoiceKind, InvoiceLine, InvoiceLocale, InvoiceSnapshot } from './index.ts';

const FONT_DIR = path.join('assets', 'fonts', 'pdf');
const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/**
 * The repository's font folder. Endpoints run from a bundle under dist/, so the folder is looked
 * for upwards from this module, then from the working directory the server was started in.
 */
function fontDir(): string {
  const tried: string[] = [];
  for (const start of [import.meta.dirname, process.cwd()]) {
    let dir = start;
    for (;;) {
      const candidate = path.join(dir, FONT_DIR);
      tried.push(candidate);
      if (fs.existsSync(path.join(candidate, FONT_FILES.regular))) return candidate;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  throw new Error(`Invoice fonts not found (looked in ${tried.slice(0, 3).join(', ')}, …).`);
}

let fonts: Promise<{ regular: Uint8Array; bold: Uint8Array }> | undefined;

/** The two TTF files, read once per process. */
function fontBytes(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  fonts ??= (async () => {
    const dir = fontDir();
    const [regular, bold] = await Promise.all([
      fs.promises.readFile(path.join(dir, FONT_FILES.regular)),
      fs.promises.readFile(path.join(dir, FONT_FILES.bold)),
    ]);
    return { regular, bold };
  })();
  fonts.catch(() => (fonts = undefined));
  return fonts;
}

// Parsing the two TTF files is most of a render's time: fontkit's font objects are kept and reused
// (each document still takes its own subset of them). fontkit caches a glyph with the characters
// it was first asked for, and subsetting asks for the parts of a composed glyph ('c' in 'ć') with
// none: a shared font would then give 'c' no text in the next document's ToUnicode map (copy,
// search and screen readers would lose it). Every glyph is asked for by its character first.
const parsed = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>();
const parsedFonts: typeof fontkit = {
  create(data, postscriptName) {
    let font = parsed.get(data);
    if (!font) {
      font = fontkit.create(data, postscriptName);
      for (const codePoint of font.characterSet) font.glyphForCodePoint(codePoint);
      parsed.set(data, font);
    }
    return font;
  },
};

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const RIGHT = A4[0] - MARGIN;
const BOTTOM = 80;
const INK = rgb(0.11, 0.105, 0.1);
const GREY = rgb(0.38, 0.37, 0.35);
const RULE = rgb(0.8, 0.79, 0.77);
const BAND = rgb(0.95, 0.94, 0.92);
// The gallery's time zone: a payment at 00:30 in Paris is dated that day.
const TIME_ZONE = 'Europe/Paris';

/** Money as the reader writes it (`1 234,50 €`, `€1,234.50`), in the order's currency; a currency
 * code Intl refuses still prints, so an invoice is never lost to it. */
function pdfMoney(cents: number, currency: string, locale: InvoiceLocale = 'fr'): string {
  try {
    return formatMoney(cents, currency, locale);
  } catch {
    const amount = (cents / 100).toFixed(2);
    return `${locale === 'fr' ? amount.replace('.', ',') : amount} ${currency}`;
  }
}

/** `23 novembre 2026` / `23 November 2026` (`1er juin 2026`), in Paris time. */
export function formatDate(iso: string, locale: InvoiceLocale = 'fr'): string {
  return formatLongDate(locale, iso, { timeZone: TIME_ZONE });
}

// French typography: a no-break space before the colon in French, none in English.
const NBSP = '\u00a0';

/** Every word the document prints, by language. */
const TEXT = {
  fr: {
    invoice: 'Facture',
    creditNote: 'Avoir',
    INVOICE: 'FACTURE',
    CREDIT_NOTE: 'AVOIR',
    number: (n: string) => `N° ${n}`,
    date: (d: string) => `Date${NBSP}: ${d}`,
    order: (n: string) => `Commande${NBSP}: ${n}`,
    subject: (n: string) => `Commande ${n}`,
    siret: (s: string) => `SIRET${NBSP}: ${s}`,
    footerSiret: (s: string) => `SIRET ${s}`,
    refersToInvoice: (n: string, invoice: string, date: string) =>
      `Avoir n° ${n} — se rapporte à la facture ${invoice} du ${date}`,
    refersToOrder: (n: string, order: string) =>
      `Avoir n° ${n} — se rapporte à la commande ${order}`,
    reason: (r: string) => `Motif${NBSP}: ${r}`,
    reasons: {
      cancellation: 'annulation de la commande',
      withdrawal: 'exercice du droit de rétractation',
      partial: 'remboursement partiel (œuvres désignées ci-dessous)',
    } as Record<string, string>,
    buyer: 'FACTURÉ À',
    client: 'CLIENT',
    description: 'Désignation',
    qty: 'Qté',
    unit: 'Prix unitaire',
    total: 'Total',
    original: 'Œuvre originale, pièce unique',
    print: 'Tirage d’art',
    // A version 1 line: its nature only, as it was printed.
    v1: { original: 'Œuvre originale', print: 'Tirage d’art' } as Record<
      InvoiceLine['type'],
      string
    >,
    subtotal: 'Sous-total',
    discount: (code: string | null) => (code ? `Remise (code ${code})` : 'Remise'),
    shipping: 'Livraison',
    free: 'Gratuite',
    creditTotal: 'Total de l’avoir',
    beforeTax: 'Total HT',
    tax: (rate: number) => `TVA ${formatVatRate(rate, 'fr')}${NBSP}%`,
    afterTax: 'Total TTC',
    paid: (d: string, method: string) => `Payée le ${d} — ${method}`,
    refunded: (d: string, method: string) => `Remboursement le ${d} — ${method}`,
    method: (m: string) => m,
    page: (title: string, i: number, n: number) => `${title} — page ${i}/${n}`,
  },
  en: {
    invoice: 'Invoice',
    creditNote: 'Credit note',
    INVOICE: 'INVOICE',
    CREDIT_NOTE: 'CREDIT NOTE',
    number: (n: string) => `No. ${n}`,
    date: (d: string) => `Date: ${d}`,
    order: (n: string) => `Order: ${n}`,
    subject: (n: string) => `Order ${n}`,
    siret: (s: string) => `SIRET: ${s}`,
    footerSiret: (s: string) => `SIRET ${s}`,
    refersToInvoice: (n: string, invoice: string, date: string) =>
      `Credit note no. ${n} — refers to invoice ${invoice} of ${date}`,
    refersToOrder: (n: string, order: string) => `Credit note no. ${n} — refers to order ${order}`,
    reason: (r: string) => `Reason: ${r}`,
    reasons: {
      cancellation: 'order cancelled',
      withdrawal: 'right of withdrawal exercised',
      partial: 'partial refund (the works listed below)',
    } as Record<string, string>,
    buyer: 'BILLED TO',
    client: 'CUSTOMER',
    description: 'Description',
    qty: 'Qty',
    unit: 'Unit price',
    total: 'Total',
    original: 'Original work, unique piece',
    print: 'Fine-art print',
    v1: { original: 'Original artwork', print: 'Fine-art print' } as Record<
      InvoiceLine['type'],
      string
    >,
    subtotal: 'Subtotal',
    discount: (code: string | null) => (code ? `Discount (code ${code})` : 'Discount'),
    shipping: 'Shipping',
    free: 'Free',
    creditTotal: 'Credit note total',
    beforeTax: 'Total before VAT',
    tax: (rate: number) => `VAT ${formatVatRate(rate, 'en')}%`,
    afterTax: 'Total including VAT',
    paid: (d: string, method: string) => `Paid on ${d} — ${method}`,
    refunded: (d: string, method: string) => `Refunded on ${d} — ${method}`,
    method: (m: string) => (m === 'Carte bancaire (Stripe)' ? 'Card (Stripe)' : m),
    page: (title: string, i: number, n: number) => `${title} — page ${i}/${n}`,
  },
} as const;

/**
 * What a line says of the work (décret n° 81-255 of 3 March 1981, art. 1 to 4): its nature — an
 * original and unique piece, or a print with its copies' numbers — then technique, dimensions and
 * year. A version 1 line (no such fields) prints its nature as it was issued.
 */
export function lineDescription(line: InvoiceLine, locale: InvoiceLocale): string[] {
  const t = TEXT[locale];
  if (line.technique === undefined && line.editions === undefined) return [t.v1[line.type]];
  let nature: string;
  if (line.type === 'original') nature = t.original;
  else {
    const copies = (line.editions ?? [])
      .map((label) => parseEditionLabel(label))
      .filter((copy) => copy !== null)
      .map((copy) => editionCaption(copy, locale));
    nature = copies.length ? copies.join(', ') : t.print;
  }
  const details = [line.technique ?? '', line.dimensions ?? '', line.year ? String(line.year) : '']
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' · ');
  return details ? [nature, details] : [nature];
}

/** One line of text: no control characters (a name typed with a tab or a newline). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
export const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/** Words fitted to `width`; a word longer than the width is cut. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of clean(text).split(/ +/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

interface Pen {
  page: PDFPage;
  y: number;
}

/** Renders an invoice or credit note; `kind` must be the snapshot's. */
export async function renderInvoicePdf(
  snapshot: InvoiceSnapshot,
  kind: InvoiceKind = snapshot.kind,
): Promise<Uint8Array> {
  if (kind !== snapshot.kind) throw new Error(`A ${snapshot.kind} cannot be printed as a ${kind}.`);
  const credit = kind === 'credit_note';
  const locale: InvoiceLocale = snapshot.locale === 'en' ? 'en' : 'fr';
  const t = TEXT[locale];
  const issued = new Date(snapshot.issuedAt);
  const money = (cents: number) => pdfMoney(cents, snapshot.currency, locale);
  const date = (iso: string) => formatDate(iso, locale);

  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(parsedFonts);
  const bytes = await fontBytes();
  // Fixed names: pdf-lib would otherwise add a random suffix, and the bytes would differ.
  const regular = await doc.embedFont(bytes.regular, { subset: true, customName: 'DejaVuSans' });
  const bold = await doc.embedFont(bytes.bold, { subset: true, customName: 'DejaVuSans-Bold' });

  const title = `${credit ? t.creditNote : t.invoice} ${snapshot.number}`;
  doc.setTitle(title);
  doc.setAuthor(snapshot.seller.name);
  doc.setSubject(t.subject(snapshot.orderNumber));
  doc.setLanguage(locale === 'en' ? 'en-GB' : 'fr-FR');
  doc.setCreator('Galerie');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);

  const text = (
    pen: Pen,
    value: string,
    x: number,
    options: { font?: PDFFont; size?: number; color?: typeof INK; align?: 'left' | 'right' } = {},
  ) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    const line = clean(value);
    const left = options.align === 'right' ? x - font.widthOfTextAtSize(line, size) : x;
    pen.page.drawText(line, { x: left, y: pen.y, size, font, color: options.color ?? INK });
  };

  const pages: PDFPage[] = [];
  const newPage = (): Pen => {
    const page = doc.addPage(A4);
    pages.push(page);
    return { page, y: A4[1] - MARGIN };
  };
  let pen = newPage();

  // Seller (left) and title block (right). An empty field is left out, never printed as missing.
  const sellerTop = pen.y;
  text(pen, snapshot.seller.name, MARGIN, { font: bold, size: 13 });
  pen.y -= 16;
  for (const part of snapshot.seller.address.split(/\r?\n/).filter((l) => l.trim()))
    for (const line of wrap(part, regular, 9.5, 250)) {
      text(pen, line, MARGIN, { size: 9.5 });
      pen.y -= 12.5;
    }
  if (snapshot.seller.siret) {
    text(pen, t.siret(snapshot.seller.siret), MARGIN, { size: 9.5 });
    pen.y -= 12.5;
  }
  text(pen, snapshot.seller.email, MARGIN, { size: 9.5 });
  const sellerBottom = pen.y;

  pen.y = sellerTop - 8;
  text(pen, credit ? t.CREDIT_NOTE : t.INVOICE, RIGHT, { font: bold, size: 24, align: 'right' });
  pen.y -= 22;
  text(pen, t.number(snapshot.number), RIGHT, { font: bold, size: 11, align: 'right' });
  pen.y -= 14;
  text(pen, t.date(date(snapshot.issuedAt)), RIGHT, { size: 9.5, align: 'right' });
  pen.y -= 12.5;
  text(pen, t.order(snapshot.orderNumber), RIGHT, { size: 9.5, align: 'right' });
  pen.y = Math.min(pen.y, sellerBottom) - 34;

  if (credit) {
    const refers = snapshot.refersTo
      ? t.refersToInvoice(
          snapshot.number,
          snapshot.refersTo.number,
          date(snapshot.refersTo.issuedAt),
        )
      : t.refersToOrder(snapshot.number, snapshot.orderNumber);
    for (const line of wrap(refers, bold, 10.5, RIGHT - MARGIN)) {
      text(pen, line, MARGIN, { font: bold, size: 10.5 });
      pen.y -= 14;
    }
    if (snapshot.reason) {
      for (const part of wrap(
        t.reason(t.reasons[snapshot.reason] ?? snapshot.reason),
        regular,
        9.5,
        RIGHT - MARGIN,
      )) {
        text(pen, part, MARGIN, { size: 9.5 });
        pen.y -= 14;
      }
    }
    pen.y -= 14;
  }

  // Buyer.
  text(pen, credit ? t.client : t.buyer, MARGIN, { font: bold, size: 8.5, color: GREY });
  pen.y -= 15;
  text(pen, snapshot.buyer.name, MARGIN, { font: bold, size: 11 });
  pen.y -= 14;
  for (const line of [...snapshot.buyer.addressLines, snapshot.buyer.email]) {
    for (const part of wrap(line, regular, 9.5, 300)) {
      text(pen, part, MARGIN, { size: 9.5 });
      pen.y -= 12.5;
    }
  }
  pen.y -= 24;

  // Lines.
  const COL = { qty: 360, unit: 455, total: RIGHT };
  const DESCRIPTION_WIDTH = 265;
  const header = () => {
    pen.page.drawRectangle({
      x: MARGIN,
      y: pen.y - 7,
      width: RIGHT - MARGIN,
      height: 22,
      color: BAND,
    });
    text(pen, t.description, MARGIN + 6, { font: bold, size: 9 });
    text(pen, t.qty, COL.qty, { font: bold, size: 9, align: 'right' });
    text(pen, t.unit, COL.unit, { font: bold, size: 9, align: 'right' });
    text(pen, t.total, COL.total - 6, { font: bold, size: 9, align: 'right' });
    pen.y -= 26;
  };
  header();
  for (const line of snapshot.lines) {
    const titleLines = wrap(line.title, regular, 10, DESCRIPTION_WIDTH);
    const described = lineDescription(line, locale).flatMap((part) =>
      wrap(part, regular, 8.5, DESCRIPTION_WIDTH),
    );
    const height = titleLines.length * 13 + described.length * 11 + 7;
    if (pen.y - height < BOTTOM) {
      pen = newPage();
      header();
    }
    text(pen, String(line.quantity), COL.qty, { align: 'right' });
    text(pen, money(line.unitPriceCents), COL.unit, { align: 'right' });
    text(pen, money(line.lineTotalCents), COL.total - 6, { align: 'right' });
    for (const part of titleLines) {
      text(pen, part, MARGIN + 6);
      pen.y -= 13;
    }
    described.forEach((part, index) => {
      if (index > 0) pen.y -= 11;
      text(pen, part, MARGIN + 6, { size: 8.5, color: GREY });
    });
    pen.y -= 9;
    pen.page.drawLine({
      start: { x: MARGIN, y: pen.y },
      end: { x: RIGHT, y: pen.y },
      thickness: 0.5,
      color: RULE,
    });
    pen.y -= 16;
  }

  // Totals, then the VAT split (under a rate), then the mentions.
  const totals: Array<[string, string]> = [[t.subtotal, money(snapshot.subtotalCents)]];
  if (snapshot.discountCents !== 0)
    totals.push([t.discount(snapshot.promoCode), money(-snapshot.discountCents)]);
  totals.push([t.shipping, snapshot.shippingCents === 0 ? t.free : money(snapshot.shippingCents)]);
  const vat = snapshot.vatAmounts ?? null;
  const taxRows: Array<[string, string]> = vat
    ? [
        [t.beforeTax, money(vat.beforeTaxCents)],
        [t.tax(vat.rateBp), money(vat.taxCents)],
        [t.afterTax, money(vat.afterTaxCents)],
      ]
    : [];
  // Version 2: the regime's mention in the document's language, then the owner's own mention;
  // version 1: the one mention it was issued with.
  const regimeMention = snapshot.seller.vat ? vatMention(snapshot.seller.vat, locale) : '';
  const mentions = [
    regimeMention,
    snapshot.seller.vatMention,
    snapshot.payment.date
      ? (credit ? t.refunded : t.paid)(
          date(snapshot.payment.date),
          t.method(snapshot.payment.method),
        )
      : '',
  ].filter(Boolean);
  const needed = (totals.length + taxRows.length) * 16 + 40 + mentions.length * 14 + 20;
  if (pen.y - needed < BOTTOM) pen = newPage();
  const LABEL_X = 330;
  for (const [label, value] of totals) {
    text(pen, label, LABEL_X);
    text(pen, value, COL.total - 6, { align: 'right' });
    pen.y -= 16;
  }
  pen.page.drawLine({
    start: { x: LABEL_X, y: pen.y + 8 },
    end: { x: RIGHT, y: pen.y + 8 },
    thickness: 0.8,
    color: INK,
  });
  pen.y -= 8;
  text(pen, credit ? t.creditTotal : t.total, LABEL_X, { font: bold, size: 12 });
  text(pen, money(snapshot.totalCents), COL.total - 6, { font: bold, size: 12, align: 'right' });
  pen.y -= taxRows.length ? 22 : 36;
  for (const [label, value] of taxRows) {
    text(pen, label, LABEL_X, { size: 9.5 });
    text(pen, value, COL.total - 6, { size: 9.5, align: 'right' });
    pen.y -= 14;
  }
  if (taxRows.length) pen.y -= 18;
  for (const mention of mentions) {
    for (const part of wrap(mention, regular, 9.5, RIGHT - MARGIN)) {
      text(pen, part, MARGIN, { size: 9.5 });
      pen.y -= 13;
    }
  }

  // Footer on every page: who issued it, and where the page sits.
  const footer = [
    snapshot.seller.name,
    snapshot.seller.siret ? t.footerSiret(snapshot.seller.siret) : '',
    snapshot.seller.email,
  ]
    .filter(Boolean)
    .join(' · ');
  pages.forEach((page, index) => {
    const foot: Pen = { page, y: 40 };
    page.drawLine({
      start: { x: MARGIN, y: 54 },
      end: { x: RIGHT, y: 54 },
      thickness: 0.5,
      color: RULE,
    });
    text(foot, wrap(footer, regular, 8, 380)[0] ?? '', MARGIN, { size: 8, color: GREY });
    text(foot, t.page(title, index + 1, pages.length), RIGHT, {
      size: 8,
      color: GREY,
      align: 'right',
    });
  });

  return doc.save({ useObjectStreams: true });
}
