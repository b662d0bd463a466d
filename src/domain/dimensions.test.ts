import { describe, expect, it } from 'vitest';
import { parseDimensions } from './dimensions.ts';

describe('parseDimensions', () => {
  it.each([
    ['120 x 100 cm', { heightCm: 120, widthCm: 100, depthCm: null }],
    ['114 × 146 cm', { heightCm: 114, widthCm: 146, depthCm: null }],
    ['40,5 x 30 x 4 cm', { heightCm: 40.5, widthCm: 30, depthCm: 4 }],
    [' 200x150cm ', { heightCm: 200, widthCm: 150, depthCm: null }],
  ])('%s', (text, expected) => {
    expect(parseDimensions(text)).toEqual(expected);
  });

  it.each(['', '120 cm', '120 x 100 in', '0 x 100 cm', 'grand format'])(
    '%s is not a size',
    (text) => {
      expect(parseDimensions(text)).toBeNull();
    },
  );
});
