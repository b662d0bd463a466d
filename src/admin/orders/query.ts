// The orders list's query in the address bar (issue 13: a reload or a shared link opens the same
// search, filter, sort and page): only what differs from the default view is written.
import {
  ORDER_FILTERS,
  ORDER_SORTS,
  type OrderFilter,
  type OrderListQuery,
  type OrderSort,
} from '../../schemas/admin-orders.ts';

export const DEFAULT_QUERY: OrderListQuery = {
  q: '',
  status: 'all',
  sort: 'date',
  dir: 'desc',
  page: 1,
};

/** Amounts and dates read best newest or largest first; names and numbers from A. */
export function defaultDir(sort: OrderSort): 'asc' | 'desc' {
  return sort === 'date' || sort === 'total' ? 'desc' : 'asc';
}

export function queryFromSearch(search: string): OrderListQuery {
  const params = new URLSearchParams(search);
  const status = params.get('status') as OrderFilter | null;
  const sort = params.get('sort') as OrderSort | null;
  const dir = params.get('dir');
  const page = Number(params.get('page'));
  const chosen = sort && ORDER_SORTS.includes(sort) ? sort : DEFAULT_QUERY.sort;
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    status: status && ORDER_FILTERS.includes(status) ? status : DEFAULT_QUERY.status,
    sort: chosen,
    dir: dir === 'asc' || dir === 'desc' ? dir : defaultDir(chosen),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The query string, without the defaults ('' for the default view). */
export function searchOf(query: OrderListQuery, options: { paged?: boolean } = {}): string {
  const params = new URLSearchParams();
  if (query.q.trim()) params.set('q', query.q.trim());
  if (query.status !== DEFAULT_QUERY.status) params.set('status', query.status);
  if (query.sort !== DEFAULT_QUERY.sort || query.dir !== defaultDir(query.sort)) {
    params.set('sort', query.sort);
    params.set('dir', query.dir);
  }
  if (options.paged !== false && query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}
