// GET /api/orders/status?session_id=cs_…: the order behind a payment session, for the success
// page: verifying (the webhook has not arrived yet), confirmed or failed. The session id is an
// unguessable capability given to the buyer by the payment provider's redirect.
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { AppError } from '#api/http/errors.ts';
import { orderStatusForSession } from '#api/orders/index.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ url }) => {
    const sessionId = url.searchParams.get('session_id');
    if (!sessionId)
      throw new AppError('invalid_input', { fields: { session_id: 'success.missingSession' } });
    const { state, order } = await orderStatusForSession(await getDb(), sessionId);
    return { state, order };
  },
});
