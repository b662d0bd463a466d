import { describe, expect, it } from 'vitest';
import {
  editionCaption,
  editionCaptionOfLabel,
  editionLabel,
  parseEditionLabel,
} from './editions.ts';

describe('edition labels', () => {
  it('names numbered copies, artist’s proofs and hors-commerce copies as pencilled on the print', () => {
    expect(editionLabel({ kind: 'numbered', number: 7, size: 50 })).toBe('7/50');
    expect(editionLabel({ kind: 'ea', number: 1, size: 5 })).toBe('EA 1/5');
    expect(editionLabel({ kind: 'hc', number: 2, size: 2 })).toBe('HC 2/2');
  });

  it('reads its labels back and refuses anything else', () => {
    for (const copy of [
      { kind: 'numbered', number: 7, size: 50 },
      { kind: 'ea', number: 1, size: 5 },
      { kind: 'hc', number: 2, size: 2 },
    ] as const)
      expect(parseEditionLabel(editionLabel(copy))).toEqual(copy);
    for (const bad of ['', '0/50', '51/50', 'AP 1/5', '7 / 50', '07/50', 'EA1/5'])
      expect(parseEditionLabel(bad), bad).toBeNull();
  });

  it('captions a copy in the buyer’s language, with French typography in French only', () => {
    expect(editionCaption({ kind: 'numbered', number: 7, size: 50 }, 'fr')).toBe('Tirage n° 7/50');
    expect(editionCaption({ kind: 'numbered', number: 7, size: 50 }, 'en')).toBe('Print no. 7/50');
    expect(editionCaptionOfLabel('EA 1/5', 'fr')).toBe('Épreuve d’artiste EA 1/5');
    expect(editionCaptionOfLabel('HC 1/2', 'en')).toBe('Hors commerce copy HC 1/2');
    expect(editionCaptionOfLabel('n/a', 'en')).toBe('n/a');
  });
});
