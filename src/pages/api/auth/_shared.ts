// Helpers of the account endpoints (the leading underscore keeps this file out of the routes):
// the services' dependencies, the token rule of their schemas, and the session cookie.
import type { AstroCookies } from 'astro';
import type { AccountDeps } from '#api/accounts/index.ts';
import { SESSION_COOKIE, sessionCookieOptions, type Session } from '#api/accounts/sessions.ts';
import { getDb } from '#api/db/context.ts';
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
  cookies.set(SESSION_COOKIE, token, sessionCookieOptions(secure, session.expiresAt));
}

export function clearSessionCookie(cookies: AstroCookies, secure: boolean): void {
  const { expires: _expires, ...options } = sessionCookieOptions(secure, new Date(0));
  cookies.delete(SESSION_COOKIE, options);
}
