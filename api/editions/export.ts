// The register of an edition as files the owner keeps (issue 26, docs/decisions/045): a CSV for a
// spreadsheet (UTF-8 with a BOM, ';' and CRLF, as the orders' export: what Excel in French opens
// as is) and an A4 PDF drawn with pdf-lib in the invoices' fonts (DejaVu Sans, embedded: the
// standard PDF fonts cannot print 'č'). Dates in Paris time, French words.
import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { clean } from '../invoices/pdf.ts';
import type {
  EditionEntry,
  EditionEntryState,
  EditionRegister,
} from '../../src/schemas/admin-editions.ts';

export const STATE_LABELS: Record<EditionEntryState, string> = {
  free: 'Libre',
  held: 'Réservé (paiement en cours)',
  sold: 'Vendu',
  returned: 'Retourné',
  retired: 'Retiré',
  ea: 'Épreuve d’artiste (EA)',
  hc: 'Hors commerce (HC)',
};

const REASONS: Record<NonNullable<EditionEntry['returnReason']>, string> = {
  cancellation: 'annulation',
  refund: 'remboursement',
  withdrawal: 'rétractation',
};

const TIME_ZONE = 'Europe/Paris';
const dayFormat = new Intl.DateTimeFormat('fr-FR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: TIME_ZONE,
});
/** `23/11/2026`, in Paris time; empty for no date. */
export const frenchDay = (isoDate: string | null): string =>
  isoDate ? dayFormat.format(new Date(isoDate)) : '';

/** What the register says of a number beyond its state: the sale, the return, the decision. */
export function entryDetails(entry: EditionEntry): string {
  const parts: string[] = [];
  if (entry.beforeRegister) parts.push('vendu avant le registre');
  if (entry.returnedAt) {
    const why = entry.returnReason ? ` (${REASONS[entry.returnReason]})` : '';
    parts.push(`retourné le ${frenchDay(entry.returnedAt)}${why}`);
  }
  if (entry.releasedAt) parts.push(`remis en vente le ${frenchDay(entry.releasedAt)}`);
  if (entry.retiredAt) parts.push(`retiré le ${frenchDay(entry.retiredAt)}`);
  return parts.join(', ');
}

/** A cell: quoted when needed; a formula-like start is neutralised (CSV injection). */
function cell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The register as CSV: one line per number, EA and HC copies after. */
export function registerCsv(register: EditionRegister): string {
  const header = [
    'Œuvre',
    'Numéro',
    'Type',
    'État',
    'Commande',
    'Acheteur',
    'E-mail',
    'Vendu le',
    'Retourné le',
    'Motif du retour',
    'Remis en vente le',
    'Retiré le',
  ];
  const kinds = { numbered: 'Numéroté', ea: 'EA', hc: 'HC' } as const;
  const lines = register.entries.map((e) =>
    [
      register.work.title,
      e.label,
      kinds[e.kind],
      STATE_LABELS[e.state] + (e.beforeRegister ? ' (avant le registre)' : ''),
      e.orderNumber,
      e.buyer,
      e.email,
      frenchDay(e.soldAt),
      frenchDay(e.returnedAt),
      e.returnReason ? REASONS[e.returnReason] : '',
      frenchDay(e.releasedAt),
      frenchDay(e.retiredAt),
    ]
      .map(cell)
      .join(';'),
  );
  return `\uFEFF${[header.map(cell).join(';'), ...lines].join('\r\n')}\r\n`;
}

// ── PDF ─────────────────────────────────────────────────────────────────────────────────────────

const FONT_DIR = path.join('assets', 'fonts', 'pdf');
const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/** The fonts' folder, looked for upwards from this module, then from the working directory
 * (endpoints run from a bundle under dist/), as the invoices do. */
