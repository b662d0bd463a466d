// PATCH /api/cart/lines/:id { quantity } (0 or less removes the line); DELETE removes it.
import { removeLine, setLineQuantity } from '#api/cart/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import { cartResponse, readCartId } from '../../../../lib/cart-session.ts';
import { lineQuantitySchema } from '../../../../schemas/cart.ts';
import { pathRowId } from '../../../../schemas/fields.ts';

export const prerender = false;

/** The line of the visitor's own cart the path names; anything else is not found. */
function lineOf(
  cookies: Parameters<typeof readCartId>[0],
  secure: boolean,
  raw: string | undefined,
) {
  const lineId = pathRowId(raw);
  const cartId = readCartId(cookies, secure);
  if (lineId === null || !cartId)
    throw new AppError('not_found', { message: 'No such cart line.' });
  return { cartId, lineId };
}

export const PATCH = defineEndpoint({
  schema: lineQuantitySchema,
  maxBytes: 1024,
  handler: async ({ quantity }, { cookies, locals, params }) => {
    const { cartId, lineId } = lineOf(cookies, locals.secureCookies, params['id']);
    await setLineQuantity(await getDb(), cartId, lineId, quantity);
    return cartResponse(await getDb(), cartId);
  },
});

export const DELETE = defineEndpoint({
  handler: async ({ cookies, locals, params }) => {
    const { cartId, lineId } = lineOf(cookies, locals.secureCookies, params['id']);
    await removeLine(await getDb(), cartId, lineId);
    return cartResponse(await getDb(), cartId);
  },
});
