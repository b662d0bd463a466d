// The customers screen (back office §2 "Gestion des clients", §8, §9; issue 13 points 6–8): count,
// 'Actualiser', the §8 error banner, three stat cards, search (debounced; on the server, in SQL),
// result count, the six sortable columns — a first click sorts ascending, a second toggles — in a
// table from a laptop on and as cards on a phone (with the sort as a select), pages of 10 shown
// only above 10, and 'Détails du client' in a modal with the data requests. The address keeps the
// search, sort and page; the first view comes from the server (customers.astro).
import { useEffect, useRef, useState } from 'react';
import {
  CUSTOMER_SORTS,
  CUSTOMERS_PAGE_SIZE,
  type CustomerRow,
  type CustomerSort,
} from '../schemas/admin-orders.ts';
import type {
  CustomerListQuery,
  CustomerListView,
  EraseResult,
} from '../schemas/admin-customers.ts';
import { formatMoney } from '../domain/money.ts';
import { adminCall, frenchDate } from './api.ts';
import CustomerDetail from './customers/CustomerDetail.tsx';
import { searchOf, sortedBy } from './customers/query.ts';
import { BUTTON, Banners, translator, type Banner, type Texts } from './ui/kit.tsx';

interface Props {
  query: CustomerListQuery;
  /** null when the server could not read them: the §8 error shows, 'Actualiser' tries again. */
  initial: CustomerListView | null;
  /** The server's error message for the first view. */
  initialError: string;
  texts: Texts;
}

const EMPTY: CustomerListView = {
  stats: { total: 0, withOrders: 0, newThisMonth: 0 },
  matching: 0,
  page: 1,
  pages: 1,
  customers: [],
  currency: 'EUR',
};
/** A short pause while typing before the server is asked. */
const DEBOUNCE_MS = 300;

const COLUMN: Record<CustomerSort, { key: string; numeric?: boolean }> = {
  name: { key: 'col.name' },
  registered: { key: 'col.registered' },
  lastSignIn: { key: 'col.lastSignIn' },
  orders: { key: 'col.orders', numeric: true },
  spent: { key: 'col.spent', numeric: true },
  lastOrder: { key: 'col.lastOrder' },
};

const SELECT = 'min-h-11 rounded border border-field bg-white px-2 text-sm';

