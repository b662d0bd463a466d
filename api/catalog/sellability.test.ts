import { describe, expect, it } from 'vitest';
import { isAppError } from '../http/errors.ts';
import { assertSellable, sellability, type SaleFacts } from './sellability.ts';

const original: SaleFacts = {
  artwork_type: 'original',
  is_available: true,
  is_sold: false,
  stock: 1,
};
const print: SaleFacts = { artwork_type: 'print', is_available: true, is_sold: false, stock: 3 };
const title = { title_fr: 'Alpha', title_en: 'Alpha' };

function refusal(work: SaleFacts, quantity: number): string {
  try {
    assertSellable(work, quantity, title);
    return 'sold';
  } catch (error) {
    return isAppError(error)
      ? `${error.code} ${JSON.stringify(error.params ?? {})}`
      : String(error);
  }
}

describe('the sellability rule', () => {
  it('sells one original, up to the prints left, nothing hidden', () => {
    expect(sellability(original)).toEqual({ sellable: true, max: 1 });
    expect(sellability({ ...original, is_sold: true })).toEqual({
      sellable: false,
      reason: 'sold',
    });
    expect(sellability(print)).toEqual({ sellable: true, max: 3 });
    expect(sellability({ ...print, stock: 0 })).toEqual({ sellable: false, reason: 'sold_out' });
    expect(sellability({ ...print, is_available: false })).toEqual({
      sellable: false,
      reason: 'withdrawn',
    });
  });

  it('answers the buyer’s error for each refusal', () => {
    expect(refusal(original, 1)).toBe('sold');
    expect(refusal(original, 2)).toBe('original_quantity {}');
    expect(refusal({ ...original, is_sold: true }, 1)).toMatch(/^unavailable /);
    expect(refusal({ ...print, is_available: false }, 1)).toMatch(/^unavailable /);
    expect(refusal(print, 3)).toBe('sold');
    expect(refusal(print, 4)).toBe(`out_of_stock ${JSON.stringify({ ...title, stock: 3 })}`);
    expect(refusal({ ...print, stock: 0 }, 1)).toBe(
      `out_of_stock ${JSON.stringify({ ...title, stock: 0 })}`,
    );
  });
});
