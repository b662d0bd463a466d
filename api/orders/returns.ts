// What follows when an order's works come back (issue 26): the owner cancels it (with or without a
// refund), refunds it, or the buyer withdraws. Called inside the transaction that records the
// return, so the return and its consequences are never one without the other. Each consequence
// is one line here: the edition numbers go back to the owner (api/editions, docs/decisions/045).
import type { Actor } from '../admin/audit.ts';
import type { Executor } from '../db/index.ts';
import { returnEditionCopies, type ReturnReason } from '../editions/index.ts';
import { revokeOrderCertificates } from '../certificates/lifecycle.ts';

export interface ReturnOptions {
  /** The owner put the works back on sale with the return (their numbers are free at once). */
  restock?: boolean;
  /** Only these order lines came back (a refund of some lines, issue 27); the whole order if absent. */
  itemIds?: readonly number[];
}

export async function orderReturned(
  trx: Executor,
  orderId: string,
  now: Date,
  reason: ReturnReason,
  actor?: Actor | null,
  options: ReturnOptions = {},
): Promise<void> {
  const restock = options.restock === true;
  await returnEditionCopies(trx, orderId, now, reason, restock, actor ?? null, options.itemIds);
  await revokeOrderCertificates(trx, orderId, now, reason, actor ?? null, options.itemIds);
}
