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
import { Banners, translator, type Texts, EmptyState } from './ui/kit.tsx';
import { usePagedList, useTypedSearch } from './ui/paged-list.ts';
import Pager from './ui/Pager.tsx';

const EMPTY: OrderList = { total: 0, matching: 0, page: 1, pages: 1, orders: [] };

interface Props {
  query: OrderListQuery;
  /** null when the server could not read them: the §8 error shows, 'Actualiser' tries again. */
  initial: OrderList | null;
  /** The server's error message for the first view. */
  initialError: string;
  texts: Texts;
}

function Orders({ query: initialQuery, initial, initialError, texts }: Props) {
  const t = translator(texts);
  const { query, setQuery, list, failure, data, busy } = usePagedList<OrderListQuery, OrderList>({
    keys: adminKeys.orders,
    endpoint: '/api/admin/orders',
    searchOf,
    initialQuery,
    initialData: initial,
    initialError,
    empty: EMPTY,
  });
  const [search, setSearch] = useTypedSearch(query, setQuery);
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
      {data.pages > 1 && (
        <Pager
          t={t}
          page={query.page}
          pages={data.pages}
          busy={busy}
          onPage={(page) => setQuery((q) => ({ ...q, page }))}
        />
      )}
      {dialogs}
    </div>
  );
}

export default withAdminQuery(Orders);
