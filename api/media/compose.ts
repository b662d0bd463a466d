// Deterministic renderer of abstract, painting-like compositions: lets the demo seed
// script create artwork images from a spec (seed, palette, size) without any download.
import sharp, { type Sharp } from 'sharp';

export interface CompositionSpec {
  seed: string;
  palette: readonly string[];
  width: number;
  height: number;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** 32-bit FNV-1a hash of a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: small, fast seeded PRNG returning floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function validate(spec: CompositionSpec): void {
  if (typeof spec.seed !== 'string' || spec.seed.length === 0) {
    throw new Error('renderComposition: seed must be a non-empty string');
  }
  if (!Array.isArray(spec.palette) || spec.palette.length < 2) {
    throw new Error('renderComposition: palette must contain at least 2 colours');
  }
  for (const colour of spec.palette) {
    if (typeof colour !== 'string' || !HEX.test(colour)) {
      throw new Error(
        `renderComposition: invalid palette colour ${JSON.stringify(colour)} (expected #rrggbb)`,
      );
    }
  }
  for (const [name, value] of [
    ['width', spec.width],
    ['height', spec.height],
  ] as const) {
    if (!Number.isInteger(value) || value < 16 || value > 4000) {
      throw new Error(
        `renderComposition: ${name} must be an integer between 16 and 4000, got ${String(value)}`,
      );
    }
  }
}

/** Builds the SVG source of the composition (exported for debugging). */
export function compositionSvg(spec: CompositionSpec): string {
  validate(spec);
  const { width: w, height: h, palette } = spec;
  const rand = mulberry32(fnv1a(spec.seed));
  const between = (min: number, max: number): number => min + rand() * (max - min);
  const pick = (): string => palette[Math.floor(rand() * palette.length)] ?? '#808080';
  const n = (value: number): string => value.toFixed(1);
  const size = Math.min(w, h);

  // One large shape: rotated slab, ellipse or sweeping bezier brush stroke.
  const shape = (): string => {
    const colour = pick();
    const alpha = between(0.35, 0.85);
    const cx = between(-0.1, 1.1) * w;
    const cy = between(-0.1, 1.1) * h;
    const kind = rand();
    if (kind < 0.3) {
      const rw = between(0.2, 0.7) * w;
      const rh = between(0.08, 0.45) * h;
      return `<rect x="${n(cx - rw / 2)}" y="${n(cy - rh / 2)}" width="${n(rw)}" height="${n(rh)}" rx="${n(between(0, 0.04) * size)}" fill="${colour}" fill-opacity="${alpha.toFixed(2)}" transform="rotate(${n(between(-25, 25))} ${n(cx)} ${n(cy)})"/>`;
    }
    if (kind < 0.55) {
      return `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(between(0.08, 0.4) * size)}" ry="${n(between(0.08, 0.4) * size)}" fill="${colour}" fill-opacity="${alpha.toFixed(2)}" transform="rotate(${n(between(0, 180))} ${n(cx)} ${n(cy)})"/>`;
    }
    // Bezier brush stroke: a translucent body plus thinner offset "bristle" passes for a dry-brush edge.
    const [p0, p1, p2, p3] = Array.from(
      { length: 4 },
      () => `${n(between(-0.1, 1.1) * w)} ${n(between(-0.1, 1.1) * h)}`,
    );
    const d = `M ${p0} C ${p1}, ${p2}, ${p3}`;
    const width = between(0.02, 0.14) * size;
    const dir = rand() * Math.PI * 2;
    const parts = [
      `<path d="${d}" fill="none" stroke="${colour}" stroke-width="${n(width)}" stroke-linecap="round" stroke-opacity="${(alpha * 0.6).toFixed(2)}"/>`,
    ];
    for (let b = 0; b < 5; b++) {
      const off = between(-0.45, 0.45) * width;
      parts.push(
        `<path d="${d}" fill="none" stroke="${colour}" stroke-width="${n(width * between(0.12, 0.35))}" stroke-linecap="round" stroke-opacity="${between(0.12, 0.35).toFixed(2)}" transform="translate(${n(Math.cos(dir) * off)} ${n(Math.sin(dir) * off)})"/>`,
      );
    }
    return parts.join('\n');
  };

  // Short stroke; many of them make gestural marks, tiny straight faint ones make a canvas weave.
  const stroke = (
    len: number,
    width: number,
    colour: string,
    alpha: number,
    weave: boolean,
  ): string => {
    const x = rand() * w;
    const y = rand() * h;
    const dir = weave
      ? (rand() < 0.5 ? 0 : Math.PI / 2) + between(-0.08, 0.08)
      : rand() * Math.PI * 2;
    const bend = weave ? 0 : between(-0.2, 0.2) * len;
    const x2 = x + Math.cos(dir) * len;
    const y2 = y + Math.sin(dir) * len;
    return `<path d="M ${n(x)} ${n(y)} Q ${n((x + x2) / 2 + bend)} ${n((y + y2) / 2 - bend)} ${n(x2)} ${n(y2)}" fill="none" stroke="${colour}" stroke-width="${n(width)}" stroke-linecap="round" stroke-opacity="${alpha.toFixed(2)}"/>`;
  };

  const total = 6 + Math.floor(rand() * 9); // 6–14 large shapes
  const soft = 2 + Math.floor(rand() * 3); // the first ones form a blurred underpainting
  const first = Math.floor(rand() * palette.length);
  const washA = palette[first] ?? '#808080';
  const washB =
    palette[(first + 1 + Math.floor(rand() * (palette.length - 1))) % palette.length] ?? '#808080';
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    '<defs>',
    `<linearGradient id="wash" gradientTransform="rotate(${n(between(0, 360))} 0.5 0.5)"><stop offset="0" stop-color="${washA}"/><stop offset="1" stop-color="${washB}"/></linearGradient>`,
    `<radialGradient id="glow" cx="${between(0.2, 0.8).toFixed(2)}" cy="${between(0.2, 0.8).toFixed(2)}" r="0.7"><stop offset="0" stop-color="${pick()}" stop-opacity="0.6"/><stop offset="1" stop-color="${pick()}" stop-opacity="0"/></radialGradient>`,
    `<filter id="soft" filterUnits="userSpaceOnUse" x="0" y="0" width="${w}" height="${h}"><feGaussianBlur stdDeviation="${n(size * between(0.01, 0.03))}"/></filter>`,
    '</defs>',
    UNDER,
    `<rect width="${w}" height="${h}" fill="url(#wash)"/>`,
    `<rect width="${w}" height="${h}" fill="url(#glow)"/>`,
    '<g filter="url(#soft)">',
  ];
  for (let i = 0; i < soft; i++) out.push(shape());
  out.push('</g>', OVER);
  for (let i = soft; i < total; i++) out.push(shape());
  const marks = 8 + Math.floor(rand() * 17);
  for (let i = 0; i < marks; i++) {
    out.push(
      stroke(
        between(0.08, 0.3) * size,
        between(0.002, 0.01) * size,
        pick(),
        between(0.25, 0.6),
        false,
      ),
    );
  }
  const grain = Math.round((w * h) / 1200); // canvas weave: many tiny, faint light and dark dashes
  for (let i = 0; i < grain; i++) {
    out.push(
      stroke(
        between(0.003, 0.008) * size,
        0.0012 * size,
        rand() < 0.5 ? '#ffffff' : '#000000',
        between(0.03, 0.08),
        true,
      ),
    );
  }
  out.push('</svg>');
  return out.join('\n');
}

