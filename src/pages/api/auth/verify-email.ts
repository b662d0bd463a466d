// GET /api/auth/verify-email?token=…[&locale=en]: the link of the verification mail. Marks the
// address verified and redirects (303) to the account page with `?emailVerified=1`, or `=0` when
// the link is unknown, used or expired. A GET because a mail link is one; the token is single-use.
import type { APIRoute } from 'astro';
import { verifyEmail } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { errorResponse, isAppError } from '#api/http/errors.ts';
import { localizedPath } from '../../../i18n/index.ts';

export const prerender = false;

export const GET: APIRoute = async ({ url }) => {
  const locale = url.searchParams.get('locale') === 'en' ? 'en' : 'fr';
  let outcome = '1';
  try {
    await verifyEmail({ db: await getDb() }, url.searchParams.get('token'));
  } catch (error) {
    if (!isAppError(error, 'invalid_token')) return errorResponse(error);
    outcome = '0';
  }
  return new Response(null, {
    status: 303,
    headers: {
      Location: `${localizedPath(locale, '/account')}?emailVerified=${outcome}`,
      'Cache-Control': 'no-store',
      // The token must not leak to the next page's requests through the Referer header.
      'Referrer-Policy': 'no-referrer',
    },
  });
};
