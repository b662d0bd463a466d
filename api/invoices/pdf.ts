// The invoice and credit-note PDF (issue 13 §4): A4, French, drawn with pdf-lib from the snapshot
// stored at issue — never from the live order — in DejaVu Sans embedded through fontkit (the
// standard PDF fonts cannot print 'č'). The same snapshot always gives the same bytes: dates and
// producer come from the snapshot, fonts are subset under fixed names (docs/decisions/019).
import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatMoney } from '../../src/domain/money.ts';
import type { InvoiceKind, InvoiceLine, InvoiceSnapshot } from './index.ts';

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

/** Money as a French reader writes it: `1 234,50 €`, in the order's currency; a currency code
 * Intl refuses still prints, so an invoice is never lost to it. */
function pdfMoney(cents: number, currency: string): string {
  try {
    return formatMoney(cents, currency);
  } catch {
    return `${(cents / 100).toFixed(2).replace('.', ',')} ${currency}`;
  }
}

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: TIME_ZONE });
/** `23 novembre 2026`, in Paris time. */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

const TYPE_LABELS: Record<InvoiceLine['type'], string> = {
  original: 'Œuvre originale',
  print: 'Tirage d’art',
};

const REASONS: Record<string, string> = {
  cancellation: 'annulation de la commande',
  withdrawal: 'exercice du droit de rétractation',
};

/** One line of text: no control characters (a name typed with a tab or a newline). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/** Words fitted to `width`; a word longer than the width is cut. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
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
  const issued = new Date(snapshot.issuedAt);
  const money = (cents: number) => pdfMoney(cents, snapshot.currency);

  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(parsedFonts);
  const bytes = await fontBytes();
  // Fixed names: pdf-lib would otherwise add a random suffix, and the bytes would differ.
  const regular = await doc.embedFont(bytes.regular, { subset: true, customName: 'DejaVuSans' });
  const bold = await doc.embedFont(bytes.bold, { subset: true, customName: 'DejaVuSans-Bold' });

  const title = `${credit ? 'Avoir' : 'Facture'} ${snapshot.number}`;
  doc.setTitle(title);
  doc.setAuthor(snapshot.seller.name);
  doc.setSubject(`Commande ${snapshot.orderNumber}`);
  doc.setLanguage('fr-FR');
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

  // Seller (left) and title block (right).
  const sellerTop = pen.y;
  text(pen, snapshot.seller.name, MARGIN, { font: bold, size: 13 });
  pen.y -= 16;
  for (const line of wrap(snapshot.seller.address, regular, 9.5, 250)) {
    text(pen, line, MARGIN, { size: 9.5 });
    pen.y -= 12.5;
  }
  text(pen, `SIRET : ${snapshot.seller.siret || 'non renseigné'}`, MARGIN, { size: 9.5 });
  pen.y -= 12.5;
  text(pen, snapshot.seller.email, MARGIN, { size: 9.5 });
  const sellerBottom = pen.y;

  pen.y = sellerTop - 8;
  text(pen, credit ? 'AVOIR' : 'FACTURE', RIGHT, { font: bold, size: 24, align: 'right' });
  pen.y -= 22;
  text(pen, `N° ${snapshot.number}`, RIGHT, { font: bold, size: 11, align: 'right' });
  pen.y -= 14;
  text(pen, `Date : ${formatDate(snapshot.issuedAt)}`, RIGHT, { size: 9.5, align: 'right' });
  pen.y -= 12.5;
  text(pen, `Commande : ${snapshot.orderNumber}`, RIGHT, { size: 9.5, align: 'right' });
  pen.y = Math.min(pen.y, sellerBottom) - 34;

  if (credit) {
    const refers = snapshot.refersTo
      ? `Avoir n° ${snapshot.number} — se rapporte à la facture ${snapshot.refersTo.number} du ${formatDate(snapshot.refersTo.issuedAt)}`
      : `Avoir n° ${snapshot.number} — se rapporte à la commande ${snapshot.orderNumber}`;
    for (const line of wrap(refers, bold, 10.5, RIGHT - MARGIN)) {
      text(pen, line, MARGIN, { font: bold, size: 10.5 });
      pen.y -= 14;
    }
    if (snapshot.reason) {
      for (const part of wrap(
        `Motif : ${REASONS[snapshot.reason] ?? snapshot.reason}`,
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
  text(pen, credit ? 'CLIENT' : 'FACTURÉ À', MARGIN, { font: bold, size: 8.5, color: GREY });
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
    text(pen, 'Désignation', MARGIN + 6, { font: bold, size: 9 });
    text(pen, 'Qté', COL.qty, { font: bold, size: 9, align: 'right' });
    text(pen, 'Prix unitaire', COL.unit, { font: bold, size: 9, align: 'right' });
    text(pen, 'Total', COL.total - 6, { font: bold, size: 9, align: 'right' });
    pen.y -= 26;
  };
  header();
  for (const line of snapshot.lines) {
    const titleLines = wrap(line.title, regular, 10, DESCRIPTION_WIDTH);
    const height = titleLines.length * 13 + 18;
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
    text(pen, TYPE_LABELS[line.type], MARGIN + 6, { size: 8.5, color: GREY });
    pen.y -= 9;
    pen.page.drawLine({
      start: { x: MARGIN, y: pen.y },
      end: { x: RIGHT, y: pen.y },
      thickness: 0.5,
      color: RULE,
    });
    pen.y -= 16;
  }

  // Totals, then the mentions.
  const totals: Array<[string, string]> = [['Sous-total', money(snapshot.subtotalCents)]];
  if (snapshot.discountCents !== 0)
    totals.push([
      snapshot.promoCode ? `Remise (code ${snapshot.promoCode})` : 'Remise',
      money(-snapshot.discountCents),
    ]);
  totals.push([
    'Livraison',
    snapshot.shippingCents === 0 ? 'Gratuite' : money(snapshot.shippingCents),
  ]);
  const mentions = [
    snapshot.seller.vatMention,
    snapshot.payment.date
      ? `${credit ? 'Remboursement le' : 'Payée le'} ${formatDate(snapshot.payment.date)} — ${snapshot.payment.method}`
      : '',
  ].filter(Boolean);
  if (pen.y - (totals.length * 16 + 40 + mentions.length * 14 + 20) < BOTTOM) pen = newPage();
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
  text(pen, credit ? 'Total de l’avoir' : 'Total', LABEL_X, { font: bold, size: 12 });
  text(pen, money(snapshot.totalCents), COL.total - 6, { font: bold, size: 12, align: 'right' });
  pen.y -= 36;
  for (const mention of mentions) {
    for (const part of wrap(mention, regular, 9.5, RIGHT - MARGIN)) {
      text(pen, part, MARGIN, { size: 9.5 });
      pen.y -= 13;
    }
  }

  // Footer on every page: who issued it, and where the page sits.
  const footer = [
    snapshot.seller.name,
    snapshot.seller.siret ? `SIRET ${snapshot.seller.siret}` : '',
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
    text(foot, `${title} — page ${index + 1}/${pages.length}`, RIGHT, {
      size: 8,
      color: GREY,
      align: 'right',
    });
  });

  return doc.save({ useObjectStreams: true });
}
