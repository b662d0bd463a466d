// The holder's hand-over, end to end: the offer is recorded (api/certificates/lifecycle.ts), then
// — after the commit — the claim link is mailed to the new owner. A mail that fails leaves the
// offer in place and says so: the holder can send it again (a new offer replaces the old one).
import type { Database } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import { liveSettings } from '../settings/index.ts';
import type { CertificateTransferInput } from '../../src/schemas/certificates.ts';
import { certificateSiteUrl } from './links.ts';
import { startTransfer } from './lifecycle.ts';
import { claimUrl, sendTransferMail } from './mail.ts';

export async function offerTransfer(
  deps: { db: Database; mailer: Mailer; siteUrl?: string },
  user: { id: string; email: string },
  input: CertificateTransferInput,
  now: Date,
): Promise<{ serial: string; email: string; expiresAt: string }> {
  const started = await startTransfer(deps.db, user, input, now);
  const siteUrl = deps.siteUrl ?? certificateSiteUrl();
  try {
    await sendTransferMail(
      deps.mailer,
      {
        email: started.email,
        locale: started.locale,
        content: started.content,
        url: claimUrl(siteUrl, started.token, started.locale),
        expiresAt: started.expiresAt,
      },
      await liveSettings(deps.db),
    );
  } catch (error) {
    log.error({ err: error }, `Certificate ${started.serial}: the transfer mail could not be sent`);
    throw new AppError('delivery_failed');
  }
  return { serial: started.serial, email: started.email, expiresAt: started.expiresAt };
}
