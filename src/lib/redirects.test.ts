import { describe, expect, it } from 'vitest';
import { sameSitePath } from './redirects.ts';

describe('sameSitePath', () => {
  it.each([
    ['/admin/artworks?q=1', '/admin/artworks?q=1'],
    [null, '/home'],
    ['', '/home'],
    ['https://evil.example/', '/home'],
    ['//evil.example/', '/home'],
    ['/\\evil.example/', '/home'],
    ['/admin\n', '/home'],
  ])('%j → %s', (value, expected) => {
    expect(sameSitePath(value, '/home')).toBe(expected);
  });
});