export default function Customers({ query: initialQuery, initial, initialError, texts }: Props) {
  const t = translator(texts);
  const [query, setQuery] = useState(initialQuery);
  const [search, setSearch] = useState(initialQuery.q);
  const [data, setData] = useState<CustomerListView>(initial ?? EMPTY);
  const [loading, setLoading] = useState(false);
  // A load error goes with the next good load; an erasure's notice stays until the next one.
  const [banner, setBanner] = useState<(Banner & { from: 'load' | 'erase' }) | null>(
    initial
      ? null
      : { tone: 'error', text: t('loadError', { message: initialError }), from: 'load' },
  );
  const [detail, setDetail] = useState<string | null>(null);
  // Typing, sorting and paging quickly send several requests: only the latest settles the list.
  const generation = useRef(0);
  const first = useRef(true);

  async function load(next: CustomerListQuery = query): Promise<void> {
    const ticket = ++generation.current;
    setLoading(true);
    const result = await adminCall<CustomerListView>(
      'GET',
      `/api/admin/customers${searchOf(next)}`,
    );
    if (ticket !== generation.current) return;
    setLoading(false);
    if (result.ok) {
      setData(result.data);
      setBanner((b) => (b?.from === 'load' ? null : b));
      // A page past the end (the search narrowed the list) is shown as the last page.
      if (result.data.page !== next.page) setQuery((q) => ({ ...q, page: result.data.page }));
      return;
    }
    // §8: the message; the figures and the list emptied rather than left stale.
    setData(EMPTY);
    setBanner({
      tone: 'error',
      text: t('loadError', { message: result.error.message }),
      from: 'load',
    });
  }

  // Every change of the query asks the server and writes the address.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.history.replaceState(null, '', `${window.location.pathname}${searchOf(query)}`);
    void load(query);
  }, [query]);

  // The search box waits for a pause in the typing.
  useEffect(() => {
    if (search === query.q) return;
    const timer = window.setTimeout(
      () => setQuery((q) => ({ ...q, q: search, page: 1 })),
      DEBOUNCE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [search]);

  function erased(result: EraseResult) {
    setBanner({
      tone: 'success',
      text: t('erase.done', { pseudonym: result.pseudonym }),
      from: 'erase',
    });
    void load();
  }

  const never = t('never');
  const date = (iso: string | null) => (iso ? frenchDate(iso) : never);
  const name = (row: CustomerRow) => row.name ?? t('noName');
  const money = (cents: number) => formatMoney(cents, data.currency);
  const open = (row: CustomerRow) => setDetail(row.email);
  const rowId = (row: CustomerRow, place: string) =>
    `customer-${place}-${row.email.toLowerCase().replace(/[^a-z0-9]/g, '-')}`;

  const nameButton = (row: CustomerRow, place: 'table' | 'card') => (
    <button
      type="button"
      id={rowId(row, place)}
      onClick={() => open(row)}
      className="-mx-1 block max-w-full min-w-0 rounded px-1 py-1 text-left hover:bg-black/5"
    >
      <span
        className={`block truncate font-medium underline decoration-black/30 underline-offset-4 ${
          row.name ? '' : 'text-black/70 italic'
        }`}
      >
        {name(row)}
      </span>
      <span className="block truncate text-xs text-black/70">{row.email}</span>
      {/* The name says what the button opens; the visible text stays the start of it. */}
      <span className="sr-only"> {t('detailsOf')}</span>
    </button>
  );

  const filtered = Boolean(query.q.trim());
  const stats: [string, number][] = [
    [t('stat.total'), data.stats.total],
    [t('stat.withOrders'), data.stats.withOrders],
    [t('stat.newThisMonth'), data.stats.newThisMonth],
  ];
  const number = (n: number) => new Intl.NumberFormat('fr-FR').format(n);
  return (
    <div className="space-y-5" aria-busy={loading || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-black/75">
          {data.stats.total === 1 ? t('countOne') : t('count', { count: number(data.stats.total) })}
        </p>
        <button type="button" className={BUTTON} disabled={loading} onClick={() => void load()}>
          {loading ? t('refreshing') : t('refresh')}
        </button>
      </div>

      <Banners banner={banner} />

      <dl aria-label={t('stats')} className="grid grid-cols-3 gap-2 sm:gap-3">
        {stats.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-black/10 bg-white p-3 sm:p-4">
            <dt className="text-xs leading-snug text-black/70 sm:text-sm">{label}</dt>
            <dd className="mt-1 font-serif text-2xl md:text-3xl">{number(value)}</dd>
          </div>
        ))}
      </dl>

      <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
        <label className="block">
          <span className="sr-only">{t('searchLabel')}</span>
          <input
            type="search"
            value={search}
            placeholder={t('search')}
            maxLength={200}
            onChange={(e) => setSearch(e.target.value)}
            className="block min-h-11 w-full rounded border border-field bg-white px-3"
          />
        </label>
        {/* On a phone the cards have no headers to click: the order is chosen here. */}
        <label className="flex items-center gap-2 text-sm lg:hidden">
          {t('sortHint')}
          <select
            value={query.sort ? `${query.sort}:${query.dir}` : ''}
            onChange={(e) => {
              const [sort, dir] = e.target.value.split(':') as [CustomerSort, 'asc' | 'desc'];
              setQuery((q) =>
                e.target.value ? { ...q, sort, dir, page: 1 } : { ...q, sort: undefined, page: 1 },
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
      <p className="text-sm text-black/70" aria-live="polite">
        {t('results', { count: number(data.matching) })}
      </p>

      {data.customers.length === 0 ? (
        banner?.from !== 'load' && (
          <div className="rounded-lg border border-black/10 bg-white p-8 text-center">
            <p className="font-serif text-xl">{t('empty')}</p>
            {filtered && <p className="mt-2 text-black/70">{t('emptyFiltered')}</p>}
          </div>
        )
      ) : (
        <>
          {/* From a laptop on: the §2 table. */}
          <div className="hidden rounded-lg border border-black/10 bg-white lg:block">
            <table className="w-full table-fixed text-left text-sm">
              <caption className="sr-only">
                {t('caption', { page: data.page, pages: data.pages })}
              </caption>
              <colgroup>
                <col className="w-[23%]" />
                <col className="w-[16%]" />
                <col className="w-[17%]" />
                <col className="w-[11%]" />
                <col className="w-[14%]" />
                <col className="w-[19%]" />
              </colgroup>
              <thead className="border-b border-black/10 bg-black/[0.03]">
                <tr>
                  {CUSTOMER_SORTS.map((sort) => {
                    const active = query.sort === sort;
                    const column = COLUMN[sort];
                    return (
                      <th
                        key={sort}
                        scope="col"
                        aria-sort={
                          active ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined
                        }
                        className={`px-3 py-1 font-medium ${column.numeric ? 'text-right' : ''}`}
                      >
                        <button
                          type="button"
                          onClick={() => setQuery((q) => sortedBy(q, sort))}
                          className="-mx-2 inline-flex min-h-11 items-center gap-1 rounded px-2 text-left leading-tight hover:bg-black/5"
                        >
                          {t(column.key)}
                          <span aria-hidden="true" className={active ? '' : 'text-black/30'}>
                            {active ? (query.dir === 'asc' ? '▲' : '▼') : '↕'}
                          </span>
                        </button>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {data.customers.map((row) => (
                  <tr
                    key={row.email}
                    data-customer={row.email}
                    className="border-b border-black/5 align-middle last:border-0"
                  >
                    <td className="px-3 py-2">{nameButton(row, 'table')}</td>
                    <td className="px-3 py-2 xl:whitespace-nowrap">
                      {row.registeredAt ? (
                        frenchDate(row.registeredAt)
                      ) : (
                        <span className="text-black/70">
                          {never}
                          {!row.hasAccount && <span className="block text-xs">{t('guest')}</span>}
                        </span>
                      )}
                    </td>
                    <td
                      className={`px-3 py-2 xl:whitespace-nowrap ${row.lastSignInAt ? '' : 'text-black/70'}`}
                    >
                      {date(row.lastSignInAt)}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{row.orders}</td>
                    <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                      {money(row.spentCents)}
                    </td>
                    <td
                      className={`px-3 py-2 xl:whitespace-nowrap ${row.lastOrderAt ? '' : 'text-black/70'}`}
                    >
                      {date(row.lastOrderAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          {/* On a phone and a tablet: one card per customer, nothing to scroll sideways. */}
          <ul className="space-y-3 lg:hidden">
            {data.customers.map((row) => (
              <li
                key={row.email}
                data-customer={row.email}
                className="space-y-2 rounded-lg border border-black/10 bg-white p-4"
              >
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0 flex-1">{nameButton(row, 'card')}</div>
                  <div className="shrink-0 text-right">
                    <p className="font-medium tabular-nums">{money(row.spentCents)}</p>
                    <p className="text-xs text-black/70">
                      {t('col.orders')} : {row.orders}
                    </p>
                  </div>
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
                  {(
                    [
                      [
                        'col.registered',
                        row.registeredAt
                          ? frenchDate(row.registeredAt)
                          : row.hasAccount
                            ? never
                            : `${never} (${t('guest').toLowerCase()})`,
                      ],
                      ['col.lastSignIn', date(row.lastSignInAt)],
                      ['col.lastOrder', date(row.lastOrderAt)],
                    ] as const
                  ).map(([key, value]) => (
                    <div key={key} className="contents">
                      <dt className="text-black/70">{t(key)}</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        </>
      )}

      {/* §9: pagination only when there are more than 10. */}
      {data.matching > CUSTOMERS_PAGE_SIZE && (
        <nav aria-label={t('pagination')} className="flex items-center justify-center gap-3">
          <button
            type="button"
            className={BUTTON}
            disabled={data.page <= 1 || loading}
            onClick={() => setQuery((q) => ({ ...q, page: Math.max(1, data.page - 1) }))}
          >
            {t('previous')}
          </button>
          <p className="text-sm tabular-nums" aria-live="polite">
            {t('page', { page: data.page, pages: data.pages })}
          </p>
          <button
            type="button"
            className={BUTTON}
            disabled={data.page >= data.pages || loading}
            onClick={() => setQuery((q) => ({ ...q, page: Math.min(data.pages, data.page + 1) }))}
          >
            {t('next')}
          </button>
        </nav>
      )}

      {detail && (
        <CustomerDetail email={detail} t={t} onClose={() => setDetail(null)} onErased={erased} />
      )}
    </div>
  );
}
