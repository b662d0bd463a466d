// A work's dimensions as the catalogue writes them ("114 x 146 cm": height × width, the painter's
// order; an optional third figure is the depth), read into centimetres for structured data, the
// scale view and the inches shown beside them (issue 25, part 5). The owner types free text, so
// the reader is lenient where the meaning is plain — ×, x or X; a decimal comma or point; the unit
// once at the end or after each figure; cm, mm or inches (in, ″, ") — and gives up (null) where it
// is not: a missing unit, one figure, mixed units, a zero. Pure: shared by the pages and the browser.

export interface Dimensions {
  heightCm: number;
  widthCm: number;
  depthCm: number | null;
}

/** A size with the unit the owner wrote it in: the other one is shown beside it. */
export interface Size {
  dimensions: Dimensions;
  unit: 'cm' | 'in';
}

const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const UNIT = String.raw`(cm|mm|in(?:ch(?:es)?)?|″|")`;
const BY = String.raw`\s*[x×X*]\s*`;
const FIGURE = String.raw`${NUMBER}\s*${UNIT}?`;
const SIZE = new RegExp(String.raw`^\s*${FIGURE}${BY}${FIGURE}(?:${BY}${FIGURE})?\s*\.?\s*$`, 'i');

/** Centimetres per unit. */
const TO_CM = { cm: 1, mm: 0.1, in: 2.54 } as const;
const unitOf = (text: string): keyof typeof TO_CM =>
  text.toLowerCase().startsWith('in') || text === '″' || text === '"'
    ? 'in'
    : (text.toLowerCase() as 'cm' | 'mm');

/** A work larger than this on a side is not a size we can draw (a typo: "1140 x 146 cm"). */
const MAX_CM = 2000;

/** "114 × 146 cm" → { heightCm: 114, widthCm: 146, depthCm: null }; null when it is not a size. */
export function parseDimensions(text: string): Dimensions | null {
  return parseSize(text)?.dimensions ?? null;
}

/** "45 x 57.5 in" → its dimensions in centimetres and the unit 'in'; null when it is not a size. */
export function parseSize(text: string): Size | null {
  const match = SIZE.exec(text);
  if (!match) return null;
  const figures = [
    [match[1], match[2]],
    [match[3], match[4]],
    [match[5], match[6]],
  ].filter((pair): pair is [string, string | undefined] => pair[0] !== undefined);
  // The unit once at the end applies to every figure; a unit given on some figures must be the same.
  const units = new Set(figures.flatMap(([, unit]) => (unit ? [unitOf(unit)] : [])));
  const last = figures[figures.length - 1]![1];
  const [unit] = units;
  if (units.size !== 1 || !last || !unit) return null;
  const cm = figures.map(([number]) => Number(number.replace(',', '.')) * TO_CM[unit]);
  if (cm.some((value) => !(value > 0) || value > MAX_CM)) return null;
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    dimensions: {
      heightCm: round(cm[0]!),
      widthCm: round(cm[1]!),
      depthCm: cm[2] === undefined ? null : round(cm[2]),
    },
    unit: unit === 'in' ? 'in' : 'cm',
  };
}

const figure = (locale: 'fr' | 'en', value: number) =>
  new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 1 }).format(
    value,
  );

/** The figures in one unit: "44,9 × 57,5 in" (fr), "44.9 × 57.5 in" (en); depth last. */
export function formatDimensions(
  dimensions: Dimensions,
  unit: 'cm' | 'in',
  locale: 'fr' | 'en',
): string {
  const factor = unit === 'in' ? 1 / 2.54 : 1;
  const sides = [dimensions.heightCm, dimensions.widthCm, dimensions.depthCm]
    .filter((side): side is number => side !== null)
    .map((side) => figure(locale, side * factor));
  return `${sides.join(' × ')}\u00a0${unit}`;
}

/** The other unit, to show beside what the owner wrote ("114 x 146 cm (44,9 × 57,5 in)"); null
 * when the text is not a size. */
export function otherUnit(text: string, locale: 'fr' | 'en'): string | null {
  const size = parseSize(text);
  if (!size) return null;
  return formatDimensions(size.dimensions, size.unit === 'cm' ? 'in' : 'cm', locale);
}
