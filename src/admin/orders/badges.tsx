// The read-only labels of an order row (back office §4): its payment ('Payée'; an unknown value
// raw, in grey) and the withdrawal request (issue 13 point 9), as text a screen reader reads too.
import { paymentLabel } from '../../domain/order-status.ts';

const PILL = 'inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium';

export function PaymentBadge({ payment }: { payment: string }) {
  const { text, known } = paymentLabel(payment);
  const tone = !known
    ? 'border-black/20 bg-black/5 text-black/70'
    : payment === 'paid'
      ? 'border-green-800/30 bg-green-50 text-green-900'
      : 'border-amber-800/30 bg-amber-50 text-amber-950';
  return (
    <span className={`${PILL} ${tone}`} data-payment={payment}>
      {text}
    </span>
  );
}

/** 'Rétractation demandée' (red), or a statement still awaiting the buyer's confirmation (amber). */
export function WithdrawalBadge({ text, pending = false }: { text: string; pending?: boolean }) {
  const tone = pending
    ? 'border-amber-800/40 bg-amber-50 text-amber-950'
    : 'border-red-800/40 bg-red-50 text-red-900';
  return <span className={`${PILL} ${tone}`}>{text}</span>;
}

/** 'cs_test_a1B2c3D4e5F6…' → its first 12 characters and an ellipsis (back office §9). */
export function shortSession(id: string): string {
  return id.length > 12 ? `${id.slice(0, 12)}…` : id;
}
