// POST /api/checkout: artwork ids, quantities, customer details and a promo code in; the Stripe
// Checkout Session's URL out. The same zod schema as the checkout island; prices, discount and
// shipping are recomputed on the server (api/checkout), which holds only what the visitor's cart
// (cookie) has, within the per-cart and per-address limits (429 with Retry-After).
import { withPromoAttempt } from '#api/cart/promo-attempts.ts';
import { createCheckout } from '#api/checkout/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { getPayments } from '#api/payments/index.ts';
import { readCartId } from '../../../lib/cart-session.ts';
import { checkoutSchema } from '../../../schemas/checkout.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: checkoutSchema,
  maxBytes: 32_768,
  status: 201,
  handler: async (input, { cookies, url, locals }) => {
    const db = await getDb();
    const cartId = readCartId(cookies, locals.secureCookies);
    const checkout = () =>
      createCheckout({ db, payments: getPayments() }, input, {
        cartId,
        ip: locals.client.address,
        userId: locals.user?.id,
        siteUrl: import.meta.env.SITE ?? url.origin,
      });
    // A code sent here is tried like one typed in the cart: the same allowance of wrong codes.
    const result = input.promoCode?.trim()
      ? await withPromoAttempt(db, { cartId, ip: locals.client.address }, checkout)
      : await checkout();
    return { url: result.url, sessionId: result.sessionId, orderNumber: result.orderNumber };
  },
});
