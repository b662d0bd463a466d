// The dashboard (back office §2, §4, §8; issues 11, 25, 27 §4): what the owner has to do first —
// orders to ship, withdrawals to settle, unread messages, the legal identity, the second factor,
// each a link to where it is done — then the last 30 days' sales, the spec's four figures and the
// five latest paid orders, each opening its order. Server state on TanStack Query, first data
// from the page; 'Actualiser' asks again. On a failed load: 'Erreur lors du chargement des
// données: ' + message, the figures at 0 (the works count kept) and the list emptied (§4).
import { useQuery } from '@tanstack/react-query';
import type { Dashboard as Data } from '../schemas/dashboard.ts';
import { formatMoney } from '../domain/money.ts';
import { adminFetch, adminKeys, errorMessage, withAdminQuery } from './query.tsx';
import { translator, type Texts, type Translate, RefreshButton } from './ui/kit.tsx';
import { RecentOrders } from './dashboard/RecentOrders.tsx';
import { Sales } from './dashboard/Sales.tsx';
import { Todo } from './dashboard/Todo.tsx';

interface Props {
  initial: Data;
  texts: Texts;
}

/** §4: what a failed load shows — zeros, the works count and what the settings say kept. */
function failed(before: Data): Data {
  return {
    ...before,
    revenueCents: 0,
    paidOrders: 0,
    awaitingShipment: 0,
    awaitingPending: 0,
    unreadMessages: 0,
    withdrawals: [],
    recent: [],
    last30: before.last30.map((d) => ({ ...d, revenueCents: 0, orders: 0 })),
  };
}

function Figures({ data, t }: { data: Data; t: Translate }) {
  const figures: [string, string][] = [
    [t('revenue'), formatMoney(data.revenueCents)],
    [t('orders'), String(data.paidOrders)],
    [t('worksOnline'), String(data.worksOnline)],
    [t('awaiting'), String(data.awaitingShipment)],
  ];
  return (
    <div>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-black/10 bg-white p-4">
            <dt className="text-sm text-black/70">{label}</dt>
            <dd className="mt-1 font-serif text-2xl tabular-nums md:text-3xl">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-black/70">{t('revenueNote')}</p>
    </div>
  );
}

function Dashboard({ initial, texts }: Props) {
  const t = translator(texts);
  const query = useQuery({
    queryKey: adminKeys.dashboard.list(),
    queryFn: () => adminFetch<Data>('GET', '/api/admin/dashboard'),
    initialData: initial,
  });
  const data = query.isError ? failed(query.data) : query.data;
  return (
    <div className="space-y-8" aria-busy={query.isFetching || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="alert" className="text-sm text-red-800 empty:hidden">
          {query.isError ? t('error', { message: errorMessage(query.error) }) : ''}
        </p>
        <RefreshButton
          t={t}
          busy={query.isFetching}
          onRefresh={() => void query.refetch()}
          className="ml-auto"
        />
      </div>
      <div className="grid gap-8 lg:grid-cols-5 lg:gap-6">
        <div className="lg:col-span-3">
          <Todo data={data} t={t} />
        </div>
        <div className="lg:col-span-2 lg:pt-10">
          <Sales days={data.last30} t={t} />
        </div>
      </div>
      <Figures data={data} t={t} />
      <RecentOrders orders={data.recent} t={t} />
    </div>
  );
}

export default withAdminQuery(Dashboard);
