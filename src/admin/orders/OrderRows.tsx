// The list's orders (back office §2): the §2 table from a laptop on — sortable headers — and one
// card per order on a phone or tablet, readable without scrolling sideways. Dates in Paris time
// (./ui/format.ts), amounts in French.
import type { OrderRow, OrderSort, OrderListQuery } from '../../schemas/admin-orders.ts';
import type { FulfilmentStatus } from '../../domain/order-status.ts';
import { formatMoney } from '../../domain/money.ts';
import { frenchDate, frenchDay, frenchHour } from '../ui/format.ts';
import type { Translate } from '../ui/kit.tsx';
import { BodyRow, Card, CardTop, SortHeader, TableHead } from '../ui/table.tsx';
import { WithdrawalBadge } from './badges.tsx';
import { invoiceHref } from './links.ts';
import StatusControl from './StatusControl.tsx';

const COLUMNS: { key: string; sort?: OrderSort; className?: string }[] = [
  { key: 'col.order', sort: 'number' },
  { key: 'col.customer', sort: 'customer' },
  { key: 'col.type' },
  { key: 'col.amount', sort: 'total', className: 'text-right' },
  { key: 'col.status', sort: 'status' },
  { key: 'col.date', sort: 'date' },
  { key: 'col.actions' },
];

const SMALL_BUTTON =
  'inline-flex min-h-11 items-center justify-center rounded border border-black/20 bg-white px-3 text-sm whitespace-nowrap hover:bg-black/5';

export interface RowsProps {
  orders: OrderRow[];
  query: OrderListQuery;
  pending: string | null;
  t: Translate;
  onSort: (sort: OrderSort) => void;
  onChoose: (row: OrderRow, status: FulfilmentStatus) => void;
  onDetail: (row: OrderRow) => void;
}

function Badges({ row, t }: { row: OrderRow; t: Translate }) {
  return (
    <>
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
    </>
  );
}

function Actions({
  row,
  place,
  t,
  onDetail,
}: { row: OrderRow; place: 'table' | 'card' } & Pick<RowsProps, 't' | 'onDetail'>) {
  return (
    <div
      className={place === 'table' ? 'flex flex-col items-stretch gap-2' : 'flex flex-wrap gap-2'}
    >
      <button
        type="button"
        id={`details-${place}-${row.id}`}
        aria-label={t('detailsOf', { number: row.number })}
        onClick={() => onDetail(row)}
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

function Header({ query, t, onSort }: Pick<RowsProps, 'query' | 't' | 'onSort'>) {
  return (
    <TableHead>
      {COLUMNS.map(({ key, sort, className }) =>
        sort ? (
          <SortHeader
            key={key}
            label={t(key)}
            active={query.sort === sort}
            dir={query.dir}
            onSort={() => onSort(sort)}
            className={className}
          />
        ) : (
          <th key={key} scope="col" className="px-3 py-1 font-medium">
            {t(key)}
          </th>
        ),
      )}
    </TableHead>
  );
}

/** A row's status menu and its buttons ('Détails', 'Facture'), in a table cell or on its card. */
function controls(props: RowsProps, row: OrderRow, place: 'table' | 'card') {
  const { pending, t } = props;
  return {
    status: (
      <StatusControl
        row={row}
        place={place}
        pending={pending === row.id}
        t={t}
        onChoose={props.onChoose}
      />
    ),
    actions: <Actions row={row} place={place} t={t} onDetail={props.onDetail} />,
  };
}

export function OrdersTable(props: RowsProps) {
  const { orders, t } = props;
  return (
    <div className="hidden overflow-x-auto rounded-lg border border-black/10 bg-white lg:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t('title')}</caption>
        <Header query={props.query} t={t} onSort={props.onSort} />
        <tbody>
          {orders.map((row) => {
            const { status, actions } = controls(props, row, 'table');
            return (
              <BodyRow key={row.id} data-order={row.number} className="align-top">
                <td className="px-3 py-3">
                  <span className="font-mono text-xs whitespace-nowrap">{row.number}</span>
                  <Badges row={row} t={t} />
                </td>
                <td className="max-w-[14rem] px-3 py-3">
                  <span className="block truncate font-medium" title={row.customerName}>
                    {row.customerName}
                  </span>
                  <span className="block truncate text-xs text-black/70" title={row.customerEmail}>
                    {row.customerEmail}
                  </span>
                </td>
                <td className="px-3 py-3 text-xs whitespace-nowrap text-black/80">{row.type}</td>
                <td className="px-3 py-3 text-right whitespace-nowrap tabular-nums">
                  {formatMoney(row.totalCents, row.currency)}
                </td>
                <td className="px-3 py-2">{status}</td>
                <td className="px-3 py-3 whitespace-nowrap">
                  <time dateTime={row.date}>
                    {frenchDay(row.date)}
                    <span className="block text-xs text-black/70">{frenchHour(row.date)}</span>
                  </time>
                </td>
                <td className="px-3 py-2">{actions}</td>
              </BodyRow>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function OrderCards(props: RowsProps) {
  const { orders, t } = props;
  return (
    <ul className="space-y-3 lg:hidden">
      {orders.map((row) => {
        const { status, actions } = controls(props, row, 'card');
        return (
          <Card key={row.id} data-order={row.number} className="space-y-3 p-4">
            <CardTop code={row.number} amount={formatMoney(row.totalCents, row.currency)} />
            <div>
              <p className="font-medium break-words">{row.customerName}</p>
              <p className="text-sm break-all text-black/70">{row.customerEmail}</p>
              <p className="mt-1 text-xs text-black/70">
                <time dateTime={row.date}>{frenchDate(row.date)}</time> · {row.type}
              </p>
            </div>
            <Badges row={row} t={t} />
            {status}
            {actions}
          </Card>
        );
      })}
    </ul>
  );
}
