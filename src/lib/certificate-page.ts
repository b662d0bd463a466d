// The data of a certificate's public page (docs/decisions/046), read in the page's own frontmatter:
// only a page, not a component inside it, sets the response's status (404, 429) before streaming.
import { getDb } from '#api/db/context.ts';
import { AppError } from '#api/http/errors.ts';
import { log } from '#api/log.ts';
import {
  certificatePhotoMeta,
  lookupCertificate,
  type PublicCertificate,
} from '#api/certificates/public.ts';

export type CertificatePageData =
  | {
      status: 200;
      view: PublicCertificate;
      photo: Awaited<ReturnType<typeof certificatePhotoMeta>>;
    }
  | { status: 404 | 429 | 500; retryAfterSeconds?: number };

export async function certificatePageData(
  serial: string,
  ip: string,
  locale: 'fr' | 'en',
): Promise<CertificatePageData> {
  try {
    const db = await getDb();
    const view = await lookupCertificate(db, serial, ip, new Date());
    return {
      status: 200,
      view,
      photo: await certificatePhotoMeta(db, view.content.work.photo, locale),
    };
  } catch (error) {
    if (error instanceof AppError && error.code === 'rate_limited')
      return {
        status: 429,
        ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
      };
    if (error instanceof AppError && error.status === 404) return { status: 404 };
    log.error({ err: error }, 'Certificate page: unexpected error');
    return { status: 500 };
  }
}
