// The customers themselves (back office §2): from a laptop on, the table with its six sortable
// columns; on a phone and a tablet, one card per customer, nothing to scroll sideways. The orders
// count is the sales; refunded or cancelled paid orders are named beside it (issue 27 §6), so a
// 'Dernière commande' never stands next to an unexplained 0.
import { formatMoney } from '../../domain/money.ts';
import { CUSTOMER_SORTS, type CustomerRow, type CustomerSort } from '../../schemas/admin-orders.ts';
import type { CustomerListQuery, CustomerListView } from '../../schemas/admin-customers.ts';
import { frenchDate } from '../ui/format.ts';
import type { Translate } from '../ui/kit.tsx';
import { BodyRow, Card, CardFacts, SortHeader, TableHead } from '../ui/table.tsx';
import { sortedBy } from './query.ts';

export const COLUMN: Record<CustomerSort, { key: string; numeric?: boolean }> = {
  name: { key: 'col.name' },
  registered: { key: 'col.registered' },
  lastSignIn: { key: 'col.lastSignIn' },
  orders: { key: 'col.orders', numeric: true },
  spent: { key: 'col.spent', numeric: true },
  lastOrder: { key: 'col.lastOrder' },
};

/** '(1 remboursée, 2 annulées)', or '' when every paid order is a sale. */
export function uncountedText(
  t: Translate,
  row: Pick<CustomerRow, 'refunded' | 'cancelled'>,
): string {
  const parts = [
    row.refunded > 0 &&
      t(row.refunded === 1 ? 'refunded.one' : 'refunded.other', { count: row.refunded }),
    row.cancelled > 0 &&
      t(row.cancelled === 1 ? 'cancelled.one' : 'cancelled.other', { count: row.cancelled }),
  ].filter(Boolean);
  return parts.length ? `(${parts.join(', ')})` : '';
}

interface ListProps {
  t: Translate;
  list: CustomerListView;
  onOpen: (email: string) => void;
}

const rowId = (row: CustomerRow, place: string) =>
  `customer-${place}-${row.email.toLowerCase().replace(/[^a-z0-9]/g, '-')}`;

/** The customer's name and address: the button that opens 'Détails du client'. */
function NameButton({
  t,
  row,
  place,
  onOpen,
}: Omit<ListProps, 'list'> & {
  row: CustomerRow;
  place: 'table' | 'card';
}) {
  return (
    <button
      type="button"
      id={rowId(row, place)}
      onClick={() => onOpen(row.email)}
      className="-mx-1 block max-w-full min-w-0 rounded px-1 py-1 text-left hover:bg-black/5"
    >
      {/* Wrapped rather than cut: the owner reads a name or an address in full (never '…'). */}
      <span
        className={`block font-medium wrap-anywhere underline decoration-black/30 underline-offset-4 ${
          row.name ? '' : 'text-black/70 italic'
        }`}
      >
        {row.name ?? t('noName')}
      </span>
      <span className="block text-xs wrap-anywhere text-black/70">{row.email}</span>
      {/* The name says what the button opens; the visible text stays the start of it. */}
      <span className="sr-only"> {t('detailsOf')}</span>
    </button>
  );
}

/**
 * 'Inscrit le': the date; for a buyer who never made an account, 'Sans compte' — said once, as a
 * badge, where 'Inscrit le : Jamais' would read as an account that was never opened.
 */
export function Registered({
  t,
  row,
}: {
  t: Translate;
  row: Pick<CustomerRow, 'registeredAt' | 'hasAccount'>;
}) {
  if (row.registeredAt) return <>{frenchDate(row.registeredAt)}</>;
  if (row.hasAccount) return <span className="text-black/70">{t('never')}</span>;
  return (
    <span className="inline-block rounded border border-black/20 bg-black/[0.03] px-2 py-0.5 text-xs whitespace-nowrap text-black/80">
      {t('guest')}
    </span>
  );
}

export function CustomerTable({
  t,
  list,
  query,
  onSort,
  onOpen,
}: ListProps & {
  query: CustomerListQuery;
  onSort: (query: CustomerListQuery) => void;
}) {
  const never = t('never');
  const date = (iso: string | null) => (iso ? frenchDate(iso) : never);
  return (
    <div className="hidden rounded-lg border border-black/10 bg-white lg:block">
      <table className="w-full table-fixed text-left text-sm">
        <caption className="sr-only">
          {t('caption', { page: list.page, pages: list.pages })}
        </caption>
        <colgroup>
          <col className="w-[23%]" />
          <col className="w-[16%]" />
          <col className="w-[17%]" />
          <col className="w-[11%]" />
          <col className="w-[14%]" />
          <col className="w-[19%]" />
        </colgroup>
        <TableHead>
          {CUSTOMER_SORTS.map((sort) => (
            <SortHeader
              key={sort}
              label={t(COLUMN[sort].key)}
              active={query.sort === sort}
              dir={query.dir}
              onSort={() => onSort(sortedBy(query, sort))}
              className={COLUMN[sort].numeric ? 'text-right' : ''}
            />
          ))}
        </TableHead>
        <tbody>
          {list.customers.map((row) => (
            <BodyRow key={row.email} data-customer={row.email} className="align-middle">
              <td className="px-3 py-2">
                <NameButton t={t} row={row} place="table" onOpen={onOpen} />
              </td>
              <td className="px-3 py-2 xl:whitespace-nowrap">
                <Registered t={t} row={row} />
              </td>
              <td
                className={`px-3 py-2 xl:whitespace-nowrap ${row.lastSignInAt ? '' : 'text-black/70'}`}
              >
                {date(row.lastSignInAt)}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                {row.orders}
                {uncountedText(t, row) && (
                  <span className="block text-xs text-black/70"> {uncountedText(t, row)}</span>
                )}
              </td>
              <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                {formatMoney(row.spentCents, list.currency)}
              </td>
              <td
                className={`px-3 py-2 xl:whitespace-nowrap ${row.lastOrderAt ? '' : 'text-black/70'}`}
              >
                {date(row.lastOrderAt)}
              </td>
            </BodyRow>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CustomerCards({ t, list, onOpen }: ListProps) {
  const never = t('never');
  const date = (iso: string | null) => (iso ? frenchDate(iso) : never);
  return (
    <ul className="space-y-3 lg:hidden">
      {list.customers.map((row) => (
        <Card key={row.email} data-customer={row.email} className="space-y-2 p-4">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0 flex-1">
              <NameButton t={t} row={row} place="card" onOpen={onOpen} />
            </div>
            <div className="shrink-0 text-right">
              <p className="font-medium tabular-nums">
                {formatMoney(row.spentCents, list.currency)}
              </p>
              <p className="text-xs text-black/70">
                {t('col.orders')} : {`${row.orders} ${uncountedText(t, row)}`.trim()}
              </p>
            </div>
          </div>
          <CardFacts
            facts={[
              [t('col.registered'), <Registered key="registered" t={t} row={row} />],
              [t('col.lastSignIn'), date(row.lastSignInAt)],
              [t('col.lastOrder'), date(row.lastOrderAt)],
            ]}
          />
        </Card>
      ))}
    </ul>
  );
}
