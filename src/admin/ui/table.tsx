// The back office's lists (orders, customers, a customer's history, the editions register, the
// dashboard's latest orders): a table from a laptop or tablet on, cards below. The pieces they share
// — the header row, a sortable column's header, a body row, a card and its facts (label and value
// pairs, also in the detail dialogs) — so that every list looks and reads alike.
import type { ComponentPropsWithoutRef, ReactNode } from 'react';

/** A table's header row and body row classes (also for the analytics tables' own rows). */
export const HEAD_ROW = 'border-b border-black/10 bg-black/[0.03]';
export const BODY_ROW = 'border-b border-black/5 last:border-0';

/** The header of a table: its column headers on a tinted band. */
export function TableHead({ children }: { children: ReactNode }) {
  return (
    <thead className={HEAD_ROW}>
      <tr>{children}</tr>
    </thead>
  );
}

/**
 * A column header that sorts the list: its button says the column, the arrow which way it sorts
 * (↕ while another column does), and `aria-sort` tells screen readers the same.
 */
export function SortHeader({
  label,
  active,
  dir,
  onSort,
  className = '',
}: {
  label: string;
  active: boolean;
  dir: 'asc' | 'desc';
  onSort: () => void;
  className?: string | undefined;
}) {
  return (
    <th
      scope="col"
      aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}
      className={`px-3 py-1 font-medium ${className}`}
    >
      <button
        type="button"
        onClick={onSort}
        className="-mx-2 inline-flex min-h-11 items-center gap-1 rounded px-2 text-left leading-tight hover:bg-black/5"
      >
        {label}
        <span aria-hidden="true" className={active ? '' : 'text-black/40'}>
          {active ? (dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** A row of a table's body, ruled from the next; its data-* attribute names what it shows. */
export function BodyRow({ className = '', ...props }: ComponentPropsWithoutRef<'tr'>) {
  return <tr {...props} className={`${BODY_ROW} ${className}`} />;
}

/** One item of a list shown as cards (a phone's table); the caller sets its spacing. */
export function Card({ className = '', ...props }: ComponentPropsWithoutRef<'li'>) {
  return <li {...props} className={`rounded-lg border border-black/10 bg-white ${className}`} />;
}

type Pairs = readonly (readonly [string, ReactNode])[];

/** Label and value pairs (a description list); each place sets its grid and the values' spacing. */
export function Facts({
  facts,
  className,
  valueClassName,
}: {
  facts: Pairs;
  className: string;
  valueClassName: string;
}) {
  return (
    <dl className={className}>
      {facts.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-black/70">{label}</dt>
          <dd className={valueClassName}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A card's small label and value pairs ('Inscription', 'Dernière commande'…), side by side. */
export function CardFacts({ facts }: { facts: Pairs }) {
  return (
    <Facts
      facts={facts}
      className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs"
      valueClassName="min-w-0 break-words"
    />
  );
}

/** A card's first line: what it is (an order's number, in monospace) and, at the far end, its amount. */
export function CardTop({
  code,
  amount,
  small = false,
}: {
  code: string;
  amount: string;
  /** The code in the list's small print (a dialog's cards). */
  small?: boolean;
}) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
      <span className={`font-mono ${small ? 'text-xs' : 'text-sm'}`}>{code}</span>
      <span className="font-medium tabular-nums">{amount}</span>
    </div>
  );
}
