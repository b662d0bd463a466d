// The orders screen's changes on the query cache (issue 27): the fulfilment change (PATCH, from the
// list's dropdown or the detail's buttons) and the refund of some lines (POST …/refund). Each
// puts the order as the server answered it in the detail's cache, invalidates the lists (orders,
// dashboard, customers), tells the publish pill when works went back on sale, and words its
// result for the banner as the spec writes it (§4, §8).
import { useQueryClient } from '@tanstack/react-query';
import type {
  OrderLinesRefund,
  OrderLinesRefundResult,
  OrderRow,
  OrderStatusChange,
  OrderStatusResult,
} from '../../schemas/admin-orders.ts';
import { FULFILMENT_LABELS } from '../../domain/order-status.ts';
import { formatMoney } from '../../domain/money.ts';
import { nudgePublish } from '../publish-store.ts';
import { adminFetch, adminKeys, useAdminMutation } from '../query.tsx';
import type { Banner, Translate } from '../ui/kit.tsx';

const TOUCHED = [adminKeys.orders.all, adminKeys.dashboard.all, adminKeys.customers.all];

/** What a status change did, in one banner. */
export function statusBanner(
  t: Translate,
  row: OrderRow,
  change: OrderStatusChange,
  r: OrderStatusResult,
): Banner {
  const parts = [
    t('updated', { number: row.number, status: FULFILMENT_LABELS[change.status] }),
    r.mail === 'sent' ? t('mailSent') : r.mail === 'failed' ? t('mailFailed') : '',
    change.status === 'cancelled'
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
  return { tone: r.mail === 'failed' ? 'error' : 'success', text: parts.filter(Boolean).join(' ') };
}

export interface StatusVariables {
  row: OrderRow;
  change: OrderStatusChange;
}

/**
 * PATCH /api/admin/orders/:id; `onDone` gets the success banner, `onFailure` the §8 error one (a
 * dialog's form awaits `mutateAsync` and shows its own errors instead).
 */
export function useStatusChange(
  t: Translate,
  onDone: (banner: Banner) => void,
  onFailure: (banner: Banner) => void,
) {
  const client = useQueryClient();
  return useAdminMutation<OrderStatusResult, StatusVariables>({
    mutationFn: ({ row, change }) =>
      adminFetch<OrderStatusResult>('PATCH', `/api/admin/orders/${row.id}`, change),
    invalidates: TOUCHED,
    onSuccess: (result, { row, change }) => {
      client.setQueryData(adminKeys.orders.detail(row.id), result.order);
      if (result.restocked) nudgePublish();
      onDone(statusBanner(t, row, change, result));
    },
    onError: (error) =>
      onFailure({ tone: 'error', text: t('updateError', { message: error.message }) }),
  });
}

/** POST /api/admin/orders/:id/refund: the amount is the server's, the banner says it. */
export function useLinesRefund(t: Translate, row: OrderRow, onDone: (banner: Banner) => void) {
  const client = useQueryClient();
  return useAdminMutation<OrderLinesRefundResult, OrderLinesRefund>({
    mutationFn: (input) =>
      adminFetch<OrderLinesRefundResult>('POST', `/api/admin/orders/${row.id}/refund`, input),
    invalidates: TOUCHED,
    onSuccess: (result) => {
      client.setQueryData(adminKeys.orders.detail(row.id), result.order);
      if (result.restocked) nudgePublish();
      const done = t('refund.done', {
        number: row.number,
        amount: formatMoney(result.refundedCents, row.currency),
        creditNote: result.creditNote.number,
      });
      const mail =
        result.mail === 'sent' ? t('mailSent') : result.mail === 'failed' ? t('mailFailed') : '';
      onDone({
        tone: result.mail === 'failed' ? 'error' : 'success',
        text: [done, mail].filter(Boolean).join(' '),
      });
    },
  });
}
