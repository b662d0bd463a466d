// Helpers of the account endpoints (the leading underscore keeps this file out of the routes):
// the services' dependencies, input parsing into `invalid_input` with field keys, and the cookie.
import type { AstroCookies } from 'astro';
import type { AccountDeps } from '../../../../api/accounts/index.ts';
import {
  SESSION_COOKIE,
  sessionCookieOptions,
  type Session,
} from '../../../../api/accounts/sessions.ts';
import { authFieldErrors, onlyTokenIssues } from '../../../../api/accounts/validation.ts';
import { getDb } from '../../../../api/db/context.ts';
import { AppError } from '../../../../api/http/errors.ts';
import { getMailer } from '../../../../api/mail/index.ts';

export const NO_STORE = { 'Cache-Control': 'no-store' } as const;

export async function accountDeps(url: URL): Promise<AccountDeps> {
  return { db: await getDb(), mailer: getMailer(), siteUrl: import.meta.env.SITE ?? url.origin };
}

interface Schema<T> {
  safeParse(
    input: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** The parsed body, or `invalid_input` with `fields` (`invalid_token` when only the token is wrong). */
export function parse<T>(schema: Schema<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  if (onlyTokenIssues(parsed.error)) throw new AppError('invalid_token');
  throw new AppError('invalid_input', { fields: authFieldErrors(parsed.error) });
}

export function setSessionCookie(
  cookies: AstroCookies,
  url: URL,
  token: string,
  session: Session,
): void {
  cookies.set(SESSION_COOKIE, token, sessionCookieOptions(url, session.expiresAt));
}

export function clearSessionCookie(cookies: AstroCookies, url: URL): void {
  const { expires: _expires, ...options } = sessionCookieOptions(url, new Date(0));
  cookies.delete(SESSION_COOKIE, options);
}
