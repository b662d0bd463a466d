// Renders a PDF the way a reader's screen shows it, for the documents' visual tests (issue 26): the
// bytes go to a page of their own, where pdf.js (pdfjs-dist, the renderer of Firefox's PDF viewer)
// draws each page on a canvas and reads its text. Nothing comes from the network: the page, the
// PDF and pdf.js's own files are answered by `page.route` under an address no server has.
//
// What changes from one run to the next (a date, a number taken from a shared sequence, a serial, a
// QR code) is covered by masks: boxes over the text items a pattern matches, or over a rectangle in
// PDF points, that `toHaveScreenshot({ mask })` paints over. A mask has a fixed width when asked,
// so that "1 décembre" and "26 novembre" cover the same pixels.
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

const PDFJS = path.resolve(import.meta.dirname, '..', '..', 'node_modules', 'pdfjs-dist');
/** An address under a reserved top-level domain (RFC 2606): only `page.route` answers it. */
const ORIGIN = 'http://pdf-render.invalid';
/** pdf.js's folders the page may load: its build, the fonts it substitutes, its decoders. */
const SERVED = /^\/pdfjs\/((?:build|standard_fonts|cmaps|iccs|wasm)\/[\w.-]+)$/;
const TYPES: Record<string, string> = {
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** Something to cover: what a pattern matches in the text, or a rectangle in PDF points. */
export type PdfMask =
  | {
      /**
       * Matched against each text item (a line or a part of one, as the PDF wrote it): every
       * match is covered, exactly — right for numbers of a fixed length (the PDF's digits all
       * have one width).
       */
      text: RegExp;
      /** Items this matches are left alone (another mask covers them). */
      unless?: RegExp;
      /**
       * For text of varying length (a date in words): the box covers at least this many PDF
       * points from the match's start and, as what follows it moves with it, the rest of the
       * item. With `align: 'right'` (text set flush right, whose start moves), the whole item and
       * at least `width` points leftwards from its end.
       */
      width?: number;
      align?: 'left' | 'right';
    }
  | {
      /** x, y of the lower-left corner, width and height, in PDF points (origin bottom left). */
      rect: [number, number, number, number];
      /** Only on this page (1-based); every page otherwise. */
      page?: number;
    };

export interface RenderedPdf {
  /** One element per page, each the page's canvas with its masks. */
  pages: Locator;
  /** The boxes to pass to `toHaveScreenshot({ mask })`. */
  masks: Locator;
  /** Each page's text, one line per line of the page (top to bottom, left to right). */
  text: string[];
}

interface PageText {
  text: string;
  masks: number;
}

/** The page the PDF is drawn in: pdf.js as a module, the document, then a mark that it is done. */
const HTML = `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>PDF</title>
<style>
  html, body { margin: 0; background: #8a8a8a; }
  .pdf-page { position: relative; margin: 0 0 16px; background: #fff; }
  .pdf-page canvas { display: block; }
  .pdf-mask { position: absolute; }
</style></head>
<body>
<script type="module">
  import * as pdfjs from '/pdfjs/build/pdf.mjs';
  pdfjs.GlobalWorkerOptions.workerSrc = '/pdfjs/build/pdf.worker.mjs';
  const { scale, masks } = await fetch('/options.json').then((r) => r.json());
  try {
    const pdf = await pdfjs.getDocument({
      url: '/document.pdf',
      // A font the PDF does not embed is drawn with pdf.js's own, never the machine's.
      useSystemFonts: false,
      standardFontDataUrl: '/pdfjs/standard_fonts/',
      cMapUrl: '/pdfjs/cmaps/',
      cMapPacked: true,
      iccUrl: '/pdfjs/iccs/',
      wasmUrl: '/pdfjs/wasm/',
      isEvalSupported: false,
      // Glyphs drawn from their outlines, not through the browser's font engine: the same glyph
      // gives the same pixels whichever subset of its font the PDF embeds (a varying serial in
      // bold changes the subset, and the engine's hinting of the rest with it).
      disableFontFace: true,
    }).promise;
    const pages = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const viewport = page.getViewport({ scale });
      const frame = document.createElement('div');
      frame.className = 'pdf-page';
      frame.dataset.page = String(n);
      frame.style.width = viewport.width + 'px';
      frame.style.height = viewport.height + 'px';
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(viewport.width);
      canvas.height = Math.round(viewport.height);
      frame.append(canvas);
      document.body.append(frame);
      await page.render({ canvas, viewport }).promise;

      const box = (left, top, right, bottom) => {
        const mask = document.createElement('div');
        mask.className = 'pdf-mask';
        mask.style.left = left + 'px';
        mask.style.top = top + 'px';
        mask.style.width = right - left + 'px';
        mask.style.height = bottom - top + 'px';
        frame.append(mask);
      };
      let count = 0;
      const content = await page.getTextContent();
      const items = content.items.filter((item) => 'str' in item && item.str.trim() !== '');
      // The share of an item's width a part of its text takes, measured in the item's font family
      // (pdf.js names a generic one), enough to start a box where the match starts.
      const measure = document.createElement('canvas').getContext('2d');
      const share = (part, whole, fontName) => {
        measure.font = '100px ' + (content.styles[fontName]?.fontFamily ?? 'sans-serif');
        const full = measure.measureText(whole).width;
        return full > 0 ? measure.measureText(part).width / full : 0;
      };
      for (const item of items) {
        const [, , c, d, e, f] = pdfjs.Util.transform(viewport.transform, item.transform);
        const size = Math.hypot(c, d);
        const itemWidth = item.width * scale;
        const end = e + itemWidth;
        const at = (index) => e + itemWidth * share(item.str.slice(0, index), item.str, item.fontName);
        // From above the capitals to below the descenders, a little wider than the text.
        const cover = (left, right) => {
          box(left - 3, f - size * 1.05, right + 3, f + size * 0.35);
          count++;
        };
        for (const mask of masks) {
          if (!('text' in mask)) continue;
          if (mask.unless && new RegExp(mask.unless, mask.unlessFlags).test(item.str)) continue;
          const least = (mask.width ?? 0) * scale;
          const flags = mask.flags.includes('g') ? mask.flags : mask.flags + 'g';
          for (const match of item.str.matchAll(new RegExp(mask.text, flags))) {
            if (mask.align === 'right') cover(end - Math.max(least, itemWidth), end);
            else if (mask.width !== undefined) {
              const left = at(match.index);
              cover(left, Math.max(end, left + least));
            } else cover(at(match.index), at(match.index + match[0].length));
          }
        }
      }
      for (const mask of masks) {
        if (!('rect' in mask) || (mask.page !== undefined && mask.page !== n)) continue;
        const [x, y, w, h] = mask.rect;
        const [a, b, c, d, e, f] = viewport.transform;
        const at = (px, py) => [a * px + c * py + e, b * px + d * py + f];
        const [x1, y1] = at(x, y);
        const [x2, y2] = at(x + w, y + h);
        box(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
        count++;
      }
      // Lines as a reader sees them: items grouped by baseline, top to bottom, left to right.
      const lines = new Map();
      for (const item of items) {
        const y = Math.round(item.transform[5]);
        const key = [...lines.keys()].find((k) => Math.abs(k - y) <= 2) ?? y;
        lines.set(key, [...(lines.get(key) ?? []), item]);
      }
      const text = [...lines.entries()]
        .sort(([a], [b]) => b - a)
        .map(([, line]) =>
          line
            .sort((a, b) => a.transform[4] - b.transform[4])
            .map((item) => item.str.trim())
            .join('  '),
        )
        .join('\\n');
      pages.push({ text, masks: count });
    }
    document.body.dataset.rendered = JSON.stringify(pages);
  } catch (error) {
    document.body.dataset.failed = String(error?.stack ?? error);
  }
</script>
</body></html>`;

/**
 * Draws `pdf` in `page` at `scale` CSS pixels per PDF point (1.5: an A4 page is 893 × 1263 px)
 * and returns its pages, the masks over what `masks` names, and its text.
 */
export async function renderPdf(
  page: Page,
  pdf: Uint8Array,
  options: { masks?: readonly PdfMask[]; scale?: number } = {},
): Promise<RenderedPdf> {
  expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1'), 'a PDF').toBe('%PDF-');
  const settings = {
    scale: options.scale ?? 1.5,
    masks: (options.masks ?? []).map((mask) =>
      'text' in mask
        ? {
            text: mask.text.source,
            flags: mask.text.flags,
            unless: mask.unless?.source,
            unlessFlags: mask.unless?.flags,
            width: mask.width,
            align: mask.align,
          }
        : mask,
    ),
  };
  await page.unroute(`${ORIGIN}/**`);
  await page.route(`${ORIGIN}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/') return route.fulfill({ contentType: 'text/html', body: HTML });
    if (pathname === '/options.json') return route.fulfill({ json: settings });
    if (pathname === '/document.pdf')
      return route.fulfill({ contentType: 'application/pdf', body: Buffer.from(pdf) });
    const file = SERVED.exec(pathname)?.[1];
    if (!file) return route.fulfill({ status: 404, body: 'not found' });
    const body = await fs.readFile(path.join(PDFJS, file)).catch(() => null);
    if (!body) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({
      contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
      body,
    });
  });
  await page.goto(`${ORIGIN}/`);
  const body = page.locator('body');
  // Drawn, or refused (then pdf.js's error is the failure's message).
  await expect
    .poll(
      async () =>
        (await body.getAttribute('data-rendered')) ?? (await body.getAttribute('data-failed')),
    )
    .not.toBeNull();
  expect(await body.getAttribute('data-failed'), 'pdf.js could not draw the PDF').toBeNull();
  const rendered = JSON.parse((await body.getAttribute('data-rendered'))!) as PageText[];
  const pages = page.locator('.pdf-page');
  await expect(pages).toHaveCount(rendered.length);
  return { pages, masks: page.locator('.pdf-mask'), text: rendered.map((p) => p.text) };
}

/**
 * Compares every page of `pdf` with its baseline `<name>-p<n>.png` (their number too), the masks
 * painted over. Soft: every page of every document is compared, and all the differences reported.
 */
export async function expectPdfPages(
  name: string,
  rendered: RenderedPdf,
  pageCount: number,
): Promise<void> {
  await expect(rendered.pages).toHaveCount(pageCount);
  for (let n = 0; n < pageCount; n++) {
    await expect.soft(rendered.pages.nth(n)).toHaveScreenshot(`${name}-p${n + 1}.png`, {
      mask: [rendered.masks],
      maskColor: '#d9d6d0',
      animations: 'disabled',
      scale: 'css',
    });
  }
}
