// The list's quick status change (back office §2, issue 27 item 3 keeps it): the fulfilment
// dropdown with only the moves the order can take, or the status as text when none is left, the
// payment badge, and 'Enregistrement...' while the change is sent.
import type { OrderRow } from '../../schemas/admin-orders.ts';
import {
  FULFILMENT_LABELS,
  FULFILMENT_STATUSES,
  canChangeFulfilment,
  isPaymentStatus,
  type FulfilmentStatus,
} from '../../domain/order-status.ts';
import type { Translate } from '../ui/kit.tsx';
import { PaymentBadge } from './badges.tsx';

const SELECT = 'min-h-11 rounded border border-field bg-white px-2 text-sm';

/** The moves an order can take now (the same rule as the server's). */
export function openMoves(row: Pick<OrderRow, 'fulfilment' | 'payment'>) {
  const state = {
    fulfilment: row.fulfilment,
    payment: isPaymentStatus(row.payment) ? row.payment : ('failed' as const),
  };
  return FULFILMENT_STATUSES.filter((s) => s !== row.fulfilment && canChangeFulfilment(state, s));
}

interface Props {
  row: OrderRow;
  place: 'table' | 'card';
  pending: boolean;
  t: Translate;
  onChoose: (row: OrderRow, status: FulfilmentStatus) => void;
}

export default function StatusControl({ row, place, pending, t, onChoose }: Props) {
  const moves = openMoves(row);
  return (
    <div className="flex flex-wrap items-center gap-2">
      {moves.length > 0 ? (
        <select
          id={`status-${place}-${row.id}`}
          aria-label={t('statusOf', { number: row.number })}
          value={row.fulfilment}
          disabled={pending}
          onChange={(e) => onChoose(row, e.target.value as FulfilmentStatus)}
          className={`${SELECT} disabled:opacity-60`}
        >
          {FULFILMENT_STATUSES.map((s) => (
            <option key={s} value={s} disabled={s !== row.fulfilment && !moves.includes(s)}>
              {FULFILMENT_LABELS[s]}
            </option>
          ))}
        </select>
      ) : (
        <span className="text-sm font-medium">{FULFILMENT_LABELS[row.fulfilment]}</span>
      )}
      <PaymentBadge payment={row.payment} />
      {pending && (
        <span className="text-xs text-black/70" role="status">
          {t('saving')}
        </span>
      )}
    </div>
  );
}
