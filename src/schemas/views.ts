// What the server sends the islands, as schemas shared across the fence: the cart (every cart
// endpoint's answer, docs/commerce-api.md) and an order as its buyer sees it (success and account
// pages). The server's services are typed by these, so the islands never keep a copy by hand.
import { z } from 'zod';
import { CURRENCIES } from '../domain/currencies.ts';

export const LOCALES = ['fr', 'en'] as const;
export const localeSchema = z.enum(LOCALES);
export type Locale = z.infer<typeof localeSchema>;

export const localizedSchema = z.object({ fr: z.string(), en: z.string() });
export type Localized = z.infer<typeof localizedSchema>;

export { CURRENCIES };
export const currencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof currencySchema>;

export const imageRefSchema = z.object({
  sha256: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

export const totalsSchema = z.object({
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  shippingCents: z.number().int(),
  totalCents: z.number().int(),
});
export type Totals = z.infer<typeof totalsSchema>;

export const promoSchema = z.object({
  code: z.string(),
  /** Whole percent off the subtotal, 1–100. */
  percent: z.number().int(),
});
export type PromoCode = z.infer<typeof promoSchema>;

export const cartLineSchema = z.object({
  id: z.number().int(),
  artworkId: z.number().int(),
  /** The work's key in the gallery (`/gallery?work=<key>`). */
  slug: z.string(),
  type: z.enum(['original', 'print']),
  title: localizedSchema,
  technique: localizedSchema,
  dimensions: z.string(),
  image: imageRefSchema.nullable(),
  unitPriceCents: z.number().int(),
  quantity: z.number().int(),
  lineTotalCents: z.number().int(),
  /** 1 for an original, the prints left for a print. */
  maxQuantity: z.number().int(),
  /**
   * An original another buyer's checkout holds: when that hold ends at the latest (ISO 8601), so
   * the cart can say when to try again; null otherwise (issue 25 §9).
   */
  heldUntil: z.string().nullable(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartViewSchema = z.object({
  lines: z.array(cartLineSchema),
  count: z.number().int(),
  promo: promoSchema.nullable(),
  totals: totalsSchema,
  shipping: z.object({ defaultCents: z.number().int(), freeThresholdCents: z.number().int() }),
  currency: currencySchema,
  /** Works dropped from the cart since the last look because they were sold or withdrawn. */
  removed: z.array(localizedSchema),
});
export type CartView = z.infer<typeof cartViewSchema>;

/** The answer of every cart endpoint. */
export const cartAnswerSchema = z.object({ cart: cartViewSchema, count: z.number().int() });
export type CartAnswer = z.infer<typeof cartAnswerSchema>;

export const buyerOrderLineSchema = z.object({
  /** The title in the language the order was placed in. */
  title: z.string(),
  type: z.enum(['original', 'print']),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
  lineTotalCents: z.number().int(),
  /** The copies' edition labels ('7/50', 'EA 1/5'; docs/decisions/045), empty for an original. */
  editions: z.array(z.string()),
  /** The work's image master, while the work still exists. */
  image: imageRefSchema.nullable(),
  /** The line was refunded on its own (a partial refund, issue 27 §3) or with the whole order. */
  refunded: z.boolean(),
});
export type BuyerOrderLine = z.infer<typeof buyerOrderLineSchema>;

export const buyerOrderSchema = z.object({
  number: z.string(),
  /** When it was placed (ISO 8601). */
  date: z.string(),
  locale: localeSchema,
  /** A payment status of src/domain/order-status.ts, or an unknown value shown raw. */
  paymentStatus: z.string(),
  currency: z.string(),
  subtotalCents: z.number().int(),
  promoCode: z.string().nullable(),
  discountCents: z.number().int(),
  shippingCents: z.number().int(),
  totalCents: z.number().int(),
  lines: z.array(buyerOrderLineSchema),
  /** The invoice's number once issued (at payment): the account page offers it for download. */
  invoiceNumber: z.string().nullable(),
  /** What the gallery has refunded of the order so far, in cents (0 when nothing). */
  refundedCents: z.number().int(),
  /** The credit notes issued for the refunds, oldest first: the account page offers each. */
  creditNotes: z.array(
    z.object({ number: z.string(), date: z.string(), totalCents: z.number().int() }),
  ),
});
export type BuyerOrder = z.infer<typeof buyerOrderSchema>;

/**
 * A withdrawal from an order, as its buyer sees it on the account page (issue 25 §9):
 * 'requested' — the statement was sent from the form and awaits its mailed confirmation;
 * 'confirmed' — recorded (by the link, or signed in); 'refunded' — and the order was refunded since.
 * `requestedAt` is the statement's date, the legal one (docs/decisions/039).
 */
export const accountWithdrawalSchema = z.object({
  state: z.enum(['requested', 'confirmed', 'refunded']),
  requestedAt: z.string(),
  refundedAt: z.string().nullable(),
  refundedCents: z.number().int(),
});
export type AccountWithdrawal = z.infer<typeof accountWithdrawalSchema>;

/** An order on the account page: as its buyer sees it, with its withdrawal if any. */
export const accountOrderSchema = buyerOrderSchema.extend({
  withdrawal: accountWithdrawalSchema.nullable(),
});
export type AccountOrder = z.infer<typeof accountOrderSchema>;
