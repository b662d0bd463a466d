// Reads the text back out of a PDF we generated, for tests and the e2e suite (pdf-lib writes, it
// does not read text, and pdftotext is not always installed). Embedded fonts print glyph ids, not
// characters: each font's ToUnicode map turns them back. Enough for our own invoices (`<hex> Tj`
// shown in fonts with a ToUnicode map), not a general PDF text extractor.
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  type PDFObject,
} from 'pdf-lib';

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

function streamText(object: PDFObject | undefined): string {
  if (object instanceof PDFRawStream) return latin1(decodePDFRawStream(object).decode());
  return '';
}

const hexToCode = (hex: string) => parseInt(hex, 16);
const utf16 = (hex: string) => {
  let out = '';
  for (let i = 0; i + 4 <= hex.length; i += 4)
    out += String.fromCharCode(hexToCode(hex.slice(i, i + 4)));
  return out;
};

/** A ToUnicode CMap: glyph code (as hex of its byte width) → text. */
function parseCMap(cmap: string): { map: Map<number, string>; width: number } {
  const map = new Map<number, string>();
  let width = 2;
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, src, dst] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      width = src!.length / 2;
      map.set(hexToCode(src!), utf16(dst!));
    }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, lo, hi, dst] of block[1]!.matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g,
    )) {
      width = lo!.length / 2;
      const start = hexToCode(dst!);
      for (let code = hexToCode(lo!); code <= hexToCode(hi!); code++)
        map.set(code, String.fromCharCode(start + code - hexToCode(lo!)));
    }
  return { map, width };
}

/** Every string shown by `Tj`, one per line, page after page. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const out: string[] = [];
  for (const page of doc.getPages()) {
    const fonts = new Map<string, { map: Map<number, string>; width: number }>();
    const fontDict = page.node.Resources()?.lookup(PDFName.of('Font'));
    if (fontDict instanceof PDFDict)
      for (const [name, ref] of fontDict.entries()) {
        const font = doc.context.lookup(ref);
        if (!(font instanceof PDFDict)) continue;
        const cmap = streamText(font.lookup(PDFName.of('ToUnicode')));
        if (cmap) fonts.set(name.asString(), parseCMap(cmap));
      }
    const contents = page.node.Contents();
    const streams: Array<PDFObject | undefined> =
      contents instanceof PDFArray
        ? contents
            .asArray()
            .map((item) => (item instanceof PDFRef ? doc.context.lookup(item) : item))
        : [contents];
    let current: { map: Map<number, string>; width: number } | undefined;
    for (const stream of streams) {
      const content = streamText(stream);
      for (const op of content.matchAll(/(\/[^\s/]+)\s+[\d.]+\s+Tf|<([0-9a-fA-F]*)>\s*Tj/g)) {
        if (op[1]) {
          current = fonts.get(op[1]);
          continue;
        }
        const hex = op[2] ?? '';
        if (!current) {
          out.push(utf16(hex));
          continue;
        }
        const step = current.width * 2;
        let line = '';
        for (let i = 0; i + step <= hex.length; i += step)
          line += current.map.get(hexToCode(hex.slice(i, i + step))) ?? '\uFFFD';
        out.push(line);
      }
    }
  }
  return out.join('\n');
}
