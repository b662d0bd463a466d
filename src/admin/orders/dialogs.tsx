// The orders screen's dialogs and the changes they make (issue 27): the detail, and the ship,
// cancel and refund forms opened from the list's quick status change or from the detail's
// buttons. A result goes to the banner of where the action started (the list, or the detail);
// a dialog's form shows its own refusal, the list's quick change the §8 banner.
import { lazy, Suspense, useState } from 'react';
import type { OrderRow, OrderStatusChange } from '../../schemas/admin-orders.ts';
import type { FulfilmentStatus } from '../../domain/order-status.ts';
import type { Banner, Translate } from '../ui/kit.tsx';
import { useStatusChange } from './changes.ts';

// Each dialog (with the form library and the kernel's schemas its forms use) loads when it first
// opens: the list is what the screen shows first, within the back office's script budget
// (bench/admin.ts). One boundary per dialog, so one loading never hides another already open.
const CancelDialog = lazy(() => import('./CancelDialog.tsx'));
const DetailDialog = lazy(() => import('./DetailDialog.tsx'));
const RefundDialog = lazy(() => import('./RefundDialog.tsx'));
const ShipDialog = lazy(() => import('./ShipDialog.tsx'));

export type OrderAction = 'ship' | 'cancel' | 'refund';
type From = 'list' | 'detail';
type Opened = { kind: OrderAction; row: OrderRow; from: From };

export function useOrderDialogs(t: Translate) {
  const [banner, setBanner] = useState<Banner | null>(null);
  const [detailBanner, setDetailBanner] = useState<Banner | null>(null);
  const [detail, setDetail] = useState<OrderRow | null>(null);
  const [opened, setOpened] = useState<Opened | null>(null);

  const report = (from: From, next: Banner | null) =>
    from === 'detail' ? setDetailBanner(next) : setBanner(next);
  const status = useStatusChange(
    t,
    (next) => {
      report(opened?.from ?? 'list', next);
      setOpened(null);
    },
    (next) => {
      if (!opened) setBanner(next);
    },
  );
  const change = (row: OrderRow, body: OrderStatusChange) =>
    status.mutateAsync({ row, change: body });
  const open = (kind: OrderAction, row: OrderRow, from: From) => {
    report(from, null);
    setOpened({ kind, row, from });
  };

  /** The list's quick status change: 'Expédiée' and 'Annulée' ask first. */
  function choose(row: OrderRow, to: FulfilmentStatus) {
    setBanner(null);
    if (to === 'shipped') open('ship', row, 'list');
    else if (to === 'cancelled') open('cancel', row, 'list');
    else status.mutate({ row, change: { status: to } });
  }

  const dialogs = (
    <>
      {detail && (
        <Suspense>
          <DetailDialog
            row={detail}
            t={t}
            banner={detailBanner}
            onAction={(kind, row) => open(kind, row, 'detail')}
            onClose={() => setDetail(null)}
          />
        </Suspense>
      )}
      {opened?.kind === 'ship' && (
        <Suspense>
          <ShipDialog
            order={opened.row}
            t={t}
            busy={status.isPending}
            onConfirm={(shipment) => change(opened.row, { status: 'shipped', ...shipment })}
            onClose={() => setOpened(null)}
          />
        </Suspense>
      )}
      {opened?.kind === 'cancel' && (
        <Suspense>
          <CancelDialog
            order={opened.row}
            t={t}
            busy={status.isPending}
            onConfirm={(choices) => change(opened.row, { status: 'cancelled', ...choices })}
            onClose={() => {
              if (!status.isPending) setOpened(null);
            }}
          />
        </Suspense>
      )}
      {opened?.kind === 'refund' && (
        <Suspense>
          <RefundDialog
            order={opened.row}
            t={t}
            onWhole={(restock) =>
              change(opened.row, { status: 'cancelled', refund: true, restock })
            }
            onDone={(next) => {
              report(opened.from, next);
              setOpened(null);
            }}
            onClose={() => setOpened(null)}
          />
        </Suspense>
      )}
    </>
  );

  return {
    banner,
    choose,
    dialogs,
    pending: status.isPending ? (status.variables?.row.id ?? null) : null,
    openDetail: (row: OrderRow) => {
      setDetailBanner(null);
      setDetail(row);
    },
  };
}
