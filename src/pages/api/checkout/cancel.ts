// POST /api/checkout/cancel { order }: the cancel page, reached from the payment page's "Cancel and
// return" link, gives the checkout's works back at once (api/checkout/cancel.ts). Only the cart
// that started the checkout (its cookie) may; anyone else gets the same answer, and nothing changes.
import { cancelCheckout } from '#api/checkout/cancel.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { getPayments } from '#api/payments/index.ts';
import { readCartId } from '../../../lib/cart-session.ts';
import { checkoutCancelSchema } from '../../../schemas/checkout.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: checkoutCancelSchema,
  handler: async (input, { cookies, locals }) =>
    cancelCheckout(
      { db: await getDb(), payments: getPayments() },
      { orderId: input.order, cartId: readCartId(cookies, locals.secureCookies) },
    ),
});
