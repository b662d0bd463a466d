// GET /api/auth/verify-email?token=…[&locale=en]: the link of the verification mail. Marks the
// address verified and redirects (303):
// - opened in the browser that signed up (its signup cookie, docs/decisions/038): signed in, to
//   the account page with `?emailVerified=1`;
// - anywhere else: to the login page with `?emailVerified=1` — a link alone never opens a
//   session, so one forwarded, scanned or sent by someone else signs nobody in;
// - unknown, used or expired: `?emailVerified=0`, on the account page for a signed-in visitor,
//   else on the login page.
// A GET because a mail link is one; the token is single-use.
import type { APIRoute } from 'astro';
import { isSignupBrowser, signInVerified, verifyEmail } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { errorResponse, isAppError } from '#api/http/errors.ts';
import { localizedPath } from '../../../i18n/index.ts';
import { clearSignupCookie, readSignupCookie, setSessionCookie } from './_shared.ts';

export const prerender = false;

export const GET: APIRoute = async ({ url, cookies, locals }) => {
  const locale = url.searchParams.get('locale') === 'en' ? 'en' : 'fr';
  const token = url.searchParams.get('token');
  const secure = locals.secureCookies;
  let page: '/account' | '/login' = locals.user ? '/account' : '/login';
  let outcome = '1';
  try {
    const db = await getDb();
    const { userId } = await verifyEmail({ db }, token);
    if (locals.user?.id !== userId) page = '/login';
    if (token && isSignupBrowser(readSignupCookie(cookies, secure), token)) {
      const signedIn = await signInVerified({ db }, userId, {
        replaceSessionId: locals.session?.id,
      });
      if (signedIn) {
        setSessionCookie(cookies, secure, signedIn.token, signedIn.session);
        page = '/account';
      }
      clearSignupCookie(cookies, secure);
    }
  } catch (error) {
    if (!isAppError(error, 'invalid_token')) return errorResponse(error);
    outcome = '0';
  }
  return new Response(null, {
    status: 303,
    headers: {
      Location: `${localizedPath(locale, page)}?emailVerified=${outcome}`,
      'Cache-Control': 'no-store',
      // The token must not leak to the next page's requests through the Referer header.
      'Referrer-Policy': 'no-referrer',
    },
  });
};
