// The orders screen's two inputs (issue 13), parsed by the endpoints: the list's query string —
// anything unknown falls back to the default view, never an error — and the status change, where
// the 'Expédiée' details and the 'Annulée' choices belong to their own status only. The shapes are
// the contract's (./admin-orders.ts). Issue 27: the detail's ship and refund forms validate with
// the same schemas in the island (react-hook-form's resolver) before the endpoint checks again.
import { z } from 'zod';
import {
  CARRIER_MAX,
  ORDER_FILTERS,
  ORDER_SORTS,
  TRACKING_MAX,
  type OrderLinesRefund,
  type OrderListQuery,
  type OrderStatusChange,
} from './admin-orders.ts';
import { FULFILMENT_STATUSES, Fulfilment } from '../domain/order-status.ts';
import { singleLine } from './text.ts';

export const orderListQuerySchema = z.object({
  q: z.string().trim().max(200).check(singleLine()).catch(''),
  status: z.enum(ORDER_FILTERS).catch('all'),
  sort: z.enum(ORDER_SORTS).catch('date'),
  dir: z.enum(['asc', 'desc']).catch('desc'),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
}) satisfies z.ZodType<OrderListQuery, unknown>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: 'admin.orders.error.tooLong' })
    .check(singleLine())
    .optional();

export const orderStatusChangeSchema = z
  .strictObject({
    status: z.enum(FULFILMENT_STATUSES, { error: 'admin.orders.error.status' }),
    carrier: optionalText(CARRIER_MAX),
    trackingNumber: optionalText(TRACKING_MAX),
    refund: z.boolean().optional(),
    restock: z.boolean().optional(),
  })
  .superRefine((change, context) => {
    for (const key of ['carrier', 'trackingNumber'] as const)
      if (change[key] !== undefined && change.status !== Fulfilment.shipped)
        context.addIssue({
          code: 'custom',
          path: [key],
          message: 'admin.orders.error.onlyShipped',
        });
    for (const key of ['refund', 'restock'] as const)
      if (change[key] !== undefined && change.status !== Fulfilment.cancelled)
        context.addIssue({
          code: 'custom',
          path: [key],
          message: 'admin.orders.error.onlyCancelled',
        });
  }) satisfies z.ZodType<OrderStatusChange, unknown>;

/** POST /api/admin/orders/:id/refund (issue 27): the lines to refund and the restock answer. */
export const orderLinesRefundSchema = z.strictObject({
  items: z
    .array(z.number().int().positive().max(2_147_483_647))
    .min(1, { error: 'admin.orders.error.chooseWorks' })
    .max(100),
  restock: z.boolean({ error: 'admin.orders.error.choose' }),
}) satisfies z.ZodType<OrderLinesRefund, unknown>;

/**
 * The detail's 'Marquer comme expédiée' form (issue 27): a carrier from the list, or none (handed
 * over, or a carrier without a tracking page); a chosen carrier needs its tracking number, so the
 * buyer's mail has a link to follow.
 */
export const shipFormSchema = z
  .object({
    carrier: z.string().trim().max(CARRIER_MAX, { error: 'admin.orders.error.tooLong' }),
    trackingNumber: z
      .string()
      .trim()
      .max(TRACKING_MAX, { error: 'admin.orders.error.tooLong' })
      .check(singleLine()),
  })
  .superRefine((form, context) => {
    if (form.carrier && !form.trackingNumber)
      context.addIssue({
        code: 'custom',
        path: ['trackingNumber'],
        message: 'admin.orders.error.trackingNeeded',
      });
  });
export type ShipForm = z.infer<typeof shipFormSchema>;

/**
 * The detail's 'Rembourser…' form (issue 27): the whole order (it is then cancelled, as 'Annulée'
 * with a refund) or some works, and whether they go back on sale — nothing chosen in advance.
 */
export const refundFormSchema = z
  .object({
    scope: z.enum(['whole', 'some'], { error: 'admin.orders.error.choose' }),
    items: z.array(z.number().int().positive()),
    restock: z.enum(['yes', 'no'], { error: 'admin.orders.error.choose' }),
  })
  .superRefine((form, context) => {
    if (form.scope === 'some' && form.items.length === 0)
      context.addIssue({
        code: 'custom',
        path: ['items'],
        message: 'admin.orders.error.chooseWorks',
      });
  });
export type RefundForm = z.infer<typeof refundFormSchema>;
