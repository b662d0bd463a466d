// Helpers of the account endpoints (the leading underscore keeps this file out of the routes):
// the services' dependencies, the token rule of their schemas, the session and signup cookies.
import type { AstroCookies } from 'astro';
import { EMAIL_VERIFICATION_TTL_MS, type AccountDeps } from '#api/accounts/index.ts';
import { sessionCookieName, sessionCookieOptions, type Session } from '#api/accounts/sessions.ts';
import { getDb } from '#api/db/context.ts';
import { hostCookie } from '#api/http/cookies.ts';
import { AppError } from '#api/http/errors.ts';
import { getMailer } from '#api/mail/index.ts';
import { onlyTokenIssues } from '../../../schemas/accounts.ts';
import type { Issue } from '../../../schemas/fields.ts';

export { NO_STORE } from '#api/http/endpoint.ts';

export async function accountDeps(url: URL): Promise<AccountDeps> {
  return { db: await getDb(), mailer: getMailer(), siteUrl: import.meta.env.SITE ?? url.origin };
}

/** A body whose only problem is its token gets `invalid_token`, as the services answer. */
export function tokenInvalid(issues: readonly Issue[]): AppError | undefined {
  return onlyTokenIssues(issues) ? new AppError('invalid_token') : undefined;
}

/** `secure`: `locals.secureCookies` (PUBLIC_SITE_URL or the trusted protocol, src/middleware.ts). */
export function setSessionCookie(
  cookies: AstroCookies,
  secure: boolean,
  token: string,
  session: Session,
): void {
  cookies.set(sessionCookieName(secure), token, sessionCookieOptions(secure, session.expiresAt));
}

export function clearSessionCookie(cookies: AstroCookies, secure: boolean): void {
  const { expires: _expires, ...options } = sessionCookieOptions(secure, new Date(0));
  cookies.delete(sessionCookieName(secure), options);
}

/**
 * The signup cookie: the mark `signup` gave this browser (api/accounts signupBrowserMark). The
 * verification link signs in only the browser that holds it, for as long as the link is valid
 * (docs/decisions/038). `__Host-signup` over HTTPS.
 */
const SIGNUP_COOKIE = 'signup';

export function setSignupCookie(cookies: AstroCookies, secure: boolean, mark: string): void {
  cookies.set(hostCookie(SIGNUP_COOKIE, secure), mark, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: EMAIL_VERIFICATION_TTL_MS / 1000,
  });
}

export function readSignupCookie(cookies: AstroCookies, secure: boolean): string | undefined {
  return cookies.get(hostCookie(SIGNUP_COOKIE, secure))?.value;
}

export function clearSignupCookie(cookies: AstroCookies, secure: boolean): void {
  cookies.delete(hostCookie(SIGNUP_COOKIE, secure), { path: '/', secure });
}
