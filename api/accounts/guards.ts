// Role checks every endpoint can call, and the path rule the middleware enforces on its own, so
// that no future /api/admin/** endpoint can forget it (storefront §6, back office).
import { AppError } from '../http/errors.ts';
import type { SessionUser } from './sessions.ts';

interface WithUser {
  user?: SessionUser | null | undefined;
}

/** The signed-in user, or `unauthorized` (401). */
export function requireUser(locals: WithUser): SessionUser {
  if (!locals.user) throw new AppError('unauthorized');
  return locals.user;
}

/** The signed-in administrator: `unauthorized` (401) when signed out, `forbidden` (403) otherwise. */
export function requireAdmin(locals: WithUser): SessionUser {
  const user = requireUser(locals);
  if (user.role !== 'admin') throw new AppError('forbidden');
  return user;
}

/** Admin endpoints reachable without a session: accepting an invitation creates the first admin;
 * the back office's login opens one. */
export const ADMIN_GUARD_EXEMPT = new Set(['/api/admin/invitations/accept', '/api/admin/session']);

/**
 * Whether a path is an admin endpoint the middleware must guard. The path is normalised the way a
 * router might (percent-decoding, case, repeated or trailing slashes, dot segments) so no spelling
 * of it slips past.
 */
export function isGuardedAdminPath(pathname: string): boolean {
  const normal = normalisedPath(pathname);
  if (normal !== '/api/admin' && !normal.startsWith('/api/admin/')) return false;
  return !ADMIN_GUARD_EXEMPT.has(normal);
}

function normalisedPath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // Malformed escapes: judge the raw path.
  }
  const segments: string[] = [];
  for (const segment of path.toLowerCase().replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** Back-office pages anyone may open: the login itself and accepting an invitation. */
const OPEN_ADMIN_PAGES = new Set(['/admin/login', '/admin/invitation']);

/**
 * What a request for a back-office page gets (issue 11): 'open' (not an admin page, an open one,
 * or an administrator), 'index' (`/admin` → the dashboard), 'login' (anonymous: the login page,
 * then back) or 'forbidden' (signed in without the role).
 */
export function adminPageAccess(
  pathname: string,
  role: string | null,
): 'open' | 'index' | 'login' | 'forbidden' {
  const path = normalisedPath(pathname);
  if (path !== '/admin' && !path.startsWith('/admin/')) return 'open';
  if (OPEN_ADMIN_PAGES.has(path)) return 'open';
  if (role !== 'admin') return role === null ? 'login' : 'forbidden';
  return path === '/admin' ? 'index' : 'open';
}
