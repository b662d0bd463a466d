// The customers list's query in the address bar (a reload or a shared link opens the same search,
// sort and page): only what differs from the default view — newest customers first — is written.
import { CUSTOMER_SORTS, type CustomerSort } from '../../schemas/admin-orders.ts';
import type { CustomerListQuery } from '../../schemas/admin-customers.ts';

export const DEFAULT_QUERY: CustomerListQuery = { q: '', sort: undefined, dir: 'asc', page: 1 };

export function queryFromSearch(search: string): CustomerListQuery {
  const params = new URLSearchParams(search);
  const sort = params.get('sort') as CustomerSort | null;
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    sort: sort && CUSTOMER_SORTS.includes(sort) ? sort : undefined,
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The query string without the defaults ('' for the default view). */
export function searchOf(query: CustomerListQuery): string {
  const params = new URLSearchParams();
  if (query.q.trim()) params.set('q', query.q.trim());
  if (query.sort) {
    params.set('sort', query.sort);
    params.set('dir', query.dir);
  }
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** §2: a first click on a column sorts ascending, a second on the same one toggles. */
export function sortedBy(query: CustomerListQuery, sort: CustomerSort): CustomerListQuery {
  const dir = query.sort === sort ? (query.dir === 'asc' ? 'desc' : 'asc') : 'asc';
  return { ...query, sort, dir, page: 1 };
}
