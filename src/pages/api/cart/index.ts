// GET /api/cart: the visitor's cart, priced on the server. POST adds a work ({ artworkId,
// quantity? }); DELETE empties it. Rules and messages: api/cart (docs/commerce-api.md).
import type { APIRoute } from 'astro';
import { z } from 'zod';
import { addToCart, clearCart } from '../../../../api/cart/index.ts';
import { getDb } from '../../../../api/db/context.ts';
import { AppError, checkSameOrigin, errorResponse, readJson } from '../../../../api/http/errors.ts';
import { cartResponse, ensureCartId, readCartId } from '../../../lib/cart-session.ts';

export const prerender = false;

const addSchema = z.strictObject({
  artworkId: z.number().int().positive(),
  quantity: z.number().int().min(1).max(99).default(1),
});

export const GET: APIRoute = async ({ cookies }) => {
  try {
    const db = await getDb();
    return await cartResponse(db, readCartId(cookies));
  } catch (error) {
    return errorResponse(error);
  }
};

export const POST: APIRoute = async ({ request, cookies, url }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const parsed = addSchema.safeParse(await readJson(request, 1024));
    if (!parsed.success) throw new AppError('invalid_input');
    const db = await getDb();
    const cartId = ensureCartId(cookies, url);
    await addToCart(db, cartId, parsed.data.artworkId, parsed.data.quantity);
    return await cartResponse(db, cartId);
  } catch (error) {
    return errorResponse(error);
  }
};

export const DELETE: APIRoute = async ({ request, cookies }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const db = await getDb();
    const cartId = readCartId(cookies);
    if (cartId) await clearCart(db, cartId);
    return await cartResponse(db, cartId);
  } catch (error) {
    return errorResponse(error);
  }
};
