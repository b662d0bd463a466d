// The orders list's query in the address bar and in the toolbar's selects (issues 13, 27): what a
// shared link or a select gives is read against the kernel's lists, never cast.
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY, filterOf, queryFromSearch, searchOf, sortOf } from './query.ts';

describe("the orders list's query", () => {
  it('reads a known filter and sort, and falls back to the default view on anything else', () => {
    expect(filterOf('shipped')).toBe('shipped');
    expect(filterOf('drop table')).toBe('all');
    expect(filterOf(null)).toBe('all');
    expect(sortOf('total')).toBe('total');
    expect(sortOf('password')).toBe('date');
    expect(sortOf(undefined)).toBe('date');
  });

  it('opens a shared link on the same view, and writes only what differs from the default', () => {
    const query = queryFromSearch('?q=Durand&status=shipped&sort=total&dir=asc&page=3');
    expect(query).toEqual({ q: 'Durand', status: 'shipped', sort: 'total', dir: 'asc', page: 3 });
    expect(searchOf(query)).toBe('?q=Durand&status=shipped&sort=total&dir=asc&page=3');
    expect(searchOf(DEFAULT_QUERY)).toBe('');
  });

  it('gives a forged link the default view, each part on its own', () => {
    const query = queryFromSearch('?status=nope&sort=nope&dir=sideways&page=-2');
    expect(query).toEqual(DEFAULT_QUERY);
    expect(queryFromSearch('?sort=customer').dir).toBe('asc');
  });
});
