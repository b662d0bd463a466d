// The orders screen (back office §2 "Gestion des commandes", §4, §8, §9; issue 13): count,
// 'Actualiser', 'Exporter (CSV)', the §8 error banners, search (debounced; on the server, in SQL),
// status filter, result count, the table — cards on a phone — with each order's fulfilment
// dropdown, payment label and withdrawal badge, the two empty states, pages of 25. 'Expédiée' and
// 'Annulée' ask first (ShipDialog, CancelDialog); the detail opens in a modal. The address keeps
// the search, filter, sort and page. The first view comes from the server (orders.astro).
import { useEffect, useRef, useState } from 'react';
import {
  ORDER_FILTERS,
  ORDER_SORTS,
  type OrderFilter,
  type OrderList,
  type OrderListQuery,
  type OrderRow,
  type OrderSort,
  type OrderStatusChange,
  type OrderStatusResult,
} from '../schemas/admin-orders.ts';
import {
  FULFILMENT_LABELS,
  FULFILMENT_STATUSES,
  canChangeFulfilment,
  isPaymentStatus,
  type FulfilmentStatus,
} from '../domain/order-status.ts';
import { formatMoney } from '../domain/money.ts';
import { adminCall, announceChange, frenchDate } from './api.ts';
import CancelDialog, { type CancelChoices } from './orders/CancelDialog.tsx';
import DetailDialog, { invoiceHref } from './orders/DetailDialog.tsx';
import ShipDialog, { type Shipment } from './orders/ShipDialog.tsx';
import { PaymentBadge, WithdrawalBadge } from './orders/badges.tsx';
import { defaultDir, searchOf } from './orders/query.ts';
import { BUTTON, Banners, translator, type Banner, type Texts } from './ui/kit.tsx';

interface Props {
  query: OrderListQuery;
  /** null when the server could not read them: the §8 error shows, 'Actualiser' tries again. */
  initial: OrderList | null;
  /** The server's error message for the first view. */
  initialError: string;
  texts: Texts;
}

const EMPTY: OrderList = { total: 0, matching: 0, page: 1, pages: 1, orders: [] };
/** A short pause while typing before the server is asked. */
const DEBOUNCE_MS = 300;

const COLUMNS: { key: string; sort?: OrderSort; className?: string }[] = [
  { key: 'col.order', sort: 'number' },
  { key: 'col.customer', sort: 'customer' },
  { key: 'col.type' },
  { key: 'col.amount', sort: 'total', className: 'text-right' },
  { key: 'col.status', sort: 'status' },
  { key: 'col.date', sort: 'date' },
  { key: 'col.actions' },
];
const SORT_COLUMN: Record<OrderSort, string> = {
  number: 'col.order',
  customer: 'col.customer',
  total: 'col.amount',
  status: 'col.status',
  date: 'col.date',
};

// The table's date on two lines (day, then time), so the columns fit a laptop's width.
const day = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short' });
const hour = new Intl.DateTimeFormat('fr-FR', { timeStyle: 'short' });

const SELECT = 'min-h-11 rounded border border-field bg-white px-2 text-sm';
const SMALL_BUTTON =
  'inline-flex min-h-11 items-center justify-center rounded border border-black/20 bg-white px-3 text-sm whitespace-nowrap hover:bg-black/5';

