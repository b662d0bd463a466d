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

/** A status filter read from the address bar or the filter's select; an unknown one is 'all'. */
export function filterOf(value: string | null): OrderFilter {
  return ORDER_FILTERS.find((filter) => filter === value) ?? DEFAULT_QUERY.status;
}

/** A sort column read likewise; an unknown one is the date. */
export function sortOf(value: string | null | undefined): OrderSort {
  return ORDER_SORTS.find((sort) => sort === value) ?? DEFAULT_QUERY.sort;
}

export function queryFromSearch(search: string): OrderListQuery {
  const params = new URLSearchParams(search);
  const dir = params.get('dir');
  const page = Number(params.get('page'));
  const chosen = sortOf(params.get('sort'));
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    status: filterOf(params.get('status')),
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
