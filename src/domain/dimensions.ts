// A work's dimensions as the catalogue writes them ("114 x 146 cm": height × width, the painter's
// order; an optional third figure is the depth), read into numbers for structured data and the
// scale view. Pure: shared by the pages and the browser.

export interface Dimensions {
  heightCm: number;
  widthCm: number;
  depthCm: number | null;
}

const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const SIZE = new RegExp(
  String.raw`^\s*${NUMBER}\s*[x×X]\s*${NUMBER}(?:\s*[x×X]\s*${NUMBER})?\s*cm\s*$`,
);

const toNumber = (text: string) => Number(text.replace(',', '.'));

/** "120 x 100 cm" → { heightCm: 120, widthCm: 100, depthCm: null }; null when it is not a size in cm. */
export function parseDimensions(text: string): Dimensions | null {
  const match = SIZE.exec(text);
  if (!match) return null;
  const [, height = '', width = '', depth] = match;
  const dimensions = {
    heightCm: toNumber(height),
    widthCm: toNumber(width),
    depthCm: depth === undefined ? null : toNumber(depth),
  };
  return dimensions.heightCm > 0 && dimensions.widthCm > 0 ? dimensions : null;
}
