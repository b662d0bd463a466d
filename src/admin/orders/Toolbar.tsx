// The list's top (back office §2): the count, 'Actualiser', 'Exporter (CSV)', the search box, the
// status filter and — on a phone, where the cards have no headers to click — the sort.
import {
  ORDER_FILTERS,
  ORDER_SORTS,
  type OrderListQuery,
  type OrderSort,
} from '../../schemas/admin-orders.ts';
import { filterOf, sortOf } from './query.ts';
import { FULFILMENT_LABELS } from '../../domain/order-status.ts';
import { BUTTON, type Translate, RefreshButton, SearchBox } from '../ui/kit.tsx';

const SELECT = 'min-h-11 rounded border border-field bg-white px-2 text-sm';
const SORT_COLUMN: Record<OrderSort, string> = {
  number: 'col.order',
  customer: 'col.customer',
  total: 'col.amount',
  status: 'col.status',
  date: 'col.date',
};

interface Props {
  t: Translate;
  total: number;
  refreshing: boolean;
  exportHref: string;
  search: string;
  query: OrderListQuery;
  onRefresh: () => void;
  onSearch: (text: string) => void;
  onQuery: (change: Partial<OrderListQuery>) => void;
}

export default function Toolbar({ t, total, refreshing, exportHref, search, query, ...on }: Props) {
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-black/75">{t(total === 1 ? 'countOne' : 'count', { count: total })}</p>
        <div className="flex flex-wrap gap-2">
          <RefreshButton t={t} busy={refreshing} onRefresh={on.onRefresh} />
          <a href={exportHref} download className={BUTTON}>
            {t('export')}
          </a>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
        <SearchBox t={t} value={search} onChange={on.onSearch} />
        {/* Side by side, each label above its list on a phone; on one line with the search from a
            tablet on. */}
        <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap">
          <label className="flex flex-col gap-1 text-sm sm:flex-row sm:items-center sm:gap-2">
            {t('statusFilter')}
            <select
              value={query.status}
              onChange={(e) => on.onQuery({ status: filterOf(e.target.value), page: 1 })}
              className={SELECT}
            >
              {ORDER_FILTERS.map((f) => (
                <option key={f} value={f}>
                  {f === 'all'
                    ? t('filter.all')
                    : f === 'paid'
                      ? t('filter.paid')
                      : FULFILMENT_LABELS[f]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm sm:flex-row sm:items-center sm:gap-2 lg:hidden">
            {t('sort')}
            <select
              value={`${query.sort}:${query.dir}`}
              onChange={(e) => {
                const [sort, dir] = e.target.value.split(':');
                on.onQuery({ sort: sortOf(sort), dir: dir === 'asc' ? 'asc' : 'desc', page: 1 });
              }}
              className={SELECT}
            >
              {ORDER_SORTS.flatMap((sort) =>
                (['desc', 'asc'] as const).map((dir) => (
                  <option key={`${sort}:${dir}`} value={`${sort}:${dir}`}>
                    {t(dir === 'asc' ? 'sortAsc' : 'sortDesc', { column: t(SORT_COLUMN[sort]) })}
                  </option>
                )),
              )}
            </select>
          </label>
        </div>
      </div>
    </>
  );
}
