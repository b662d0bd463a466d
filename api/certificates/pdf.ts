// The certificate's PDF (issue 26): A4, in the certificate's language, drawn from the signed
// content alone — the work's photo (the master the content names, by its SHA-256), every field, the
// serial, a QR code to the public page and the signature in short form — with the signed content
// and its signature attached as `certificate.json`, so the file verifies offline
// (`npm run certificate:verify`). Fonts and dates are fixed as the invoice's are
// (api/invoices/pdf.ts): the same certificate always gives the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import qrcode from 'qrcode-generator';
import sharp from 'sharp';
import type { Executor } from '../db/index.ts';
import type { MediaStorage } from '../media/storage.ts';
import { clean, wrap } from '../invoices/pdf.ts';
import { CERTIFICATE_TEXT, longDate, natureText, type CertificateContent } from './content.ts';

/** The name of the attached signed content, which the verify command reads. */
export const ATTACHMENT_NAME = 'certificate.json';

/** What is attached: the content exactly as signed, its signature and the key that made it. */
export interface SignedCertificate {
  algorithm: 'Ed25519';
  keyId: string;
  content: CertificateContent;
  signature: string;
}

const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/** The repository's PDF fonts, looked for upwards from here, then from the working directory. */
function fontDir(): string {
  for (const start of [import.meta.dirname, process.cwd()]) {
    let dir = start;
    for (;;) {
      const candidate = path.join(dir, 'assets', 'fonts', 'pdf');
      if (fs.existsSync(path.join(candidate, FONT_FILES.regular))) return candidate;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  throw new Error('Certificate fonts not found (assets/fonts/pdf).');
}

let fonts: Promise<{ regular: Uint8Array; bold: Uint8Array }> | undefined;
function fontBytes() {
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

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const RIGHT = A4[0] - MARGIN;
const INK = rgb(0.11, 0.105, 0.1);
const GREY = rgb(0.38, 0.37, 0.35);
const RULE = rgb(0.8, 0.79, 0.77);

/** The signature as printed: its start and end, enough to compare with the attached one. */
export function shortSignature(signature: string): string {
  return `${signature.slice(0, 22)}…${signature.slice(-10)}`;
}

/** The photo's master as a JPEG no wider than the page needs; null when it is gone. */
export async function certificatePhoto(
  db: Executor,
  storage: MediaStorage,
  sha256: string | null,
): Promise<Uint8Array | null> {
  if (!sha256) return null;
  const media = await db
    .selectFrom('media')
    .select('storage_key')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  if (!media) return null;
  try {
    const master = await storage.get(media.storage_key);
    return await sharp(master)
      .rotate()
      .resize({ width: 900, height: 900, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
  } catch {
    return null;
  }
}

export async function renderCertificatePdf(
  signed: SignedCertificate,
  photo: Uint8Array | null,
): Promise<Uint8Array> {
  const { content } = signed;
  const locale = content.language;
  const T = CERTIFICATE_TEXT[locale];
  const issued = new Date(content.issuedAt);

  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const bytes = await fontBytes();
  const regular = await doc.embedFont(bytes.regular, { subset: true, customName: 'DejaVuSans' });
  const bold = await doc.embedFont(bytes.bold, { subset: true, customName: 'DejaVuSans-Bold' });
  const title = `${T.title} ${content.serial}`;
  doc.setTitle(title);
  doc.setAuthor(content.gallery.name);
  doc.setSubject(content.serial);
  doc.setKeywords([content.serial, content.keyId]);
  doc.setLanguage(locale === 'fr' ? 'fr-FR' : 'en-GB');
  doc.setCreator('Galerie');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);
  await doc.attach(new TextEncoder().encode(JSON.stringify(signed, null, 2)), ATTACHMENT_NAME, {
    mimeType: 'application/json',
    description: 'Signed certificate content (Ed25519)',
    creationDate: issued,
    modificationDate: issued,
  });

  const page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (
    value: string,
    x: number,
    options: {
      font?: PDFFont;
      size?: number;
      color?: typeof INK;
      align?: 'left' | 'right' | 'center';
    } = {},
  ) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    const line = clean(value);
    const width = font.widthOfTextAtSize(line, size);
    const left =
      options.align === 'right' ? x - width : options.align === 'center' ? x - width / 2 : x;
    page.drawText(line, { x: left, y, size, font, color: options.color ?? INK });
  };
  const center = A4[0] / 2;

  text(content.gallery.name.toUpperCase(), center, { size: 9, color: GREY, align: 'center' });
  y -= 34;
  text(T.title, center, { font: bold, size: 22, align: 'center' });
  y -= 22;
  for (const line of wrap(T.statement(content.artist), regular, 10, RIGHT - MARGIN)) {
    text(line, center, { size: 10, color: GREY, align: 'center' });
    y -= 13;
  }
  y -= 10;

  // The photo, fitted in a box under the heading.
  if (photo) {
    let image: PDFImage | null;
    try {
      image = await doc.embedJpg(photo);
    } catch {
      image = null;
    }
    if (image) {
      const box = { width: RIGHT - MARGIN, height: 230 };
      const scale = Math.min(box.width / image.width, box.height / image.height);
      const width = image.width * scale;
      const height = image.height * scale;
      page.drawImage(image, { x: center - width / 2, y: y - height, width, height });
      y -= height + 22;
    }
  }

  const fields: Array<[string, string, PDFFont?]> = [
    [T.artist, content.artist],
    [T.work, content.work.title[locale], bold],
    [T.year, content.work.year === null ? T.unknownYear : String(content.work.year)],
    [T.technique, content.work.technique[locale] || '—'],
    [T.dimensions, content.work.dimensions || '—'],
    [T.nature, natureText(content, locale)],
    [T.signed, content.work.signed[locale] || T.notSigned],
    [T.saleDate, longDate(content.saleDate, locale)],
    [
      T.gallery,
      [
        content.gallery.name,
        content.gallery.address,
        content.gallery.siret ? `SIRET ${content.gallery.siret}` : '',
        content.gallery.email,
      ]
        .filter(Boolean)
        .join(' — '),
    ],
    [T.issued, longDate(content.issuedAt, locale)],
    [T.serial, content.serial, bold],
  ];
  if (content.provenance.length > 1)
    fields.push([
      T.provenance,
      content.provenance
        .map(
          (step) =>
            `${step.event === 'sale' ? T.sale : T.transfer} : ${longDate(step.date, locale)}`,
        )
        .map((s) => (locale === 'en' ? s.replace(' : ', ': ') : s.replace(' : ', '\u00a0: ')))
        .join(locale === 'fr' ? '\u00a0; ' : '; '),
    ]);
  const LABEL_WIDTH = 128;
  const VALUE_X = MARGIN + LABEL_WIDTH;
  for (const [label, value, font] of fields) {
    const lines = wrap(value, font ?? regular, 10, RIGHT - VALUE_X);
    text(label, MARGIN, { size: 9, color: GREY });
    for (const line of lines) {
      text(line, VALUE_X, { font: font ?? regular, size: 10 });
      y -= 13.5;
    }
    y -= 4;
  }
  if (content.replaces) {
    y -= 4;
    text(T.replaces(content.replaces), MARGIN, { size: 9, color: GREY });
    y -= 13;
  }

  // The QR code and the signature, at the foot of the page.
  const QR_SIZE = 96;
  const footTop = MARGIN + QR_SIZE;
  page.drawLine({
    start: { x: MARGIN, y: footTop + 16 },
    end: { x: RIGHT, y: footTop + 16 },
    thickness: 0.5,
    color: RULE,
  });
  const qr = qrcode(0, 'M');
  qr.addData(content.publicUrl);
  qr.make();
  const modules = qr.getModuleCount();
  const cell = QR_SIZE / modules;
  for (let row = 0; row < modules; row++)
    for (let col = 0; col < modules; col++)
      if (qr.isDark(row, col))
        page.drawRectangle({
          x: MARGIN + col * cell,
          y: MARGIN + QR_SIZE - (row + 1) * cell,
          // A hair wider than the cell, so neighbouring modules leave no seam for a reader.
          width: cell + 0.05,
          height: cell + 0.05,
          color: INK,
        });
  const FOOT_X = MARGIN + QR_SIZE + 18;
  const footWidth = RIGHT - FOOT_X;
  y = footTop;
  for (const line of wrap(T.verify, regular, 8.5, footWidth)) {
    text(line, FOOT_X, { size: 8.5, color: GREY });
    y -= 11;
  }
  for (const line of wrap(content.publicUrl, regular, 8.5, footWidth)) {
    text(line, FOOT_X, { size: 8.5 });
    y -= 11;
  }
  y -= 4;
  text(`${T.key} : ${content.keyId}`.replace(' : ', locale === 'fr' ? '\u00a0: ' : ': '), FOOT_X, {
    size: 8.5,
  });
  y -= 11;
  text(T.signature, FOOT_X, { size: 8.5, color: GREY });
  y -= 11;
  text(shortSignature(signed.signature), FOOT_X, { size: 8.5 });

  return doc.save({ useObjectStreams: true });
}
