// What the new owner's claim page shows (docs/decisions/046), worked out in the page's own
// frontmatter so its status is the answer's (a component cannot set it): the pending hand-over for
// the link's token, or — for the form's POST by a signed-in visitor — the certificate just claimed.
import type { SessionUser } from '#api/accounts/sessions.ts';
import {
  claimTransfer,
  transferByToken,
  type PendingTransfer,
} from '#api/certificates/lifecycle.ts';
import { getDb } from '#api/db/context.ts';
import { AppError, readForm } from '#api/http/errors.ts';
import { log } from '#api/log.ts';

export interface CertificateClaimData {
  status: number;
  token: string;
  pending: PendingTransfer | null;
  claimed: string | null;
  failure: 'invalid' | 'own' | 'internal' | null;
}

export async function certificateClaimData(
  request: Request,
  url: URL,
  user: SessionUser | null | undefined,
): Promise<CertificateClaimData> {
  let token = url.searchParams.get('token')?.trim() ?? '';
  try {
    const db = await getDb();
    if (request.method === 'POST') {
      const form = await readForm(request, 1024);
      token = (form['token'] ?? '').trim();
      if (!user) throw new AppError('unauthorized');
      const { serial } = await claimTransfer(db, user, token, new Date());
      return { status: 200, token, pending: null, claimed: serial, failure: null };
    }
    const pending = await transferByToken(db, token, new Date());
    return { status: 200, token, pending, claimed: null, failure: null };
  } catch (error) {
    if (error instanceof AppError && error.code === 'rejected')
      return { status: 409, token, pending: null, claimed: null, failure: 'own' };
    if (error instanceof AppError && error.status < 500)
      return { status: error.status, token, pending: null, claimed: null, failure: 'invalid' };
    log.error({ err: error }, 'Certificate claim page: unexpected error');
    return { status: 500, token, pending: null, claimed: null, failure: 'internal' };
  }
}
