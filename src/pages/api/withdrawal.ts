// POST /api/withdrawal `{ orderNumber, email, step: 'check' | 'confirm', locale }` (docs/decisions/020
// and 039). For the signed-in buyer naming one of their own orders: 'check' answers 200
// `{ step, preview }` (what would be withdrawn), 'confirm' answers 200 `{ step, confirmation }`
// (withdrawn now; the same again on a repeat), or 409 withdrawal_period_over / withdrawal_closed.
// For anyone else, whatever matched: 'check' answers `{ step, draft }` (the statement from what
// was typed) and 'confirm' `{ step, receipt }` (when it was sent) — the order's mailbox gets the
// link that confirms it. 429 rate_limited; 400 bad input.
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
  handler: async (input, { locals, url }) =>
    handleWithdrawal(
      { db: await getDb(), mailer: getMailer(), siteUrl: import.meta.env.SITE ?? url.origin },
      input,
      { ip: locals.client.address, user: locals.user },
    ),
});
