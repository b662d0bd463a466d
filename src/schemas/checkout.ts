// The checkout form's one input schema (storefront §3 "Checkout form", §5 pre-payment checks):
// used by the checkout island for instant feedback and by POST /api/checkout for the real check.
// Strict objects: the browser sends artwork ids, quantities, customer details and a promo code,
// nothing else (a `price` field is refused). Error messages are translation keys.
import * as z from 'zod/mini';
import { INT4_MAX } from './fields.ts';
import { singleLine } from './text.ts';

/**
 * storefront §9: the countries offered, FR first and default. The one list: the checkout's
 * select, the server's check and the terms of sale's shipping section all read it.
 */
export const COUNTRIES = ['FR', 'BE', 'CH', 'DE', 'ES', 'IT', 'PT', 'NL', 'LU', 'AT'] as const;
export type Country = (typeof COUNTRIES)[number];

/** An order id as the database makes them (gen_random_uuid). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const CHECKOUT_LIMITS = { lines: 50, quantity: 99, text: 200, postalCode: 16, info: 500 };

const required = (max: number, error: string) =>
  z
    .string({ error })
    .check(z.trim(), z.minLength(1, { error }), z.maxLength(max, { error }), singleLine());

const optionalText = (max: number) =>
  z.optional(
    z
      .string({ error: 'checkout.error.invalid' })
      .check(z.trim(), z.maxLength(max, { error: 'checkout.error.invalid' }), singleLine()),
  );

const address = (kind: 'shipping' | 'billing') =>
  z.strictObject(
    {
      street: required(CHECKOUT_LIMITS.text, `checkout.error.${kind}.street`),
      city: required(CHECKOUT_LIMITS.text, `checkout.error.${kind}.city`),
      postalCode: required(CHECKOUT_LIMITS.postalCode, `checkout.error.${kind}.postalCode`),
      country: z.enum(COUNTRIES, { error: `checkout.error.${kind}.country` }),
      additionalInfo: optionalText(CHECKOUT_LIMITS.info),
    },
    { error: `checkout.error.${kind}.street` },
  );

export const checkoutSchema = z
  .strictObject(
    {
      locale: z.enum(['fr', 'en'], { error: 'checkout.error.invalid' }),
      items: z
        .array(
          z.strictObject(
            {
              artworkId: z
                .number({ error: 'checkout.error.itemId' })
                .check(
                  z.int({ error: 'checkout.error.itemId' }),
                  z.positive({ error: 'checkout.error.itemId' }),
                  z.maximum(INT4_MAX, { error: 'checkout.error.itemId' }),
                ),
              quantity: z
                .number({ error: 'checkout.error.itemQuantity' })
                .check(
                  z.int({ error: 'checkout.error.itemQuantity' }),
                  z.minimum(1, { error: 'checkout.error.itemQuantity' }),
                  z.maximum(CHECKOUT_LIMITS.quantity, { error: 'checkout.error.itemQuantity' }),
                ),
            },
            { error: 'checkout.error.invalid' },
          ),
          { error: 'checkout.error.cartEmpty' },
        )
        .check(
          z.minLength(1, { error: 'checkout.error.cartEmpty' }),
          z.maxLength(CHECKOUT_LIMITS.lines, { error: 'checkout.error.invalid' }),
        ),
      customer: z.strictObject(
        {
          name: required(CHECKOUT_LIMITS.text, 'checkout.error.name'),
          email: z
            .string({ error: 'checkout.error.email' })
            .check(
              z.trim(),
              z.minLength(1, { error: 'checkout.error.email' }),
              z.maxLength(254, { error: 'checkout.error.emailInvalid' }),
              z.regex(z.regexes.email, { error: 'checkout.error.emailInvalid' }),
            ),
          phone: optionalText(40),
        },
        { error: 'checkout.error.name' },
      ),
      shippingAddress: address('shipping'),
      billingSameAsShipping: z.boolean({ error: 'checkout.error.invalid' }),
      billingAddress: z.optional(address('billing')),
      promoCode: optionalText(64),
      /** The buyer ticked 'I accept the terms of sale' (issue 9): no order without it. */
      acceptTerms: z.literal(true, { error: 'checkout.error.terms' }),
    },
    { error: 'checkout.error.invalid' },
  )
  .check(
    z.refine((v) => v.billingSameAsShipping || v.billingAddress !== undefined, {
      error: 'checkout.error.billing.street',
      path: ['billingAddress', 'street'],
    }),
  );

export type CheckoutInput = z.infer<typeof checkoutSchema>;

/** A stored shipping address as the checkout form takes it (the schema's own rules). */
export const shippingAddressSchema = address('shipping');
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;

/**
 * What the checkout form starts with for a signed-in customer (issue 25 §9): the account's name
 * and email and the address of their last order, all editable; read on the server, by user id.
 */
export interface CheckoutPrefill {
  name: string;
  email: string;
  shippingAddress: ShippingAddress | null;
}

/** POST /api/checkout/cancel: the order the payment page's cancel link names (`?order=`). */
export const checkoutCancelSchema = z.strictObject(
  {
    order: z
      .string({ error: 'checkout.error.invalid' })
      .check(z.regex(UUID, { error: 'checkout.error.invalid' })),
  },
  { error: 'checkout.error.invalid' },
);
export type CheckoutCancelInput = z.infer<typeof checkoutCancelSchema>;
