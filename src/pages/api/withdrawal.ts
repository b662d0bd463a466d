// POST /api/withdrawal `{ orderNumber, email, step: 'check' | 'confirm', locale }` (docs/decisions/020):
// 'check' answers 200 `{ step, preview }` (what would be withdrawn), 'confirm' answers 200
// `{ step, confirmation }`, the same again on a repeat. Errors as `{ error: { code, message } }`:
// 404 not_found alike for an unknown order, a wrong email or an unpaid order; 409
// withdrawal_period_over / withdrawal_closed once both matched; 429 rate_limited; 400 bad input.
// Without JavaScript the form posts to the page itself (src/components/pages/WithdrawalPage.astro).
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { getMailer } from '#api/mail/index.ts';
import { handleWithdrawal } from '#api/withdrawal/index.ts';
import { withdrawalSchema } from '../../schemas/withdrawal.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: withdrawalSchema,
  maxBytes: 4096,
  handler: async (input, { locals }) =>
    handleWithdrawal({ db: await getDb(), mailer: getMailer() }, input, {
      ip: locals.client.address,
    }),
});
