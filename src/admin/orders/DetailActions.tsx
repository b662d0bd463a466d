// The detail's actions (issue 27 item 3): what the order can take now, by the same rule as the
// server's ('Marquer comme expédiée' and 'Annuler la commande' only when the status may move
// there; 'Rembourser…' while something paid is left to give back), and the packing slip to print.
import type { OrderDetail } from '../../schemas/admin-orders.ts';
import { BUTTON, PRIMARY, type Translate } from '../ui/kit.tsx';
import type { OrderAction } from './dialogs.tsx';
import { slipHref } from './links.ts';
import { openMoves } from './StatusControl.tsx';

const DANGER =
  'inline-flex min-h-11 items-center justify-center rounded border border-red-800 bg-white px-4 text-sm text-red-900 hover:bg-red-50';

interface Props {
  o: OrderDetail;
  t: Translate;
  onAction: (kind: OrderAction) => void;
}

export default function DetailActions({ o, t, onAction }: Props) {
  const moves = openMoves(o);
  const canShip = moves.includes('shipped');
  const canCancel = moves.includes('cancelled');
  const canRefund = o.payment === 'paid' && o.fulfilment !== 'cancelled';
  return (
    <div
      role="group"
      aria-label={t('actions.title')}
      className="flex flex-wrap items-center gap-2 rounded-lg border border-black/10 bg-white p-3"
    >
      {canShip && (
        <button type="button" className={PRIMARY} onClick={() => onAction('ship')}>
          {t('actions.ship')}
        </button>
      )}
      <a href={slipHref(o.id)} target="_blank" rel="noopener" className={BUTTON}>
        {t('actions.slip')}
      </a>
      {canRefund && (
        <button type="button" className={BUTTON} onClick={() => onAction('refund')}>
          {t('actions.refund')}
        </button>
      )}
      {canCancel && (
        <button type="button" className={DANGER} onClick={() => onAction('cancel')}>
          {t('actions.cancel')}
        </button>
      )}
      {!canShip && !canRefund && !canCancel && (
        <p className="text-sm text-black/70">{t('actions.none')}</p>
      )}
    </div>
  );
}
