// The customers screen (back office §2 "Gestion des clients", §8, §9; issue 13 points 6–8): count,
// 'Actualiser', the §8 error banner, three stat cards, search (debounced; on the server, in SQL),
// result count, the six sortable columns — a first click sorts ascending, a second toggles — in a
// table from a laptop on and as cards on a phone (with the sort as a select), pages of 10 shown
// only above 10, and 'Détails du client' in a modal with the data requests. The list is on the
// query cache (src/admin/ui/paged-list.ts): the address keeps the search, sort and page, the first
// view comes from the server (customers.astro), and a slow answer to an earlier search never
// replaces a later one.
import { lazy, Suspense, useState } from 'react';
import type {
  CustomerListQuery,
  CustomerListView,
  EraseResult,
} from '../schemas/admin-customers.ts';
import { adminKeys, withAdminQuery } from './query.tsx';
import { CustomerCards, CustomerTable } from './customers/CustomerList.tsx';
import { CustomerSearch, CustomerStats } from './customers/CustomerToolbar.tsx';
import { searchOf } from './customers/query.ts';
import { Banners, translator, type Banner, EmptyState, RefreshButton } from './ui/kit.tsx';
import Pager from './ui/Pager.tsx';
import { useSearchedList, type ListScreenProps } from './ui/paged-list.ts';
import { CUSTOMERS_PAGE_SIZE } from '../schemas/admin-orders.ts';

// A customer's detail (its erase form, the form library and the kernel's schemas) loads when it is
// first opened, keeping the list within the back office's script budget (bench/admin.ts).
const CustomerDetail = lazy(() => import('./customers/CustomerDetail.tsx'));

const EMPTY: CustomerListView = {
  stats: { total: 0, withOrders: 0, newThisMonth: 0 },
  matching: 0,
  page: 1,
  pages: 1,
  customers: [],
  currency: 'EUR',
};
const number = (n: number) => new Intl.NumberFormat('fr-FR').format(n);

function Customers(props: ListScreenProps<CustomerListQuery, CustomerListView>) {
  const t = translator(props.texts);
  const { query, setQuery, toPage, list, failure, data, busy, search, setSearch } = useSearchedList(
    { keys: adminKeys.customers, endpoint: '/api/admin/customers', searchOf, empty: EMPTY },
    props,
  );
  const [notice, setNotice] = useState<Banner | null>(null);
  const [detail, setDetail] = useState<string | null>(null);

  // §8: the message, and the figures and the list emptied rather than left stale.
  const banner: Banner | null = failure
    ? { tone: 'error', text: t('loadError', { message: failure }) }
    : notice;

  function erased(result: EraseResult) {
    setNotice({ tone: 'success', text: t('erase.done', { pseudonym: result.pseudonym }) });
  }

  return (
    <div className="space-y-5" aria-busy={busy || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-black/75">
          {data.stats.total === 1 ? t('countOne') : t('count', { count: number(data.stats.total) })}
        </p>
        <RefreshButton t={t} busy={busy} onRefresh={() => void list.refetch()} />
      </div>

      <Banners banner={banner} />
      <CustomerStats t={t} stats={data.stats} />
      <CustomerSearch t={t} search={search} onSearch={setSearch} query={query} onQuery={setQuery} />
      <p className="text-sm text-black/70" aria-live="polite">
        {t('results', { count: number(data.matching) })}
        {/* The first view's order (first appearance, newest first) is no column's: with no header
            to mark, the table says it here (the phone's sort select already shows it). */}
        {!query.sort && (
          <span className="hidden lg:inline"> · {t('sortDefault').toLowerCase()}</span>
        )}
      </p>

      {data.customers.length === 0 ? (
        !failure && (
          <EmptyState title={t('empty')}>{query.q.trim() && t('emptyFiltered')}</EmptyState>
        )
      ) : (
        <>
          <CustomerTable
            t={t}
            list={data}
            query={query}
            onSort={(next) => setQuery(next)}
            onOpen={setDetail}
          />
          <CustomerCards t={t} list={data} onOpen={setDetail} />
        </>
      )}

      {/* §9: pagination only when there are more than 10. */}
      {data.matching > CUSTOMERS_PAGE_SIZE && (
        <Pager t={t} page={data.page} pages={data.pages} busy={busy} onPage={toPage} />
      )}

      {detail && (
        <Suspense>
          <CustomerDetail email={detail} t={t} onClose={() => setDetail(null)} onErased={erased} />
        </Suspense>
      )}
    </div>
  );
}

export default withAdminQuery(Customers);
