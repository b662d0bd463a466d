import { describe, expect, it } from 'vitest';
import { bannerPromotion, DEFAULT_SETTINGS } from './index.ts';

describe('bannerPromotion', () => {
  it('advertises the configured code while it is active', () => {
    expect(bannerPromotion(DEFAULT_SETTINGS)).toEqual({ code: 'SASHA25', discount: 15 });
    expect(bannerPromotion({ ...DEFAULT_SETTINGS, promo_banner_code: 'art20' })).toEqual({
      code: 'ART20',
      discount: 20,
    });
  });

  it('advertises nothing when the code is inactive or unknown', () => {
    const inactive = DEFAULT_SETTINGS.promo_codes.map((c) => ({
      ...c,
      active: c.code !== 'SASHA25',
    }));
    expect(bannerPromotion({ ...DEFAULT_SETTINGS, promo_codes: inactive })).toBeNull();
    expect(bannerPromotion({ ...DEFAULT_SETTINGS, promo_banner_code: 'NOPE' })).toBeNull();
  });
});
