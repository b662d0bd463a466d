import { describe, expect, it } from 'vitest';
import {
  fullSize,
  parseVariantPath,
  srcset,
  srcsetEntries,
  variantUrl,
  zoomVariantUrl,
} from './variants.ts';

const SHA = 'a'.repeat(62) + '0f';

describe('variantUrl', () => {
  it('names the content, the width and the format', () => {
    expect(variantUrl(SHA, 400, 'avif')).toBe(`/media/${SHA}/400.avif`);
  });
});

describe('parseVariantPath', () => {
  it('accepts every variant URL it builds', () => {
    for (const width of [400, 800, 1200] as const) {
      for (const format of ['avif', 'webp'] as const) {
        expect(parseVariantPath(variantUrl(SHA, width, format))).toEqual({
          sha256: SHA,
          width,
          format,
        });
      }
    }
  });

  it('accepts the zoom’s full size, by name', () => {
    expect(parseVariantPath(`/media/${SHA}/full.webp`)).toEqual({
      sha256: SHA,
      width: 'full',
      format: 'webp',
    });
  });

  it.each([
    ['a width that is not offered', `/media/${SHA}/401.avif`],
    ['the former zoom width', `/media/${SHA}/2400.webp`],
    ['an uppercase full', `/media/${SHA}/FULL.webp`],
    ['full with a width', `/media/${SHA}/full400.webp`],
    ['a width with a leading zero', `/media/${SHA}/0400.avif`],
    ['a width of zero', `/media/${SHA}/0.webp`],
    ['a fractional width', `/media/${SHA}/400.5.webp`],
    ['a format that is not offered', `/media/${SHA}/400.jpg`],
    ['an uppercase format', `/media/${SHA}/400.AVIF`],
    ['no format', `/media/${SHA}/400`],
    ['uppercase hex', `/media/${SHA.toUpperCase()}/400.avif`],
    ['a short hash', `/media/${SHA.slice(1)}/400.avif`],
    ['a long hash', `/media/${SHA}0/400.avif`],
    ['non-hex characters', `/media/${'g'.repeat(64)}/400.avif`],
    ['a parent directory', `/media/../400.avif`],
    ['a traversal in the hash', `/media/${SHA}/../../etc/passwd`],
    ['a traversal in the file', `/media/${SHA}/..%2F400.avif`],
    ['an encoded slash', `/media/${SHA}%2F400.avif`],
    ['an extra segment', `/media/${SHA}/400/400.avif`],
    ['a trailing slash', `/media/${SHA}/400.avif/`],
    ['a query string', `/media/${SHA}/400.avif?x=1`],
    ['another prefix', `/images/${SHA}/400.avif`],
    ['no prefix', `${SHA}/400.avif`],
    ['a doubled slash', `/media//${SHA}/400.avif`],
    ['the empty string', ''],
  ])('refuses %s', (_label, pathname) => {
    expect(parseVariantPath(pathname)).toBeNull();
  });
});

describe('srcset', () => {
  it('offers every width for a large master', () => {
    expect(srcset(SHA, 'avif', 1500)).toBe(
      `/media/${SHA}/400.avif 400w, /media/${SHA}/800.avif 800w, /media/${SHA}/1200.avif 1200w`,
    );
    expect(srcset(SHA, 'webp', 1200)).toBe(
      `/media/${SHA}/400.webp 400w, /media/${SHA}/800.webp 800w, /media/${SHA}/1200.webp 1200w`,
    );
  });

  it('stops at the master width and describes what is really rendered (never enlarged)', () => {
    expect(srcset(SHA, 'webp', 800)).toBe(
      `/media/${SHA}/400.webp 400w, /media/${SHA}/800.webp 800w`,
    );
    expect(srcset(SHA, 'webp', 1000)).toBe(
      `/media/${SHA}/400.webp 400w, /media/${SHA}/800.webp 800w, /media/${SHA}/1200.webp 1000w`,
    );
  });

  it('always offers the smallest variant', () => {
    expect(srcset(SHA, 'avif', 300)).toBe(`/media/${SHA}/400.avif 300w`);
    expect(srcsetEntries(16)).toEqual([{ width: 400, rendered: 16 }]);
  });
});

describe('the zoom’s image', () => {
  it('is the master at its own size, up to 4 000 px on its long side', () => {
    expect(zoomVariantUrl(SHA, 3200, 4000)).toEqual({
      url: `/media/${SHA}/full.webp`,
      width: 3200,
      height: 4000,
    });
    expect(fullSize(1200, 1500)).toEqual({ width: 1200, height: 1500 });
    // A master stored before uploads were capped is drawn at 4 000 px.
    expect(fullSize(9000, 6000)).toEqual({ width: 4000, height: 2667 });
  });

  it('is never part of a srcset', () => {
    expect(srcset(SHA, 'webp', 4000)).not.toContain('full');
    expect(srcsetEntries(4000).map((e) => e.width)).toEqual([400, 800, 1200]);
  });
});
