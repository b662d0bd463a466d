// PATCH /api/cart/lines/:id { quantity } (0 or less removes the line); DELETE removes it.
import type { APIRoute } from 'astro';
import { z } from 'zod';
import { removeLine, setLineQuantity } from '../../../../../api/cart/index.ts';
import { getDb } from '../../../../../api/db/context.ts';
import {
  AppError,
  checkSameOrigin,
  errorResponse,
  readJson,
} from '../../../../../api/http/errors.ts';
import { cartResponse, readCartId } from '../../../../lib/cart-session.ts';

export const prerender = false;

const quantitySchema = z.strictObject({ quantity: z.number().int().min(-1000).max(99) });

function lineId(raw: string | undefined): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('not_found');
  return id;
}

export const PATCH: APIRoute = async ({ request, cookies, params }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const parsed = quantitySchema.safeParse(await readJson(request, 1024));
    if (!parsed.success) throw new AppError('invalid_input');
    const cartId = readCartId(cookies);
    if (!cartId) throw new AppError('not_found', { message: 'No such cart line.' });
    await setLineQuantity(await getDb(), cartId, lineId(params.id), parsed.data.quantity);
    return await cartResponse(await getDb(), cartId);
  } catch (error) {
    return errorResponse(error);
  }
};

export const DELETE: APIRoute = async ({ request, cookies, params }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const cartId = readCartId(cookies);
    if (!cartId) throw new AppError('not_found', { message: 'No such cart line.' });
    await removeLine(await getDb(), cartId, lineId(params.id));
    return await cartResponse(await getDb(), cartId);
  } catch (error) {
    return errorResponse(error);
  }
};
