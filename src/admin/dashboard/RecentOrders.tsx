// The five latest paid orders (back office §2 "Dashboard"), each opening the order in the orders
// screen: a table from 768 px, a list of cards on a phone (no sideways scroll, issue 27 §5).
import type { DashboardOrder } from '../../schemas/dashboard.ts';
import { formatMoney } from '../../domain/money.ts';
import { frenchDate } from '../ui/format.ts';
import type { Translate } from '../ui/kit.tsx';
import { BodyRow, TableHead } from '../ui/table.tsx';
import { orderHref } from './links.ts';

const COLUMNS = ['col.order', 'col.customer', 'col.amount', 'col.status', 'col.date'] as const;

function Table({ orders, t }: { orders: DashboardOrder[]; t: Translate }) {
  return (
    <table className="hidden w-full text-left text-sm md:table">
      <TableHead>
        {COLUMNS.map((k) => (
          <th
            key={k}
            scope="col"
            className={`px-4 py-2 font-medium ${k === 'col.amount' ? 'text-right' : ''}`}
          >
            {t(k)}
          </th>
        ))}
      </TableHead>
      <tbody>
        {orders.map((order) => (
          <BodyRow key={order.id} data-order={order.number}>
            <td className="px-4 py-0">
              <a
                href={orderHref(order.number)}
                className="inline-flex min-h-11 items-center font-mono text-xs whitespace-nowrap underline underline-offset-4"
              >
                {order.number}
              </a>
            </td>
            <td className="px-4 py-2">{order.customer}</td>
            <td className="px-4 py-2 text-right tabular-nums">
              {formatMoney(order.totalCents, order.currency)}
            </td>
            <td className="px-4 py-2">{order.statusLabel}</td>
            <td className="px-4 py-2">
              <time dateTime={order.date}>{frenchDate(order.date)}</time>
            </td>
          </BodyRow>
        ))}
      </tbody>
    </table>
  );
}

function Cards({ orders }: { orders: DashboardOrder[] }) {
  return (
    <ul className="divide-y divide-black/10 md:hidden">
      {orders.map((order) => (
        <li key={order.id} data-order={order.number}>
          <a href={orderHref(order.number)} className="block px-4 py-3 hover:bg-black/[0.04]">
            <span className="flex items-baseline justify-between gap-3">
              <span className="font-mono text-xs underline underline-offset-4">{order.number}</span>
              <span className="tabular-nums">{formatMoney(order.totalCents, order.currency)}</span>
            </span>
            <span className="mt-1 block truncate text-sm">{order.customer}</span>
            <span className="block text-sm text-black/70">
              {order.statusLabel} · <time dateTime={order.date}>{frenchDate(order.date)}</time>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

export function RecentOrders({ orders, t }: { orders: DashboardOrder[]; t: Translate }) {
  return (
    <section aria-labelledby="recent-orders">
      <div className="flex items-center justify-between gap-3">
        <h2 id="recent-orders" className="font-serif text-xl">
          {t('recent')}
        </h2>
        <a
          href="/admin/orders"
          className="inline-flex min-h-11 items-center text-sm underline underline-offset-4"
        >
          {t('recent.all')}
        </a>
      </div>
      {orders.length === 0 ? (
        <p className="mt-3 text-black/70">{t('none')}</p>
      ) : (
        <div className="mt-3 overflow-hidden rounded-lg border border-black/10 bg-white">
          <Table orders={orders} t={t} />
          <Cards orders={orders} />
        </div>
      )}
    </section>
  );
}