/** Renders an abstract painting-like composition as a JPEG master (quality 90, mozjpeg). Same spec → identical bytes. */
export async function renderComposition(spec: CompositionSpec): Promise<Buffer> {
  return rasterize(compositionSvg(spec), spec.width, spec.height, 1);
}

// The two layers of a composition's SVG: the underpainting (the wash, the glow and the blurred
// shapes), then everything drawn over it. Blurring at full size was most of a render's time
// (≈ 280 of 410 ms of CPU an image with librsvg; a first start renders 19 images, issue 28 §2): a
// blur of 12 px or more loses nothing when drawn at a quarter of the size and enlarged, so the
// underpainting is drawn small, enlarged, and the sharp layer drawn over it at full size.
const UNDER = '<!--under-->';
const OVER = '<!--over-->';
/** The smallest blur of the underpainting, as a fraction of the composition's short side. */
const MIN_BLUR = 0.01;

/**
 * The composition's SVG drawn at `width` × `height`, as a JPEG: `zoom` is how much larger than
 * the whole composition a unit is drawn (a detail's crop of a third: 3).
 */
async function rasterize(
  svg: string,
  width: number,
  height: number,
  zoom: number,
): Promise<Buffer> {
  const jpeg = (image: Sharp) => image.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
  const blurPx = Math.min(width, height) * MIN_BLUR * zoom;
  const factor = Math.min(4, Math.floor(blurPx / 3));
  const start = svg.indexOf(UNDER);
  const end = svg.indexOf(OVER);
  if (factor < 2 || start < 0 || end < 0) return jpeg(sharp(Buffer.from(svg)));
  const head = svg.slice(0, start);
  const root = /^<svg[^>]*>/.exec(head)?.[0] ?? '';
  const small = root
    .replace(` width="${width}"`, ` width="${Math.ceil(width / factor)}"`)
    .replace(` height="${height}"`, ` height="${Math.ceil(height / factor)}"`);
  const under = `${head.replace(root, small)}${svg.slice(start, end)}</svg>`;
  const over = `${head}${svg.slice(end)}`;
  const drawn = await sharp(Buffer.from(under))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Enlarged in a step of its own: in one pipeline, sharp would draw the SVG at the final size.
  const base = await sharp(drawn.data, { raw: drawn.info })
    .resize(width, height, { kernel: 'linear', fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const top = await sharp(Buffer.from(over)).raw().toBuffer({ resolveWithObject: true });
  return jpeg(sharp(base.data, { raw: base.info }).composite([{ input: top.data, raw: top.info }]));
}

/** A part of the composition, `crop` in fractions of its size (same proportions as the whole),
 * drawn at the spec's full size: the vector marks and the canvas grain come out finer, as a close
 * photograph of the painting would show them (issue 25: the seed's "detail" views). */
export interface DetailCrop {
  x: number;
  y: number;
  /** Fraction of the width (and so of the height) the detail covers. */
  size: number;
}

export async function renderDetail(spec: CompositionSpec, crop: DetailCrop): Promise<Buffer> {
  const { x, y, size } = crop;
  if (!(size > 0 && size <= 1 && x >= 0 && y >= 0 && x + size <= 1 && y + size <= 1))
    throw new Error(`renderDetail: the crop ${JSON.stringify(crop)} is not inside the composition`);
  const svg = compositionSvg(spec).replace(
    `viewBox="0 0 ${spec.width} ${spec.height}"`,
    `viewBox="${(x * spec.width).toFixed(1)} ${(y * spec.height).toFixed(1)} ${(size * spec.width).toFixed(1)} ${(size * spec.height).toFixed(1)}"`,
  );
  return rasterize(svg, spec.width, spec.height, 1 / size);
}
