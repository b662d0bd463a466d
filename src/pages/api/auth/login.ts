// POST /api/auth/login `{ email, password }` → 200 `{ ok: true, user: { name, email } }` and a new
// `session` cookie; 401 `invalid_credentials` for an unknown address and a wrong password alike;
// 429 `rate_limited` + Retry-After while the account or the address is throttled.
import type { APIRoute } from 'astro';
import { login } from '../../../../api/accounts/index.ts';
import { loginSchema } from '../../../../api/accounts/validation.ts';
import { getDb } from '../../../../api/db/context.ts';
import { checkSameOrigin, errorResponse, readJson } from '../../../../api/http/errors.ts';
import { NO_STORE, parse, setSessionCookie } from './_shared.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, url, cookies, locals, clientAddress }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const input = parse(loginSchema, await readJson(request));
    const result = await login({ db: await getDb() }, input, {
      ip: clientAddress,
      replaceSessionId: locals.session?.id,
    });
    setSessionCookie(cookies, url, result.token, result.session);
    return Response.json(
      { ok: true, user: { name: result.user.name, email: result.user.email } },
      { headers: NO_STORE },
    );
  } catch (error) {
    return errorResponse(error);
  }
};
