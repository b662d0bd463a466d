// The orders screen (back office §2 "Gestion des commandes", §4, §8, §9; issues 13 and 27): count,
// 'Actualiser', 'Exporter (CSV)', the §8 error banners, search (debounced; on the server, in SQL),
// status filter, result count, the table — cards on a phone — with each order's quick status
// change, pages of 25. The detail is where the owner acts (issue 27 item 3): ship with a tracking
// number, refund all or some works, cancel, print the packing slip. Server state lives in the
// query cache (./query.tsx): the first view is the one the Astro page read, each search its own
// key, and a change invalidates what it touched. The address keeps the search, filter, sort, page.
import type { OrderList, OrderListQuery, OrderSort } from '../schemas/admin-orders.ts';
import { useOrderDialogs } from './orders/dialogs.tsx';
import { OrderCards, OrdersTable } from './orders/OrderRows.tsx';
import { defaultDir, searchOf } from './orders/query.ts';
import Toolbar from './orders/Toolbar.tsx';
import { adminKeys, withAdminQuery } from './query.tsx';
import { Banners, translator, EmptyState } from './ui/kit.tsx';
import { useSearchedList, type ListScreenProps } from './ui/paged-list.ts';
import Pager from './ui/Pager.tsx';

const EMPTY: OrderList = { total: 0, matching: 0, page: 1, pages: 1, orders: [] };

function Orders(props: ListScreenProps<OrderListQuery, OrderList>) {
  const t = translator(props.texts);
  const { query, setQuery, toPage, list, failure, data, busy, search, setSearch } = useSearchedList(
    { keys: adminKeys.orders, endpoint: '/api/admin/orders', searchOf, empty: EMPTY },
    props,
  );
  const { banner, choose, dialogs, pending, openDetail } = useOrderDialogs(t);

  // §8: a failed read says so and empties the list; the next good read takes the message away.
  const orders = data.orders;
  const filtered = Boolean(query.q.trim()) || query.status !== 'all';
  const rows = {
    orders,
    query,
    pending,
    t,
    onSort: (sort: OrderSort) =>
      setQuery((q) => ({
        ...q,
        sort,
        dir: q.sort === sort ? (q.dir === 'asc' ? 'desc' : 'asc') : defaultDir(sort),
        page: 1,
      })),
    onChoose: choose,
    onDetail: openDetail,
  };

  return (
    <div className="space-y-5" aria-busy={busy || undefined}>
      <Toolbar
        t={t}
        total={data.total}
        refreshing={busy}
        exportHref={`/api/admin/orders/export${searchOf(query, { paged: false })}`}
        search={search}
        query={query}
        onRefresh={() => void list.refetch()}
        onSearch={setSearch}
        onQuery={(change) => setQuery((q) => ({ ...q, ...change }))}
      />
      <Banners
        banner={failure ? { tone: 'error', text: t('loadError', { message: failure }) } : banner}
      />
      <p className="text-sm text-black/70" aria-live="polite">
        {t('results', { count: data.matching })}
      </p>
      {orders.length === 0 ? (
        !failure && (
          <EmptyState title={t('empty')}>
            {filtered || data.total > 0 ? t('emptyFiltered') : t('emptyNone')}
          </EmptyState>
        )
      ) : (
        <>
          <OrdersTable {...rows} />
          <OrderCards {...rows} />
        </>
      )}
      <Pager t={t} page={query.page} pages={data.pages} busy={busy} onPage={toPage} />
      {dialogs}
    </div>
  );
}

export default withAdminQuery(Orders);
