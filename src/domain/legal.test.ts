// The VAT split and the legal identity's completeness (issue 26, docs/decisions/047).
import { describe, expect, it } from 'vitest';
import {
  missingLegalFields,
  parseVatRate,
  formatVatRate,
  splitVat,
  vatMention,
  type LegalIdentity,
} from './legal.ts';

const COMPLETE: LegalIdentity = {
  name: 'Sasha Kovač EI',
  address: 'Rua da Rosa 112, Lisboa',
  siret: '12345678900012',
  vat_mention: '',
  vat_regime: 'franchise',
  vat_rate_bp: 0,
};

describe('splitVat', () => {
  it('takes the tax out of a total including it, half away from zero, in integer cents', () => {
    expect(splitVat(123_457, 2000)).toEqual({
      rateBp: 2000,
      beforeTaxCents: 102_881,
      taxCents: 20_576,
      afterTaxCents: 123_457,
    });
    // 5,5 %: 35 000 / 1,055 = 33 175,35… → 33 175.
    expect(splitVat(35_000, 550)).toMatchObject({ beforeTaxCents: 33_175, taxCents: 1_825 });
    // Exactly half a cent rounds away from zero: 1 / 1,2 × 6 = 5 cents, 3 / 2 = 1,5 → 2.
    expect(splitVat(3, 10_000)).toMatchObject({ beforeTaxCents: 2, taxCents: 1 });
    expect(splitVat(-3, 10_000)).toMatchObject({ beforeTaxCents: -2, taxCents: -1 });
  });

  it('adds up, and a credit note mirrors its invoice to the cent', () => {
    for (let total = 1; total < 50_000; total += 97)
      for (const rate of [210, 550, 1000, 2000]) {
        const split = splitVat(total, rate);
        expect(split.beforeTaxCents + split.taxCents).toBe(total);
        const note = splitVat(-total, rate);
        expect(note.beforeTaxCents).toBe(0 - split.beforeTaxCents);
        expect(note.taxCents).toBe(0 - split.taxCents);
      }
  });

  it('refuses what is not cents or a rate', () => {
    expect(() => splitVat(10.5, 2000)).toThrow();
    expect(() => splitVat(100, 0)).toThrow();
  });
});

describe('the legal identity', () => {
  it('is complete with a name, an address and a stated regime; the SIRET is optional', () => {
    expect(missingLegalFields(COMPLETE)).toEqual([]);
    expect(missingLegalFields({ ...COMPLETE, vat_regime: 'rate', vat_rate_bp: 2000 })).toEqual([]);
    expect(missingLegalFields({ ...COMPLETE, siret: '' })).toEqual([]);
    expect(missingLegalFields({ ...COMPLETE, siret: '  ' })).toEqual([]);
  });

  it('names what is missing, in the settings’ order', () => {
    expect(missingLegalFields({ ...COMPLETE, name: ' ', siret: '123', vat_regime: '' })).toEqual([
      'name',
      'siret',
      'vat_regime',
    ]);
    expect(
      missingLegalFields({ ...COMPLETE, address: '', vat_regime: 'rate', vat_rate_bp: 0 }),
    ).toEqual(['address', 'vat_regime']);
  });

  it('prints the regime’s mention in each language, and nothing while it is not stated', () => {
    expect(vatMention({ regime: 'franchise', rateBp: 0 }, 'fr')).toBe(
      'TVA non applicable, art. 293 B du CGI',
    );
    expect(vatMention({ regime: 'rate', rateBp: 550 }, 'fr')).toBe(
      'Prix TTC, TVA au taux de 5,5 % incluse',
    );
    expect(vatMention({ regime: 'rate', rateBp: 550 }, 'en')).toBe('Prices include VAT at 5.5%');
    expect(vatMention({ regime: '', rateBp: 0 }, 'fr')).toBe('');
  });

  it('reads a rate as the owner types it', () => {
    expect(parseVatRate('5,5')).toBe(550);
    expect(parseVatRate(' 20 % ')).toBe(2000);
    expect(parseVatRate('2.10')).toBe(210);
    expect(parseVatRate('abc')).toBeNaN();
    expect(parseVatRate('5,555')).toBeNaN();
    expect(formatVatRate(550, 'fr')).toBe('5,5');
    expect(formatVatRate(2000, 'en')).toBe('20');
  });
});
