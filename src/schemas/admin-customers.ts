// The customers endpoints' inputs and the shapes the issue 13 contract (./admin-orders.ts) leaves
// out: the list's query, the erase request, the shop's currency beside the figures, and the data
// export (GDPR access request). The customers screen imports only types and constants from here.
import { z } from 'zod';
import { CUSTOMER_SORTS, type CustomerDetail, type CustomerList } from './admin-orders.ts';
import { singleLine } from './text.ts';

/** The longest e-mail address accepted (RFC 5321's path limit). */
export const EMAIL_MAX = 320;

/**
 * GET /api/admin/customers?q=&sort=&dir=&page= (page from 1). Without `sort`, the newest customers
 * (first appearance) come first and no column shows a sort.
 */
export const customerListQuerySchema = z.object({
  q: z.string().trim().max(200).check(singleLine()).catch(''),
  sort: z.enum(CUSTOMER_SORTS).optional().catch(undefined),
  dir: z.enum(['asc', 'desc']).catch('asc'),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;

/** ?email= of the detail and the export: one customer, by address (case does not matter). */
export const customerEmailSchema = z.object({
  email: z.string().trim().min(3).max(EMAIL_MAX).check(singleLine()),
});

/** The erase confirmation: the owner types the customer's address again. */
export const ERASE_MISMATCH = "L'adresse saisie ne correspond pas à celle du client";
export const customerEraseSchema = z.strictObject({
  email: z.string().trim().min(3).max(EMAIL_MAX).check(singleLine()),
  // What was typed cannot name the customer: the island shows the mismatch.
  confirmation: z.string().trim().max(EMAIL_MAX).check(singleLine(ERASE_MISMATCH)),
  /** While an order is open: erase once every open order has closed, instead of refusing. */
  whenClosed: z.optional(z.boolean()),
});
export type CustomerErase = z.infer<typeof customerEraseSchema>;

/** Whether the typed confirmation names the customer (the island and the service agree). */
export function confirmsErase(email: string, confirmation: string): boolean {
  return confirmation.trim().toLowerCase() === email.trim().toLowerCase();
}

/** The list with the shop's currency, in which the amounts are shown. */
export interface CustomerListView extends CustomerList {
  currency: string;
}

export interface CustomerDetailView extends CustomerDetail {
  currency: string;
  firstOrderAt: string | null;
}

/** What POST /api/admin/customers/erase answers. */
/** Why an order of the customer still needs their details (issue 24). */
export type OpenOrderReason =
  'awaiting_payment' | 'unshipped' | 'withdrawal_period' | 'refund_pending';

export const OPEN_ORDER_REASONS: Record<OpenOrderReason, string> = {
  awaiting_payment: 'paiement en cours',
  unshipped: 'pas encore expédiée',
  withdrawal_period: 'délai de rétractation en cours',
  refund_pending: 'remboursement à faire',
};

/** An order that keeps a customer from being erased now: 409 `erase_blocked`'s details. */
export interface OpenOrder {
  number: string;
  reasons: OpenOrderReason[];
}

/** An erasure asked for while orders were open: carried out by the server once they close. */
export interface EraseScheduled {
  scheduled: true;
  openOrders: OpenOrder[];
}

export interface EraseResult {
  /** The address the erased orders now carry ('efface-<id>@invalid'). */
  pseudonym: string;
  accountDeleted: boolean;
  ordersAnonymised: number;
  contactMessagesDeleted: number;
}

/** Everything held about one e-mail address (GET /api/admin/customers/export). */
export interface CustomerExport {
  exportedAt: string;
  email: string;
  account: {
    id: string;
    email: string;
    fullName: string | null;
    role: string;
    createdAt: string;
    updatedAt: string;
    lastSignInAt: string | null;
    emailVerifiedAt: string | null;
    /** Open sessions (when and until when; never their secret). */
    sessions: { createdAt: string; expiresAt: string }[];
  } | null;
  orders: {
    id: string;
    number: string;
    createdAt: string;
    paidAt: string | null;
    customerName: string;
    customerEmail: string;
    customerPhone: string | null;
    shippingAddress: unknown;
    billingAddress: unknown;
    locale: string;
    currency: string;
    subtotalCents: number;
    promoCode: string | null;
    discountCents: number;
    shippingCents: number;
    totalCents: number;
    paymentStatus: string;
    paymentMethod: string;
    fulfilment: string;
    carrier: string | null;
    trackingNumber: string | null;
    shippedAt: string | null;
    refundedCents: number;
    refundedAt: string | null;
    withdrawalRequestedAt: string | null;
    erasedAt: string | null;
    lines: { title: string; type: string; quantity: number; unitPriceCents: number }[];
    invoices: { kind: string; number: string; issuedAt: string; totalCents: number }[];
    /** State: 'pending' (awaiting the buyer's confirmation), 'confirmed' or 'disowned'. */
    withdrawals: {
      requestedAt: string;
      locale: string;
      statement: string;
      state: string;
      confirmedAt: string | null;
    }[];
  }[];
  /** Contact messages and enquiries about a work (issue 25). */
  contactMessages: {
    createdAt: string;
    kind: string;
    /** The work an enquiry was about (its title then); null for a contact message. */
    work: string | null;
    name: string;
    email: string;
    subject: string | null;
    message: string;
    locale: string;
  }[];
  subscriptions: {
    createdAt: string;
    status: string;
    priceId: string | null;
    currentPeriodEnd: string | null;
  }[];
  /** Back-office records about this customer, their orders or their account. */
  audit: {
    at: string;
    actor: string | null;
    action: string;
    entity: string;
    entityId: string;
    before: unknown;
    after: unknown;
  }[];
}
