// GET /api/cart: the visitor's cart, priced on the server. POST adds a work ({ artworkId,
// quantity? }); DELETE empties it. Rules and messages: api/cart (docs/commerce-api.md).
import { addToCart, clearCart } from '#api/cart/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { cartResponse, ensureCartId, readCartId } from '../../../lib/cart-session.ts';
import { addToCartSchema } from '../../../schemas/cart.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ cookies, locals }) =>
    cartResponse(await getDb(), readCartId(cookies, locals.secureCookies)),
});

export const POST = defineEndpoint({
  schema: addToCartSchema,
  maxBytes: 1024,
  handler: async ({ artworkId, quantity }, { cookies, locals }) => {
    const db = await getDb();
    const cartId = ensureCartId(cookies, locals.secureCookies);
    // The add answers with the cart as it stored it: no second read (issue 14 §2).
    const stored = await addToCart(db, cartId, artworkId, quantity);
    return cartResponse(db, cartId, undefined, stored);
  },
});

export const DELETE = defineEndpoint({
  handler: async ({ cookies, locals }) => {
    const db = await getDb();
    const cartId = readCartId(cookies, locals.secureCookies);
    if (cartId) await clearCart(db, cartId);
    return cartResponse(db, cartId);
  },
});
