// What a person sees, as computed-style facts a test can assert (CONVENTIONS 16, issue 9): the
// page has margins, every field is framed, every button's label is readable on its background,
// every control is a target of at least 24 × 24 px, headings are set in the site's serif. Colours
// are read back through a canvas, so any CSS colour space (Tailwind 4 writes oklch) compares.
import { expect, type Page } from '@playwright/test';

export interface LookProblem {
  rule: 'margins' | 'field-frame' | 'button-contrast' | 'target-size' | 'heading-font' | 'page';
  element: string;
  detail: string;
}

/** Runs in the page: returns every problem found on what is visible now. */
function inspect(): LookProblem[] {
  const problems: LookProblem[] = [];
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;

  type Rgba = [number, number, number, number];
  const rgba = (color: string): Rgba => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = '#000';
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a! / 255];
  };
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const a = top[3];
    return [
      top[0] * a + bottom[0] * (1 - a),
      top[1] * a + bottom[1] * (1 - a),
      top[2] * a + bottom[2] * (1 - a),
      1,
    ];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const c = [r, g, b].map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
  };
  const contrast = (a: Rgba, b: Rgba) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };
  /** The colour behind an element: its ancestors' backgrounds composited, over white. */
  const backdrop = (element: Element): Rgba => {
    const layers: Rgba[] = [];
    for (let e: Element | null = element; e; e = e.parentElement) {
      const color = rgba(getComputedStyle(e).backgroundColor);
      if (color[3] > 0) layers.push(color);
      if (color[3] >= 1) break;
    }
    return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const visible = (e: Element) => {
    const box = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    return (
      box.width > 0 &&
      box.height > 0 &&
      style.visibility !== 'hidden' &&
      style.display !== 'none' &&
      Number(style.opacity) > 0 &&
      !e.closest('[hidden], [aria-hidden="true"], .sr-only, [inert]')
    );
  };
  const describe = (e: Element) => {
    const text = (e.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    const label = e.getAttribute('aria-label') ?? e.getAttribute('name') ?? e.id;
    return `<${e.tagName.toLowerCase()}${label ? ` ${label}` : ''}>${text ? ` "${text}"` : ''}`;
  };

  // The page itself: its own background and text colours, not the browser's defaults.
  const body = getComputedStyle(document.body);
  if (rgba(body.backgroundColor)[3] === 0)
    problems.push({ rule: 'page', element: 'body', detail: 'no background colour' });
  if (/^"?Times/.test(body.fontFamily))
    problems.push({ rule: 'page', element: 'body', detail: `default font ${body.fontFamily}` });

  // An open modal dialog is what the person looks at; otherwise the main content.
  const scope: ParentNode =
    document.querySelector('dialog[open]') ?? document.querySelector('main') ?? document.body;

  // Margins: nothing readable touches the edges of the window.
  const margin = window.innerWidth < 640 ? 12 : 16;
  for (const e of scope.querySelectorAll('h1, h2, h3, p, label, input, select, textarea, button')) {
    if (!visible(e) || e.closest('[data-look-bleed]')) continue;
    const box = e.getBoundingClientRect();
    if (box.left < margin - 0.5 || box.right > window.innerWidth - margin + 0.5)
      problems.push({
        rule: 'margins',
        element: describe(e),
        detail: `spans ${Math.round(box.left)}–${Math.round(box.right)} px of ${window.innerWidth}`,
      });
  }

  // Fields: a visible frame (WCAG 1.4.11, 3:1 against what is around it).
  const fields =
    'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea';
  for (const e of document.querySelectorAll(fields)) {
    if (!visible(e)) continue;
    const style = getComputedStyle(e);
    const around = backdrop(e.parentElement ?? e);
    const inside = backdrop(e);
    const width = Math.min(
      ...['Top', 'Right', 'Bottom', 'Left'].map((side) =>
        parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)),
      ),
    );
    const frame = over(rgba(style.borderTopColor), around);
    const frameContrast = Math.max(contrast(frame, around), contrast(inside, around));
    if (width < 1 || frameContrast < 3)
      problems.push({
        rule: 'field-frame',
        element: describe(e),
        detail: `border ${width}px, contrast ${frameContrast.toFixed(2)}:1`,
      });
  }

  // Buttons and button-like links: the label is readable on the button (WCAG 1.4.3, 4.5:1).
  const buttons = 'button, [role=button], a[class*="bg-"], input[type=submit]';
  for (const e of document.querySelectorAll(buttons)) {
    if (!visible(e) || !(e.textContent ?? '').trim()) continue;
    const style = getComputedStyle(e);
    const text = over(rgba(style.color), backdrop(e));
    const ratio = contrast(text, backdrop(e));
    if (ratio < 4.5)
      problems.push({
        rule: 'button-contrast',
        element: describe(e),
        detail: `text contrast ${ratio.toFixed(2)}:1`,
      });
  }

  // Targets: every control at least 24 × 24 px (WCAG 2.5.8; inline text links are exempt).
  const controls = `button, select, summary, [role=button], [role=tab], input:not([type=hidden])`;
  for (const e of document.querySelectorAll(controls)) {
    if (!visible(e)) continue;
    let box = e.getBoundingClientRect();
    if (e.matches('input[type=checkbox], input[type=radio]')) {
      // A box squeezed by its flex row looks broken even when its label is a big target.
      if (Math.abs(box.width - box.height) > 2)
        problems.push({
          rule: 'target-size',
          element: describe(e),
          detail: `squeezed to ${Math.round(box.width)} × ${Math.round(box.height)} px`,
        });
      const label = (e as HTMLInputElement).labels?.[0];
      if (label && visible(label)) box = label.getBoundingClientRect();
    }
    if (box.width < 24 - 0.5 || box.height < 24 - 0.5)
      problems.push({
        rule: 'target-size',
        element: describe(e),
        detail: `${Math.round(box.width)} × ${Math.round(box.height)} px`,
      });
  }

  // Headings: the site's serif, at a heading's size.
  const h1 = scope.querySelector('h1');
  if (h1 && visible(h1)) {
    const style = getComputedStyle(h1);
    const serif = getComputedStyle(document.documentElement).getPropertyValue('--font-serif');
    const first = (stack: string) => stack.split(',')[0]!.trim().replace(/["']/g, '');
    if (!serif || first(style.fontFamily) !== first(serif))
      problems.push({ rule: 'heading-font', element: 'h1', detail: style.fontFamily });
    if (parseFloat(style.fontSize) < 1.5 * parseFloat(body.fontSize))
      problems.push({ rule: 'heading-font', element: 'h1', detail: `size ${style.fontSize}` });
  }
  return problems;
}

/** Fails with the list of what looks broken on the page as it is now. */
export async function expectLooksRight(page: Page): Promise<void> {
  const problems = await page.evaluate(inspect);
  expect(
    problems.map((p) => `${p.rule}: ${p.element} — ${p.detail}`),
    'computed-style checks',
  ).toEqual([]);
}

/**
 * Loads every image now (lazy ones included) and waits for the web fonts, so a full-page
 * screenshot does not depend on what was scrolled into view.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const image of images) image.loading = 'eager';
    await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
    // The layouts' fonts are declared by the head script, after `load` on a first visit
    // (docs/decisions/051): wait until it says they are in.
    const root = document.documentElement;
    if (root.hasAttribute('data-fonts')) {
      await new Promise<void>((resolve) => {
        if (root.classList.contains('fonts-ready')) return resolve();
        new MutationObserver((_records, observer) => {
          if (!root.classList.contains('fonts-ready')) return;
          observer.disconnect();
          resolve();
        }).observe(root, { attributes: true, attributeFilter: ['class'] });
      });
    }
    await document.fonts.ready;
  });
}

/**
 * The images a screenshot masks: every <img> but those inside a closed <details> (the scale
 * view's), which Chromium still lays out, so a mask over them would paint a grey box over
 * whatever happens to be drawn there.
 */
export const SHOWN_IMAGES = 'img:not(details:not([open]) img)';
