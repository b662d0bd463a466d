// The pending sign-in's cookie (docs/decisions/037): after a right password on an account with a
// second factor, it carries the challenge's token until the code is given (5 minutes, HttpOnly,
// SameSite=Strict, `__Host-` over HTTPS like the session's).
import type { AstroCookies } from 'astro';
import { CHALLENGE_COOKIE } from '#api/accounts/second-factor.ts';
import { hostCookie } from '#api/http/cookies.ts';

const options = (secure: boolean, expires: Date) =>
  ({ path: '/', httpOnly: true, sameSite: 'strict', secure, expires }) as const;

export function setChallengeCookie(
  cookies: AstroCookies,
  secure: boolean,
  challenge: { token: string; expiresAt: Date },
): void {
  cookies.set(
    hostCookie(CHALLENGE_COOKIE, secure),
    challenge.token,
    options(secure, challenge.expiresAt),
  );
}

export function readChallengeCookie(cookies: AstroCookies, secure: boolean): string | undefined {
  return cookies.get(hostCookie(CHALLENGE_COOKIE, secure))?.value;
}

export function clearChallengeCookie(cookies: AstroCookies, secure: boolean): void {
  const { expires: _expires, ...rest } = options(secure, new Date(0));
  cookies.delete(hostCookie(CHALLENGE_COOKIE, secure), rest);
}
