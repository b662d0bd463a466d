// What the dashboard endpoint answers and the dashboard screen shows (back office §2, issue 27 §4):
// the spec's four figures, the owner's to-do list, the five latest paid orders and the revenue of
// the last 30 Paris days.
import type { FulfilmentStatus } from '../domain/order-status.ts';

export interface DashboardOrder {
  id: string;
  number: string;
  customer: string;
  totalCents: number;
  currency: string;
  status: FulfilmentStatus;
  statusLabel: string;
  /** When it was paid (ISO 8601). */
  date: string;
}

/** One Paris calendar day of sales (api/orders/sales.ts's rule, read from sales_days). */
export interface DashboardDay {
  /** YYYY-MM-DD, Paris time. */
  day: string;
  revenueCents: number;
  orders: number;
}

/** A paid order whose buyer confirmed a withdrawal: the owner still has to refund it. */
export interface DashboardWithdrawal {
  id: string;
  number: string;
}

export interface Dashboard {
  /** Paid orders' totals; a refunded order is no longer paid. */
  revenueCents: number;
  paidOrders: number;
  worksOnline: number;
  /** Paid orders still pending or confirmed: the orders to ship. */
  awaitingShipment: number;
  /** Of those, the ones put back to 'pending' (a paid order is 'confirmed' by the webhook). */
  awaitingPending: number;
  /** Contact messages and enquiries the owner has not opened (issue 25). */
  unreadMessages: number;
  /** Confirmed withdrawals of orders not refunded yet, oldest statement first. */
  withdrawals: DashboardWithdrawal[];
  /**
   * Issue 26: the REQUIRED parts of the seller's legal identity still empty (their French labels,
   * in the settings' order); empty once invoices and mails can name the seller.
   */
  legalMissing: string[];
  /** Whether the signed-in administrator has a second factor (docs/decisions/037). */
  secondFactorOn: boolean;
  recent: DashboardOrder[];
  /** The last 30 Paris days, oldest first, today last; days without a sale at 0. */
  last30: DashboardDay[];
}
