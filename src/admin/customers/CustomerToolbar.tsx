// Above the customers list (back office §2): the three stat cards, then the search box and, on a
// phone and a tablet where the cards have no headers to click, the sort as a select.
import {
  CUSTOMER_SORTS,
  type CustomerList,
  type CustomerSort,
} from '../../schemas/admin-orders.ts';
import type { CustomerListQuery } from '../../schemas/admin-customers.ts';
import { SearchBox, type Translate } from '../ui/kit.tsx';
import { COLUMN } from './CustomerList.tsx';

const SELECT = 'min-h-11 rounded border border-field bg-white px-2 text-sm';
const number = (n: number) => new Intl.NumberFormat('fr-FR').format(n);

export function CustomerStats({ t, stats }: { t: Translate; stats: CustomerList['stats'] }) {
  const cards: [string, number][] = [
    [t('stat.total'), stats.total],
    [t('stat.withOrders'), stats.withOrders],
    [t('stat.newThisMonth'), stats.newThisMonth],
  ];
  return (
    <dl aria-label={t('stats')} className="grid grid-cols-3 gap-2 sm:gap-3">
      {cards.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-black/10 bg-white p-3 sm:p-4">
          <dt className="text-xs leading-snug text-black/70 sm:text-sm">{label}</dt>
          <dd className="mt-1 font-serif text-2xl md:text-3xl">{number(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

interface SearchProps {
  t: Translate;
  search: string;
  onSearch: (text: string) => void;
  query: CustomerListQuery;
  onQuery: (change: (query: CustomerListQuery) => CustomerListQuery) => void;
}

export function CustomerSearch({ t, search, onSearch, query, onQuery }: SearchProps) {
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_auto] lg:grid-cols-1">
      <SearchBox t={t} value={search} onChange={onSearch} />
      <label className="flex items-center gap-2 text-sm lg:hidden">
        {t('sortHint')}
        <select
          value={query.sort ? `${query.sort}:${query.dir}` : ''}
          onChange={(e) => {
            const [sort, dir] = e.target.value.split(':') as [CustomerSort, 'asc' | 'desc'];
            const chosen = e.target.value;
            onQuery((q) =>
              chosen ? { ...q, sort, dir, page: 1 } : { ...q, sort: undefined, page: 1 },
            );
          }}
          className={SELECT}
        >
          <option value="">{t('sortDefault')}</option>
          {CUSTOMER_SORTS.flatMap((sort) =>
            (['asc', 'desc'] as const).map((dir) => (
              <option key={`${sort}:${dir}`} value={`${sort}:${dir}`}>
                {t(COLUMN[sort].key)} {dir === 'asc' ? '▲' : '▼'}
              </option>
            )),
          )}
        </select>
      </label>
    </div>
  );
}
