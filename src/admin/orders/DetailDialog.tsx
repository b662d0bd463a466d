// The order's detail (back office §2, issues 13 and 27): where the owner acts on one order — its
// actions first (ship with a tracking number, refund all or some works, cancel, print the packing
// slip), the result of the last one, then everything about the order (./DetailSections.tsx) and
// its certificates. Read from the query cache, fresh from the server on open; a change puts the
// order as the server answered it back in the cache.
import type { OrderRow } from '../../schemas/admin-orders.ts';
import { FULFILMENT_LABELS } from '../../domain/order-status.ts';
import { errorMessage } from '../query.tsx';
import { frenchDate } from '../ui/format.ts';
import { Banners, type Banner, type Translate } from '../ui/kit.tsx';
import { OrderModal } from './form-parts.tsx';
import type { OrderAction } from './dialogs.tsx';
import { PaymentBadge, WithdrawalBadge } from './badges.tsx';
import Certificates from './Certificates.tsx';
import DetailActions from './DetailActions.tsx';
import {
  CustomerAndAddress,
  History,
  Items,
  PaymentAndDelivery,
  RefundsAndInvoices,
} from './DetailSections.tsx';
import { useOrderDetail } from './detail-query.ts';

interface Props {
  row: OrderRow;
  t: Translate;
  /** The result of the last action started from here. */
  banner: Banner | null;
  onAction: (kind: OrderAction, row: OrderRow) => void;
  onClose: () => void;
}

export default function DetailDialog({ row, t, banner, onAction, onClose }: Props) {
  const detail = useOrderDetail(row.id);
  const o = detail.data;
  return (
    <OrderModal kind="detail" number={row.number} t={t} onClose={onClose} size="wide">
      {detail.isError && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {t('detail.loadError', { message: errorMessage(detail.error) })}
        </p>
      )}
      {!o && !detail.isError && <p className="text-sm text-black/70">{t('detail.loading')}</p>}
      {o && (
        <div className="space-y-7">
          <div className="space-y-3">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">{FULFILMENT_LABELS[o.fulfilment]}</span>
              <PaymentBadge payment={o.payment} />
              {o.withdrawalRequestedAt && (
                <WithdrawalBadge
                  text={`${t('detail.withdrawalAt', { date: frenchDate(o.withdrawalRequestedAt) })}${
                    o.withdrawalConfirmedVia
                      ? ` — ${t(`detail.withdrawalVia.${o.withdrawalConfirmedVia}`)}`
                      : ''
                  }`}
                />
              )}
              {o.withdrawalPendingAt && (
                <WithdrawalBadge
                  pending
                  text={t('detail.withdrawalPendingAt', {
                    date: frenchDate(o.withdrawalPendingAt),
                  })}
                />
              )}
              <span className="text-black/70">
                · <time dateTime={o.date}>{frenchDate(o.date)}</time>
              </span>
            </div>
            <DetailActions o={o} t={t} onAction={(kind) => onAction(kind, o)} />
            <Banners banner={banner} />
          </div>
          <CustomerAndAddress o={o} t={t} />
          <Items o={o} t={t} />
          <PaymentAndDelivery o={o} t={t} />
          <RefundsAndInvoices o={o} t={t} />
          <Certificates orderId={o.id} t={t} />
          <History o={o} t={t} />
        </div>
      )}
    </OrderModal>
  );
}