export default function Orders({ query: initialQuery, initial, initialError, texts }: Props) {
  const t = translator(texts);
  const [query, setQuery] = useState(initialQuery);
  const [search, setSearch] = useState(initialQuery.q);
  const [data, setData] = useState<OrderList>(initial ?? EMPTY);
  const [loading, setLoading] = useState(false);
  const [loadFailed, setLoadFailed] = useState(initial === null);
  // A load error goes with the next good load; a change's result stays until the next change.
  const [banner, setBanner] = useState<(Banner & { from: 'load' | 'change' }) | null>(
    initial
      ? null
      : { tone: 'error', text: t('loadError', { message: initialError }), from: 'load' },
  );
  const [pending, setPending] = useState<string | null>(null);
  const [detail, setDetail] = useState<OrderRow | null>(null);
  const [shipping, setShipping] = useState<OrderRow | null>(null);
  const [cancelling, setCancelling] = useState<OrderRow | null>(null);
  // Typing, filtering and paging quickly send several requests: only the latest settles the list.
  const generation = useRef(0);
  const first = useRef(true);

  async function load(next: OrderListQuery = query): Promise<void> {
    const ticket = ++generation.current;
    setLoading(true);
    const result = await adminCall<OrderList>('GET', `/api/admin/orders${searchOf(next)}`);
    if (ticket !== generation.current) return;
    setLoading(false);
    if (result.ok) {
      setData(result.data);
      setLoadFailed(false);
      setBanner((b) => (b?.from === 'load' ? null : b));
      // A page past the end (orders gone meanwhile) is shown as the last page.
      if (result.data.page !== next.page) setQuery((q) => ({ ...q, page: result.data.page }));
      return;
    }
    // §8: the message, and the list emptied.
    setData(EMPTY);
    setLoadFailed(true);
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

  const sortBy = (sort: OrderSort) =>
    setQuery((q) => ({
      ...q,
      sort,
      dir: q.sort === sort ? (q.dir === 'asc' ? 'desc' : 'asc') : defaultDir(sort),
      page: 1,
    }));

  async function change(row: OrderRow, body: OrderStatusChange) {
    setPending(row.id);
    setBanner(null);
    const result = await adminCall<OrderStatusResult>('PATCH', `/api/admin/orders/${row.id}`, body);
    setPending(null);
    setShipping(null);
    setCancelling(null);
    if (result.ok) {
      const r = result.data;
      const parts = [
        t('updated', { number: row.number, status: FULFILMENT_LABELS[body.status] }),
        r.mail === 'sent' ? t('mailSent') : r.mail === 'failed' ? t('mailFailed') : '',
        body.status === 'cancelled'
          ? [
              r.refundedCents !== null
                ? t('refunded', { amount: formatMoney(r.refundedCents, row.currency) })
                : row.payment === 'paid'
                  ? t('notRefunded')
                  : '',
              r.restocked ? t('restocked') : t('notRestocked'),
            ].join(' ')
          : '',
      ];
      setBanner({
        tone: r.mail === 'failed' ? 'error' : 'success',
        text: parts.filter(Boolean).join(' '),
        from: 'change',
      });
      // Works back on sale are published: the shell shows it.
      if (r.restocked || r.refundedCents !== null) announceChange();
    } else {
      setBanner({
        tone: 'error',
        text: t('updateError', { message: result.error.message }),
        from: 'change',
      });
    }
    await load();
  }

  function choose(row: OrderRow, status: FulfilmentStatus) {
    if (status === 'shipped') setShipping(row);
    else if (status === 'cancelled') setCancelling(row);
    else void change(row, { status });
  }

  const filtered = Boolean(query.q.trim()) || query.status !== 'all';
  const exportHref = `/api/admin/orders/export${searchOf(query, { paged: false })}`;

  // Render helpers, not components: a component declared here would be a new type each render,
  // and React would rebuild the dropdown under the owner's focus.
  function statusControl(row: OrderRow, place: 'table' | 'card') {
    const state = {
      fulfilment: row.fulfilment,
      payment: isPaymentStatus(row.payment) ? row.payment : ('failed' as const),
    };
    const open = FULFILMENT_STATUSES.some((s) => canChangeFulfilment(state, s));
    return (
      <div className="flex flex-wrap items-center gap-2">
        {open ? (
          <select
            id={`status-${place}-${row.id}`}
            aria-label={t('statusOf', { number: row.number })}
            value={row.fulfilment}
            disabled={pending === row.id}
            onChange={(e) => choose(row, e.target.value as FulfilmentStatus)}
            className={`${SELECT} disabled:opacity-60`}
          >
            {FULFILMENT_STATUSES.map((s) => (
              <option
                key={s}
                value={s}
                disabled={s !== row.fulfilment && !canChangeFulfilment(state, s)}
              >
                {FULFILMENT_LABELS[s]}
              </option>
            ))}
          </select>
        ) : (
          <span className="text-sm font-medium">{FULFILMENT_LABELS[row.fulfilment]}</span>
        )}
        <PaymentBadge payment={row.payment} />
        {pending === row.id && (
          <span className="text-xs text-black/70" role="status">
            {t('saving')}
          </span>
        )}
      </div>
    );
  }

  function actions(row: OrderRow, place: 'table' | 'card') {
    return (
      <div
        className={place === 'table' ? 'flex flex-col items-stretch gap-2' : 'flex flex-wrap gap-2'}
      >
        <button
          type="button"
          id={`details-${place}-${row.id}`}
          aria-label={t('detailsOf', { number: row.number })}
          onClick={() => setDetail(row)}
          className={SMALL_BUTTON}
        >
          {t('details')}
        </button>
        {row.hasInvoice && (
          <a
            href={invoiceHref(row.id)}
            download
            aria-label={t('invoiceOf', { number: row.number })}
            className={SMALL_BUTTON}
          >
            {t('invoice')}
          </a>
        )}
      </div>
    );
  }

  return (
    <div className="space-y-5" aria-busy={loading || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-black/75">
          {t(data.total === 1 ? 'countOne' : 'count', { count: data.total })}
        </p>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={BUTTON} disabled={loading} onClick={() => void load()}>
            {loading ? t('refreshing') : t('refresh')}
          </button>
          <a href={exportHref} download className={BUTTON}>
            {t('export')}
          </a>
        </div>
      </div>

      <Banners banner={banner} />

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
        {/* Side by side, each label above its list on a phone; on one line with the search from a
            tablet on. */}
        <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap">
          <label className="flex flex-col gap-1 text-sm sm:flex-row sm:items-center sm:gap-2">
            {t('statusFilter')}
            <select
              value={query.status}
              onChange={(e) =>
                setQuery((q) => ({ ...q, status: e.target.value as OrderFilter, page: 1 }))
              }
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
          {/* On a phone the cards have no headers to click: the order is chosen here. */}
          <label className="flex flex-col gap-1 text-sm sm:flex-row sm:items-center sm:gap-2 lg:hidden">
            {t('sort')}
            <select
              value={`${query.sort}:${query.dir}`}
              onChange={(e) => {
                const [sort, dir] = e.target.value.split(':') as [OrderSort, 'asc' | 'desc'];
                setQuery((q) => ({ ...q, sort, dir, page: 1 }));
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
      <p className="text-sm text-black/70" aria-live="polite">
        {t('results', { count: data.matching })}
      </p>

      {data.orders.length === 0 ? (
        !loadFailed && (
          <div className="rounded-lg border border-black/10 bg-white p-8 text-center">
            <p className="font-serif text-xl">{t('empty')}</p>
            <p className="mt-2 text-black/70">
              {filtered || data.total > 0 ? t('emptyFiltered') : t('emptyNone')}
            </p>
          </div>
        )
      ) : (
        <>
          {/* From a laptop on: the §2 table. */}
          <div className="hidden overflow-x-auto rounded-lg border border-black/10 bg-white lg:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('title')}</caption>
              <thead className="border-b border-black/10 bg-black/[0.03]">
                <tr>
                  {COLUMNS.map((column) => {
                    const active = column.sort !== undefined && query.sort === column.sort;
                    return (
                      <th
                        key={column.key}
                        scope="col"
                        aria-sort={
                          active ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined
                        }
                        className={`px-3 py-1 font-medium ${column.className ?? ''}`}
                      >
                        {column.sort ? (
                          <button
                            type="button"
                            onClick={() => sortBy(column.sort!)}
                            className="-mx-2 inline-flex min-h-11 items-center gap-1 rounded px-2 hover:bg-black/5"
                          >
                            {t(column.key)}
                            <span aria-hidden="true" className={active ? '' : 'text-black/40'}>
                              {active ? (query.dir === 'asc' ? '▲' : '▼') : '↕'}
                            </span>
                          </button>
                        ) : (
                          t(column.key)
                        )}
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {data.orders.map((row) => (
                  <tr
                    key={row.id}
                    data-order={row.number}
                    className="border-b border-black/5 align-top last:border-0"
                  >
                    <td className="px-3 py-3">
                      <span className="font-mono text-xs">{row.number}</span>
                      {row.withdrawalRequestedAt && (
                        <span className="mt-1 block">
                          <WithdrawalBadge text={t('withdrawal')} />
                        </span>
                      )}
                      {row.withdrawalPendingAt && (
                        <span className="mt-1 block">
                          <WithdrawalBadge pending text={t('withdrawalPending')} />
                        </span>
                      )}
                    </td>
                    <td className="max-w-[14rem] px-3 py-3">
                      <span className="block truncate font-medium" title={row.customerName}>
                        {row.customerName}
                      </span>
                      <span
                        className="block truncate text-xs text-black/70"
                        title={row.customerEmail}
                      >
                        {row.customerEmail}
                      </span>
                    </td>
                    <td className="px-3 py-3 text-xs whitespace-nowrap text-black/80">
                      {row.type}
                    </td>
                    <td className="px-3 py-3 text-right whitespace-nowrap tabular-nums">
                      {formatMoney(row.totalCents, row.currency)}
                    </td>
                    <td className="px-3 py-2">{statusControl(row, 'table')}</td>
                    <td className="px-3 py-3 whitespace-nowrap">
                      <time dateTime={row.date}>
                        {day.format(new Date(row.date))}
                        <span className="block text-xs text-black/70">
                          {hour.format(new Date(row.date))}
                        </span>
                      </time>
                    </td>
                    <td className="px-3 py-2">{actions(row, 'table')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          {/* On a phone and a tablet: one card per order, everything readable without scrolling
              sideways. */}
          <ul className="space-y-3 lg:hidden">
            {data.orders.map((row) => (
              <li
                key={row.id}
                data-order={row.number}
                className="space-y-3 rounded-lg border border-black/10 bg-white p-4"
              >
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                  <span className="font-mono text-sm">{row.number}</span>
                  <span className="font-medium tabular-nums">
                    {formatMoney(row.totalCents, row.currency)}
                  </span>
                </div>
                <div>
                  <p className="font-medium break-words">{row.customerName}</p>
                  <p className="text-sm break-all text-black/70">{row.customerEmail}</p>
                  <p className="mt-1 text-xs text-black/70">
                    {frenchDate(row.date)} · {row.type}
                  </p>
                </div>
                {row.withdrawalRequestedAt && <WithdrawalBadge text={t('withdrawal')} />}
                {row.withdrawalPendingAt && (
                  <WithdrawalBadge pending text={t('withdrawalPending')} />
                )}
                {statusControl(row, 'card')}
                {actions(row, 'card')}
              </li>
            ))}
          </ul>
        </>
      )}

      {data.pages > 1 && (
        <nav aria-label={t('pagination')} className="flex items-center justify-center gap-3">
          <button
            type="button"
            className={BUTTON}
            disabled={query.page <= 1 || loading}
            onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))}
          >
            {t('previous')}
          </button>
          <p className="text-sm" aria-live="polite">
            {t('page', { page: data.page, pages: data.pages })}
          </p>
          <button
            type="button"
            className={BUTTON}
            disabled={query.page >= data.pages || loading}
            onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))}
          >
            {t('next')}
          </button>
        </nav>
      )}

      {detail && (
        <DetailDialog id={detail.id} number={detail.number} t={t} onClose={() => setDetail(null)} />
      )}
      {shipping && (
        <ShipDialog
          order={shipping}
          t={t}
          onConfirm={(shipment: Shipment) =>
            void change(shipping, {
              status: 'shipped',
              ...(shipment.carrier ? { carrier: shipment.carrier } : {}),
              ...(shipment.trackingNumber ? { trackingNumber: shipment.trackingNumber } : {}),
            })
          }
          onCancel={() => setShipping(null)}
        />
      )}
      {cancelling && (
        <CancelDialog
          order={cancelling}
          t={t}
          busy={pending === cancelling.id}
          onConfirm={(choices: CancelChoices) =>
            void change(cancelling, { status: 'cancelled', ...choices })
          }
          onClose={() => {
            if (pending !== cancelling.id) setCancelling(null);
          }}
        />
      )}
    </div>
  );
}
