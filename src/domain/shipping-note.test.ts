import { describe, expect, it } from 'vitest';
import { shippingNoteFor, sizeClass, type ShippingNotes } from './shipping-note.ts';

const notes: ShippingNotes = {
  small_max_cm: 60,
  medium_max_cm: 120,
  small: { fr: 'Carton renforcé, 3 jours', en: 'Reinforced box, 3 days' },
  medium: { fr: 'Caisse en bois, 5 jours', en: 'Wooden crate, 5 days' },
  large: { fr: "Transporteur d'art, 15 jours", en: 'Art shipper, 15 days' },
};
const size = (heightCm: number, widthCm: number) => ({ heightCm, widthCm });

describe('sizeClass', () => {
  it('goes by the longest side, limits included in the smaller class', () => {
    expect(sizeClass(size(40, 30), notes)).toBe('small');
    expect(sizeClass(size(60, 45), notes)).toBe('small');
    expect(sizeClass(size(45, 60.5), notes)).toBe('medium');
    expect(sizeClass(size(114, 146), notes)).toBe('large');
    expect(sizeClass(size(120, 100), notes)).toBe('medium');
    expect(sizeClass(size(50, 121), notes)).toBe('large');
  });

  it('follows the limits the owner set', () => {
    expect(sizeClass(size(80, 80), { small_max_cm: 80, medium_max_cm: 150 })).toBe('small');
    expect(sizeClass(size(146, 114), { small_max_cm: 80, medium_max_cm: 150 })).toBe('medium');
  });
});

describe('shippingNoteFor', () => {
  it("gives the work's own note first, trimmed", () => {
    expect(shippingNoteFor('  Livrée encadrée par nos soins. ', size(200, 150), notes, 'fr')).toBe(
      'Livrée encadrée par nos soins.',
    );
  });

  it('falls back to the default of its size, in the page language', () => {
    expect(shippingNoteFor('', size(30, 40), notes, 'fr')).toBe('Carton renforcé, 3 jours');
    expect(shippingNoteFor(' ', size(100, 80), notes, 'en')).toBe('Wooden crate, 5 days');
    expect(shippingNoteFor('', size(114, 146), notes, 'en')).toBe('Art shipper, 15 days');
  });

  it('says nothing rather than guess: no size, or an empty default', () => {
    expect(shippingNoteFor('', null, notes, 'fr')).toBeNull();
    expect(
      shippingNoteFor('', size(30, 40), { ...notes, small: { fr: '', en: '' } }, 'fr'),
    ).toBeNull();
  });
});
