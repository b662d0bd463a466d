// 'Expédiée' asks for the optional carrier and tracking number (issue 13 point 2) in the shared
// confirmation dialog, and says who gets the mail and in which language.
import { useRef, useState } from 'react';
import { CARRIERS } from '../../domain/carriers.ts';
import { CARRIER_MAX, TRACKING_MAX, type OrderRow } from '../../schemas/admin-orders.ts';
import ConfirmDialog from '../ui/ConfirmDialog.tsx';
import { INPUT, type Translate } from '../ui/kit.tsx';

export interface Shipment {
  carrier: string;
  trackingNumber: string;
}

interface Props {
  order: OrderRow;
  t: Translate;
  onConfirm: (shipment: Shipment) => void;
  onCancel: () => void;
}

export default function ShipDialog({ order, t, onConfirm, onCancel }: Props) {
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  // The dropdown that opened the dialog gets the focus back.
  const opener = useRef(
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  return (
    <ConfirmDialog
      id="order-ship"
      title={t('ship.title', { number: order.number })}
      confirmLabel={t('ship.confirm')}
      cancelLabel={t('back')}
      onConfirm={() =>
        onConfirm({ carrier: carrier.trim(), trackingNumber: trackingNumber.trim() })
      }
      onCancel={onCancel}
      returnFocus={opener}
    >
      <p>{t('ship.text', { customer: order.customerName, language: t(`lang.${order.locale}`) })}</p>
      <div>
        <label htmlFor="ship-carrier" className="font-medium">
          {t('ship.carrier')}
        </label>
        <input
          id="ship-carrier"
          value={carrier}
          maxLength={CARRIER_MAX}
          autoComplete="off"
          aria-describedby="ship-carrier-hint"
          list="ship-carriers"
          onChange={(e) => setCarrier(e.target.value)}
          className={INPUT}
        />
        {/* Issue 26: the carriers whose tracking page the buyer's mail links. */}
        <datalist id="ship-carriers">
          {CARRIERS.map((c) => (
            <option key={c.name} value={c.name} />
          ))}
        </datalist>
        <p id="ship-carrier-hint" className="mt-1 text-sm text-black/70">
          {t('ship.carrierHint')}
        </p>
      </div>
      <div>
        <label htmlFor="ship-tracking" className="font-medium">
          {t('ship.tracking')}
        </label>
        <input
          id="ship-tracking"
          value={trackingNumber}
          maxLength={TRACKING_MAX}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setTrackingNumber(e.target.value)}
          className={`${INPUT} font-mono`}
        />
      </div>
    </ConfirmDialog>
  );
}
