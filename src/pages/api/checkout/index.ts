// POST /api/checkout: artwork ids, quantities, customer details and a promo code in; the Stripe
// Checkout Session's URL out. The same zod schema as the checkout island; prices, discount and
// shipping are recomputed on the server (api/checkout).
import type { APIRoute } from 'astro';
import { createCheckout } from '../../../../api/checkout/index.ts';
import { getDb } from '../../../../api/db/context.ts';
import { AppError, checkSameOrigin, errorResponse, readJson } from '../../../../api/http/errors.ts';
import { getPayments } from '../../../../api/payments/index.ts';
import { readCartId } from '../../../lib/cart-session.ts';
import { checkoutFieldErrors, checkoutSchema } from '../../../schemas/checkout.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, cookies, url, locals }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const parsed = checkoutSchema.safeParse(await readJson(request, 32_768));
    if (!parsed.success)
      throw new AppError('invalid_input', { fields: checkoutFieldErrors(parsed.error) });
    const userId = (locals as { user?: { id: string } }).user?.id;
    const result = await createCheckout(
      { db: await getDb(), payments: getPayments() },
      parsed.data,
      {
        cartId: readCartId(cookies),
        userId,
        siteUrl: import.meta.env.SITE ?? url.origin,
      },
    );
    return Response.json(
      { url: result.url, sessionId: result.sessionId, orderNumber: result.orderNumber },
      { status: 201, headers: { 'Cache-Control': 'no-store' } },
    );
  } catch (error) {
    return errorResponse(error);
  }
};
