// Who may send a body to the back office's API, decided before a byte of it is read (issue 24,
// break 4): an anonymous chunked POST /api/admin/uploads was read up to 25 MiB before its 403.
// For an unsafe request to a guarded admin endpoint (isGuardedAdminPath: all of /api/admin/ but
// the login and the invitation's acceptance), the origin and the session cookie are checked on the
// bare headers — the same rules as src/middleware.ts and requireAdmin, which still run after —
// and a refusal is answered at once, its body discarded unread (request-limits.ts).
import type { IncomingMessage } from 'node:http';
import { isGuardedAdminPath } from '../accounts/guards.ts';
import { sessionCookieName, type SessionValidation } from '../accounts/sessions.ts';
import { attachedClient, secureCookies } from './client.ts';
import { ERRORS, isSameOrigin, type ErrorCode } from './errors.ts';

export interface BodyRefusal {
  status: number;
  code: ErrorCode;
  message: string;
}

export interface BodyGateOptions {
  siteUrl: string;
  /** The session a cookie's token stands for (api/accounts/sessions.ts validateSessionToken). */
  validate: (token: string) => Promise<SessionValidation | null>;
}

export type BodyGate = (req: IncomingMessage, pathname: string) => Promise<BodyRefusal | null>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const refusal = (code: ErrorCode): BodyRefusal => ({
  status: ERRORS[code].status,
  code,
  message: ERRORS[code].message,
});

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function adminBodyGate(options: BodyGateOptions): BodyGate {
  return async (req, pathname) => {
    const method = req.method ?? 'GET';
    // The middleware's own rule (any spelling of the path; the login and the invitation's
    // acceptance are for people not signed in yet).
    if (SAFE_METHODS.has(method) || !isGuardedAdminPath(pathname)) return null;
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    if (!isSameOrigin(method, header('origin'), header('sec-fetch-site'), options.siteUrl))
      return refusal('forbidden_origin');
    // The name the middleware reads: `__Host-session` over HTTPS (decision 038).
    const secure = secureCookies(options.siteUrl, attachedClient(req));
    const token = cookieValue(req.headers.cookie, sessionCookieName(secure));
    const session = token ? await options.validate(token) : null;
    if (!session) return refusal('unauthorized');
    if (session.user.role !== 'admin') return refusal('forbidden');
    return null;
  };
}
