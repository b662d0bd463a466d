import { describe, expect, it } from 'vitest';
import { formatDimensions, otherUnit, parseDimensions, parseSize } from './dimensions.ts';

describe('parseDimensions', () => {
  it.each([
    ['120 x 100 cm', { heightCm: 120, widthCm: 100, depthCm: null }],
    ['114 × 146 cm', { heightCm: 114, widthCm: 146, depthCm: null }],
    ['40,5 x 30 x 4 cm', { heightCm: 40.5, widthCm: 30, depthCm: 4 }],
    [' 200x150cm ', { heightCm: 200, widthCm: 150, depthCm: null }],
    ['100 X 81 CM', { heightCm: 100, widthCm: 81, depthCm: null }],
    ['114 cm × 146 cm', { heightCm: 114, widthCm: 146, depthCm: null }],
    ['73.5 × 60 × 3,5 cm.', { heightCm: 73.5, widthCm: 60, depthCm: 3.5 }],
    ['1140 × 1460 mm', { heightCm: 114, widthCm: 146, depthCm: null }],
    ['45 x 57.5 in', { heightCm: 114.3, widthCm: 146.05, depthCm: null }],
    ['20 × 16 inches', { heightCm: 50.8, widthCm: 40.64, depthCm: null }],
    ['30″ × 24″', { heightCm: 76.2, widthCm: 60.96, depthCm: null }],
  ])('%s', (text, expected) => {
    expect(parseDimensions(text)).toEqual(expected);
  });

  it.each([
    '',
    '120 cm',
    '120 x 100',
    '120 cm x 100 in',
    '0 x 100 cm',
    '120 x 100 x 0 cm',
    'grand format',
    '120 x 100 cm environ',
    '2500 x 100 cm',
    '120 x -100 cm',
  ])('%s is not a size', (text) => {
    expect(parseDimensions(text)).toBeNull();
  });

  it('keeps the unit the owner wrote', () => {
    expect(parseSize('45 x 57.5 in')?.unit).toBe('in');
    expect(parseSize('1140 × 1460 mm')?.unit).toBe('cm');
    expect(parseSize('114 x 146 cm')?.unit).toBe('cm');
  });
});

describe('formatDimensions and otherUnit', () => {
  it('shows inches beside centimetres, in each language’s numbers', () => {
    expect(otherUnit('114 × 146 cm', 'fr')).toBe('44,9 × 57,5\u00a0in');
    expect(otherUnit('114 × 146 cm', 'en')).toBe('44.9 × 57.5\u00a0in');
    expect(otherUnit('40,5 x 30 x 4 cm', 'en')).toBe('15.9 × 11.8 × 1.6\u00a0in');
  });

  it('shows centimetres beside inches', () => {
    expect(otherUnit('20 x 16 in', 'fr')).toBe('50,8 × 40,6\u00a0cm');
  });

  it('says nothing for what is not a size', () => {
    expect(otherUnit('grand format', 'fr')).toBeNull();
  });

  it('writes whole figures without decimals', () => {
    expect(formatDimensions({ heightCm: 120, widthCm: 100, depthCm: null }, 'cm', 'fr')).toBe(
      '120 × 100\u00a0cm',
    );
  });
});
