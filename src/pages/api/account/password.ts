// POST /api/account/password `{ currentPassword, password, confirmPassword }` → 200 `{ ok: true }`
// with a new `session` cookie: every session of the account ends (other devices are signed out)
// and this browser gets a fresh one. 401 `unauthorized`, 401 `invalid_credentials` for a wrong
// current password (throttled like a login: 429 `rate_limited`), 400 `invalid_input`.
import type { APIRoute } from 'astro';
import { changePassword, requireUser } from '../../../../api/accounts/index.ts';
import { changePasswordSchema } from '../../../../api/accounts/validation.ts';
import { getDb } from '../../../../api/db/context.ts';
import { checkSameOrigin, errorResponse, readJson } from '../../../../api/http/errors.ts';
import { NO_STORE, parse, setSessionCookie } from '../auth/_shared.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, url, cookies, locals, clientAddress }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const user = requireUser(locals);
    const input = parse(changePasswordSchema, await readJson(request));
    const { token, session } = await changePassword({ db: await getDb() }, user.id, input, {
      ip: clientAddress,
    });
    setSessionCookie(cookies, url, token, session);
    return Response.json({ ok: true }, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
};