function fontDir(): string {
  for (const start of [import.meta.dirname, process.cwd()]) {
    let dir = start;
    for (;;) {
      const candidate = path.join(dir, FONT_DIR);
      if (fs.existsSync(path.join(candidate, FONT_FILES.regular))) return candidate;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  throw new Error(`Register fonts not found (${FONT_DIR}).`);
}

let fonts: Promise<{ regular: Uint8Array; bold: Uint8Array }> | undefined;
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

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const BOTTOM = 50;
const INK = rgb(0.11, 0.105, 0.1);
const GREY = rgb(0.38, 0.37, 0.35);
const RULE = rgb(0.8, 0.79, 0.77);

/** The text cut to `width`, with an ellipsis when it did not fit. */
function fit(text: string, font: PDFFont, size: number, width: number): string {
  let line = clean(text);
  if (font.widthOfTextAtSize(line, size) <= width) return line;
  while (line.length > 1 && font.widthOfTextAtSize(`${line}…`, size) > width)
    line = line.slice(0, -1);
  return `${line}…`;
}

/** The register as an A4 PDF, one line per number, the header repeated on each page. */
export async function registerPdf(register: EditionRegister, printedAt: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const bytes = await fontBytes();
  const regular = await doc.embedFont(bytes.regular, { subset: true, customName: 'DejaVuSans' });
  const bold = await doc.embedFont(bytes.bold, { subset: true, customName: 'DejaVuSans-Bold' });
  const { work } = register;
  doc.setTitle(`Registre des tirages — ${work.title}`);
  doc.setLanguage('fr-FR');
  doc.setCreator('Galerie');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(printedAt);
  doc.setModificationDate(printedAt);

  const columns = [
    { title: 'Numéro', x: MARGIN, width: 55 },
    { title: 'État', x: MARGIN + 58, width: 120 },
    { title: 'Commande', x: MARGIN + 181, width: 75 },
    { title: 'Acheteur', x: MARGIN + 259, width: 110 },
    { title: 'Date', x: MARGIN + 372, width: 55 },
    { title: 'Remarques', x: MARGIN + 430, width: A4[0] - MARGIN - (MARGIN + 430) },
  ];
  let page: PDFPage;
  let y = 0;
  const draw = (value: string, x: number, width: number, font = regular, size = 8.5, color = INK) =>
    page.drawText(fit(value, font, size, width), { x, y, size, font, color });

  const newPage = (first: boolean) => {
    page = doc.addPage(A4);
    y = A4[1] - MARGIN;
    if (first) {
      draw('Registre des tirages', MARGIN, 400, bold, 16);
      y -= 22;
      draw(work.title, MARGIN, 500, bold, 12);
      y -= 15;
      const about = [
        work.technique,
        work.dimensions,
        work.year ? String(work.year) : '',
        `tirage de ${work.editionSize} exemplaires numérotés`,
        work.ea ? `${work.ea} EA` : '',
        work.hc ? `${work.hc} HC` : '',
      ].filter(Boolean);
      draw(about.join(' · '), MARGIN, A4[0] - 2 * MARGIN, regular, 9, GREY);
      y -= 13;
      const c = register.counts;
      draw(
        `Vendus\u00a0: ${c.sold} · libres\u00a0: ${c.free} · réservés\u00a0: ${c.held} · retournés\u00a0: ${c.returned} · retirés\u00a0: ${c.retired} · en stock\u00a0: ${work.stock}`,
        MARGIN,
        A4[0] - 2 * MARGIN,
        regular,
        9,
      );
      y -= 12;
      draw(
        `Imprimé le ${frenchDay(printedAt.toISOString())}`,
        MARGIN,
        A4[0] - 2 * MARGIN,
        regular,
        8,
        GREY,
      );
      y -= 20;
    }
    for (const column of columns) draw(column.title, column.x, column.width, bold, 8.5);
    y -= 5;
    page.drawLine({
      start: { x: MARGIN, y },
      end: { x: A4[0] - MARGIN, y },
      thickness: 0.6,
      color: RULE,
    });
    y -= 12;
  };
  newPage(true);
  for (const entry of register.entries) {
    if (y < BOTTOM) newPage(false);
    const cells = [
      entry.label,
      STATE_LABELS[entry.state],
      entry.orderNumber ?? '',
      entry.buyer ?? '',
      frenchDay(entry.soldAt),
      entryDetails(entry),
    ];
    cells.forEach((value, i) => draw(value, columns[i]!.x, columns[i]!.width));
    y -= 13;
  }
  const pages = doc.getPages();
  pages.forEach((p, i) =>
    p.drawText(`${i + 1} / ${pages.length}`, {
      x: A4[0] - MARGIN - 30,
      y: 25,
      size: 8,
      font: regular,
      color: GREY,
    }),
  );
  return doc.save({ useObjectStreams: false });
}
