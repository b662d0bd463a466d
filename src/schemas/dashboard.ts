// What the dashboard endpoint answers and the dashboard screen shows (back office §2).
import type { FulfilmentStatus } from '../domain/order-status.ts';

export interface DashboardOrder {
  number: string;
  customer: string;
  totalCents: number;
  currency: string;
  status: FulfilmentStatus;
  statusLabel: string;
  /** When it was paid (ISO 8601). */
  date: string;
}

export interface Dashboard {
  /** Paid orders' totals; a refunded order is no longer paid. */
  revenueCents: number;
  paidOrders: number;
  worksOnline: number;
  /** Paid orders still pending or confirmed. */
  awaitingShipment: number;
  /** Contact messages and enquiries the owner has not opened (issue 25). */
  unreadMessages: number;
  recent: DashboardOrder[];
  /**
   * Issue 26: the parts of the seller's legal identity still empty (their French labels, in the
   * settings' order); empty once invoices and mails can name the seller in full.
   */
  legalMissing: string[];
}
