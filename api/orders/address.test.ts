// The one address formatter (issue 27): the checkout's shape, an older order's (postal_code,
// additional_info), JSON text, and nothing readable — and the mails and the invoice print the
// older order's postcode through it (the confirmation mail used to lose it).
import { describe, expect, it } from 'vitest';
import { addressLines, parseAddress } from './address.ts';

const CHECKOUT = {
  street: 'Rua da Rosa 40',
  additionalInfo: '3.º esq.',
  postalCode: '1200-385',
  city: 'Lisboa',
  country: 'PT',
};
const OLDER = { street: '12 rue des Lilas', postal_code: '75011', city: 'Paris', country: 'FR' };

describe('address', () => {
  it('prints the checkout shape with the country named in the language', () => {
    expect(addressLines(CHECKOUT, 'fr')).toEqual([
      'Rua da Rosa 40',
      '3.º esq.',
      '1200-385 Lisboa',
      'Portugal',
    ]);
    expect(addressLines({ ...CHECKOUT, country: 'NL' }, 'en').at(-1)).toBe('Netherlands');
    expect(addressLines({ ...CHECKOUT, country: 'NL' }, 'fr').at(-1)).toBe('Pays-Bas');
  });

  it('keeps the postal code of an older order (postal_code, additional_info)', () => {
    expect(addressLines(OLDER, 'fr')).toEqual(['12 rue des Lilas', '75011 Paris', 'France']);
    expect(parseAddress({ ...OLDER, additional_info: 'Bât. B' }).additionalInfo).toBe('Bât. B');
    expect(addressLines(JSON.stringify(OLDER), 'en')).toEqual([
      '12 rue des Lilas',
      '75011 Paris',
      'France',
    ]);
  });

  it('leaves out what is missing and never throws', () => {
    expect(addressLines(null)).toEqual([]);
    expect(addressLines('not json')).toEqual(['not json']);
    expect(addressLines({ city: 'Porto', country: 'Atlantis' })).toEqual(['Porto', 'Atlantis']);
    expect(addressLines({ street: 42, postalCode: '  ', postal_code: '4000' })).toEqual(['4000']);
  });
});
