// What the back office's orders and customers endpoints answer and their screens show (back office
// §2 "Order management", "Customer management"; issue 13). One order model (every order was paid
// through Stripe Checkout): its fulfilment and payment statuses come from ./order-status.ts.
// Plain types and constants: the islands import them and stay small.
import type { FulfilmentStatus, PaymentStatus } from '../domain/order-status.ts';

export const ORDERS_PAGE_SIZE = 25;
export const CUSTOMERS_PAGE_SIZE = 10;

/** §2 status filter: the five fulfilment statuses and 'Payée (Stripe)'. */
export const ORDER_FILTERS = [
  'all',
  'pending',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
  'paid',
] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

export const ORDER_SORTS = ['date', 'total', 'number', 'customer', 'status'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];

/** GET /api/admin/orders?q=&status=&sort=&dir=&page= (page from 1). */
export interface OrderListQuery {
  q: string;
  status: OrderFilter;
  sort: OrderSort;
  dir: 'asc' | 'desc';
  page: number;
}

export interface OrderRow {
  id: string;
  number: string;
  customerName: string;
  customerEmail: string;
  /** 'Carte bancaire (Stripe)'. */
  type: string;
  totalCents: number;
  currency: string;
  fulfilment: FulfilmentStatus;
  /** A PaymentStatus, or a value we do not know, shown raw (§4). */
  payment: PaymentStatus | (string & {});
  /**
   * Set once the buyer's withdrawal is confirmed ('Rétractation demandée'): the date of their
   * statement, the legal date (docs/decisions/039).
   */
  withdrawalRequestedAt: string | null;
  /** A statement sent from the form, awaiting the buyer's confirmation from their mailbox. */
  withdrawalPendingAt: string | null;
  /** How the withdrawal was confirmed: the mailed link, the buyer's account, the page before 039. */
  withdrawalConfirmedVia: 'mail' | 'account' | 'page' | null;
  /** The language the buyer ordered in: their mails (the shipping one) speak it. */
  locale: 'fr' | 'en';
  /** When it was paid, else created (ISO 8601). */
  date: string;
  hasInvoice: boolean;
}

export interface OrderList {
  /** Every order the back office lists (paid, refunded; never open or abandoned checkouts). */
  total: number;
  /** Orders matching the search and filter. */
  matching: number;
  page: number;
  pages: number;
  orders: OrderRow[];
}

export interface OrderLine {
  /** The order item's id: a refund of some lines names them (issue 27). */
  id: number;
  title: string;
  type: 'original' | 'print';
  quantity: number;
  unitPriceCents: number;
  lineCents: number;
  /** The copies' edition labels ('7/50'), to pencil on the prints; empty for an original. */
  editions: string[];
  /** The work's dimensions as entered ('80 x 60 cm'), '' when unknown: the packing slip. */
  dimensions: string;
  /** Refunded by a refund of some lines, or with the whole order. */
  refunded: boolean;
}

export interface OrderHistoryEntry {
  at: string;
  actor: string | null;
  action: string;
  /** e.g. 'Confirmée → Expédiée'. */
  summary: string;
}

export interface InvoiceRef {
  id: string;
  kind: 'invoice' | 'credit_note';
  number: string;
  issuedAt: string;
  totalCents: number;
}

export interface OrderDetail extends OrderRow {
  customerPhone: string | null;
  shippingAddress: {
    street: string;
    postal_code: string;
    city: string;
    country: string;
    /** The checkout's optional second line (building, floor…). */
    additional_info?: string;
  };
  /** The address as printed (api/orders/address.ts): street, complement, postcode and city, country. */
  shippingLines: string[];
  lines: OrderLine[];
  subtotalCents: number;
  promoCode: string | null;
  discountCents: number;
  shippingCents: number;
  stripeSessionId: string | null;
  paymentMethod: string;
  paidAt: string | null;
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: string | null;
  refundedCents: number;
  refundedAt: string | null;
  /**
   * A payment that came too late for its works, whose automatic refund Stripe has not made yet
   * (it is tried again every five minutes).
   */
  refundPending: boolean;
  invoices: InvoiceRef[];
  history: OrderHistoryEntry[];
  /** Live mode only: the payment in Stripe's dashboard. */
  stripeDashboardUrl: string | null;
}

/** PATCH /api/admin/orders/:id — a fulfilment change with its explicit choices. */
export interface OrderStatusChange {
  status: FulfilmentStatus;
  /** 'Expédiée': optional carrier and tracking number, mailed to the buyer. */
  carrier?: string | undefined;
  trackingNumber?: string | undefined;
  /** 'Annulée' on a paid order: refund through Stripe? put the works back on sale? Required. */
  refund?: boolean | undefined;
  restock?: boolean | undefined;
}

/** Longest carrier name and tracking number the 'Expédiée' dialog accepts. */
export const CARRIER_MAX = 80;
export const TRACKING_MAX = 100;

/** POST /api/admin/orders/:id/refund — a refund of some lines (issue 27); the amount is the server's. */
export interface OrderLinesRefund {
  items: number[];
  restock: boolean;
}

/** What POST /api/admin/orders/:id/refund answers. */
export interface OrderLinesRefundResult {
  order: OrderDetail;
  refundedCents: number;
  creditNote: InvoiceRef;
  restocked: boolean;
  /** The buyer's mail about it: sent, failed (logged), or none (no mailer configured). */
  mail: 'sent' | 'failed' | null;
}

/** The packing slip ('bon de livraison', issue 27): no prices. */
export interface PackingSlip {
  number: string;
  date: string;
  customerName: string;
  shippingLines: string[];
  phone: string | null;
  seller: { name: string; lines: string[] };
  lines: {
    title: string;
    type: 'original' | 'print';
    quantity: number;
    dimensions: string;
    technique: string;
    year: number | null;
    editions: string[];
  }[];
}

/** What PATCH /api/admin/orders/:id answers: the order as it is now and what the change did. */
export interface OrderStatusResult {
  order: OrderDetail;
  /** 'Expédiée': whether the buyer's mail left ('failed' is logged for the owner); else null. */
  mail: 'sent' | 'failed' | null;
  /** 'Annulée' with a refund: the amount Stripe gave back; else null. */
  refundedCents: number | null;
  /** 'Annulée' with the works put back on sale. */
  restocked: boolean;
}

export const CUSTOMER_SORTS = [
  'name',
  'registered',
  'lastSignIn',
  'orders',
  'spent',
  'lastOrder',
] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

export interface CustomerRow {
  email: string;
  /** null → 'Client sans nom' in the list, 'Non renseigné' in the detail. */
  name: string | null;
  registeredAt: string | null;
  lastSignInAt: string | null;
  /** Sales: paid orders not cancelled (api/orders/sales.ts); 'Montant total' sums them. */
  orders: number;
  spentCents: number;
  /** Paid orders refunded since: in the history and 'Dernière commande', not in the figures. */
  refunded: number;
  /** Paid orders cancelled whose refund is still to be made: the same. */
  cancelled: number;
  /** The latest paid order, counted or refunded or cancelled (issue 27 §6). */
  lastOrderAt: string | null;
  hasAccount: boolean;
}

export interface CustomerList {
  stats: { total: number; withOrders: number; newThisMonth: number };
  matching: number;
  page: number;
  pages: number;
  customers: CustomerRow[];
}

export interface CustomerDetail extends CustomerRow {
  averageCents: number;
  history: {
    id: string;
    number: string;
    date: string;
    totalCents: number;
    currency: string;
    fulfilment: FulfilmentStatus;
    payment: string;
  }[];
}
