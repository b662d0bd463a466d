// POST /api/stripe/webhook: Stripe's (or the emulator's) signed events. The raw body is verified
// before anything is parsed; a bad or stale signature is a 400. No origin check: Stripe calls us.
import type { APIRoute } from 'astro';
import { getDb } from '#api/db/context.ts';
import { errorResponse, readText } from '#api/http/errors.ts';
import { getMailer } from '#api/mail/index.ts';
import { getPayments } from '#api/payments/index.ts';
import { handleStripeWebhook } from '#api/payments/webhook.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request }) => {
  try {
    const raw = await readText(request, 1_048_576);
    const outcome = await handleStripeWebhook(
      { db: await getDb(), payments: getPayments(), mailer: getMailer() },
      raw,
      request.headers.get('stripe-signature'),
    );
    return Response.json({ received: true, outcome: outcome.kind });
  } catch (error) {
    return errorResponse(error);
  }
};
