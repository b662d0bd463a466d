// POST /api/certificates/transfer `{ serial, email, locale }` → `{ serial, email, expiresAt }`: the
// signed-in holder offers a certificate to a new owner's address, who gets a claim link by mail in
// `locale`. 404 for a certificate the account does not hold (never 403), 400 for bad input or the
// holder's own address, 502 delivery_failed when the mail could not go (the offer stays).
import { requireUser } from '#api/accounts/index.ts';
import { offerTransfer } from '#api/certificates/transfer.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { getMailer } from '#api/mail/index.ts';
import { certificateTransferSchema } from '../../../schemas/certificates.ts';

export const prerender = false;

export const POST = defineEndpoint({
  schema: certificateTransferSchema,
  maxBytes: 2048,
  handler: async (input, { locals }) =>
    offerTransfer(
      { db: await getDb(), mailer: getMailer() },
      requireUser(locals),
      input,
      new Date(),
    ),
});
