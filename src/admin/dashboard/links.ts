// Where each dashboard line leads (issue 27 §4): the screens filtered to what the line counts, so
// a click shows exactly those orders or messages.
import type { Dashboard } from '../../schemas/dashboard.ts';

/**
 * The orders to ship in the orders list: paid orders are 'confirmed' by the webhook; one put back
 * to 'pending' by hand is still to ship, so when both exist the list shows the paid orders with
 * the pending and confirmed ones first.
 */
export function toShipHref(data: Pick<Dashboard, 'awaitingShipment' | 'awaitingPending'>): string {
  if (data.awaitingPending === 0) return '/admin/orders?status=confirmed';
  if (data.awaitingPending === data.awaitingShipment) return '/admin/orders?status=pending';
  return '/admin/orders?status=paid&sort=status&dir=asc';
}

/** One order in the orders list: searched by its number, which only it carries. */
export const orderHref = (number: string): string =>
  `/admin/orders?q=${encodeURIComponent(number)}`;

export const messagesHref = (unread: number): string =>
  unread > 0 ? '/admin/messages?filter=unread' : '/admin/messages';
