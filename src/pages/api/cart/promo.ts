// POST /api/cart/promo { code }: applies a promo code from the site settings (one at a time);
// DELETE removes it. Answers the repriced cart. Attempts are limited per cart and per address
// (api/cart/promo-attempts.ts).
import { applyCartPromo, removeCartPromo } from '#api/cart/index.ts';
import { withPromoAttempt } from '#api/cart/promo-attempts.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { liveSettings } from '#api/settings/index.ts';
import { cartResponse, ensureCartId, readCartId } from '../../../lib/cart-session.ts';
import { promoCodeSchema } from '../../../schemas/cart.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: promoCodeSchema,
  maxBytes: 1024,
  handler: async ({ code }, { cookies, locals }) => {
    const db = await getDb();
    const settings = await liveSettings(db);
    const cartId = ensureCartId(cookies, locals.secureCookies);
    // Past the limit of wrong codes, right and wrong codes answer alike: 429.
    await withPromoAttempt(db, { cartId, ip: locals.client.address }, () =>
      applyCartPromo(db, cartId, code, settings),
    );
    return cartResponse(db, cartId, settings);
  },
});

export const DELETE = defineEndpoint({
  handler: async ({ cookies, locals }) => {
    const db = await getDb();
    const cartId = readCartId(cookies, locals.secureCookies);
    if (cartId) await removeCartPromo(db, cartId);
    return cartResponse(db, cartId);
  },
});
