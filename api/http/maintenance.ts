// Maintenance mode, decided in the HTTP layer before static files and Astro (docs/decisions/013):
// while the live setting is on, public pages answer 503 with the bilingual maintenance page,
// `Retry-After` and `noindex`; the back office, its API, sign-in, the payment webhook, health and
// media keep working, and a signed-in administrator browses the real site with a notice.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionCookieName, validateSessionToken } from '../accounts/sessions.ts';
import type { Database } from '../db/index.ts';
import { liveSettings, peekSettings } from '../settings/index.ts';
import type { Gate } from './app.ts';
import { attachedClient, secureCookies } from './client.ts';

/** What keeps working during maintenance. */
const OPEN_PATHS = [
  /^\/admin(\/|$)/,
  /^\/api\/admin(\/|$)/,
  /^\/api\/auth\//,
  /^\/api\/stripe\/webhook$/,
  /^\/api\/health$/,
  /^\/media\//,
  /^\/_astro\//,
  /^\/maintenance$/,
  /^\/favicon\.svg$/,
  /^\/robots\.txt$/,
  // A buyer's legal right to withdraw (EU Directive 2023/2673) does not pause for maintenance.
  /^\/retractation$/,
  /^\/en\/withdrawal$/,
  /^\/api\/withdrawal$/,
];

export const RETRY_AFTER_SECONDS = 1800;

export function isOpenDuringMaintenance(pathname: string): boolean {
  return OPEN_PATHS.some((pattern) => pattern.test(pathname));
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** `siteUrl`: PUBLIC_SITE_URL, which with the request's protocol names the session cookie. */
export async function isAdminRequest(
  db: Database,
  req: IncomingMessage,
  siteUrl = '',
): Promise<boolean> {
  const token = cookie(req, sessionCookieName(secureCookies(siteUrl, attachedClient(req))));
  if (!token) return false;
  const validation = await validateSessionToken(db, token).catch(() => null);
  return validation?.user.role === 'admin';
}

export function maintenanceGate(db: Database, siteUrl = ''): Gate {
  const decide = async (
    ...[req, res, pathname, version]: Parameters<Gate>
  ): Promise<'open' | 'answered' | 'notice'> => {
    const settings = peekSettings(db) ?? (await liveSettings(db));
    if (!settings.site_maintenance || isOpenDuringMaintenance(pathname)) return 'open';
    if (await isAdminRequest(db, req, siteUrl)) return 'notice';
    answerMaintenance(req, res, pathname, version.staticFiles.lookup('/maintenance'));
    return 'answered';
  };
  // Open at once, without a promise, while the settings in memory say there is no maintenance:
  // the static path then answers in the turn that read the request (api/http/app.ts).
  const openNow = () => peekSettings(db)?.site_maintenance === false;
  return Object.assign(
    (...[req, res, pathname, version]: Parameters<Gate>) =>
      openNow() ? ('open' as const) : decide(req, res, pathname, version),
    { openNow },
  );
}

function answerMaintenance(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  page: { identity: { body: Buffer }; type: string } | undefined,
): void {
  res.statusCode = 503;
  res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Cache-Control', 'no-store');
  const wantsPage =
    (req.method === 'GET' || req.method === 'HEAD') && !pathname.startsWith('/api/');
  if (wantsPage && page) {
    res.setHeader('Content-Type', page.type);
    res.end(req.method === 'HEAD' ? undefined : page.identity.body);
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(
    JSON.stringify({
      error: {
        code: 'maintenance',
        message: 'Le site est en maintenance. / The site is under maintenance.',
      },
    }),
  );
}
