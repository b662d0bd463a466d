// The orders screen's two inputs (issue 13), parsed by the endpoints: the list's query string —
// anything unknown falls back to the default view, never an error — and the status change, where
// the 'Expédiée' details and the 'Annulée' choices belong to their own status only. The shapes are
// the contract's (./admin-orders.ts); zod stays out of the island, which needs only the types.
import { z } from 'zod';
import {
  CARRIER_MAX,
  ORDER_FILTERS,
  ORDER_SORTS,
  TRACKING_MAX,
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
