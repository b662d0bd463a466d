// POST /api/cart/promo { code }: applies a promo code from the site settings (one at a time);
// DELETE removes it. Answers the repriced cart.
import type { APIRoute } from 'astro';
import { z } from 'zod';
import { applyCartPromo, removeCartPromo } from '../../../../api/cart/index.ts';
import { getDb } from '../../../../api/db/context.ts';
import { AppError, checkSameOrigin, errorResponse, readJson } from '../../../../api/http/errors.ts';
import { getSettings } from '../../../../api/settings/index.ts';
import { cartResponse, ensureCartId, readCartId } from '../../../lib/cart-session.ts';

export const prerender = false;

const promoSchema = z.strictObject({ code: z.string().max(64) });

export const POST: APIRoute = async ({ request, cookies, url }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const parsed = promoSchema.safeParse(await readJson(request, 1024));
    if (!parsed.success) throw new AppError('invalid_input');
    const db = await getDb();
    const settings = await getSettings(db);
    const cartId = ensureCartId(cookies, url);
    await applyCartPromo(db, cartId, parsed.data.code, settings);
    return await cartResponse(db, cartId, settings);
  } catch (error) {
    return errorResponse(error);
  }
};

export const DELETE: APIRoute = async ({ request, cookies }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const db = await getDb();
    const cartId = readCartId(cookies);
    if (cartId) await removeCartPromo(db, cartId);
    return await cartResponse(db, cartId);
  } catch (error) {
    return errorResponse(error);
  }
};
