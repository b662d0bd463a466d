// POST /api/auth/password/forgot `{ email, locale }` → 200 `{ ok: true }` always (after the rate
// limits): when the address has an account, a single-use link valid 1 hour is mailed to it.
import type { APIRoute } from 'astro';
import { requestPasswordReset } from '../../../../../api/accounts/index.ts';
import { forgotPasswordSchema } from '../../../../../api/accounts/validation.ts';
import { checkSameOrigin, errorResponse, readJson } from '../../../../../api/http/errors.ts';
import { accountDeps, NO_STORE, parse } from '../_shared.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, url, clientAddress }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const input = parse(forgotPasswordSchema, await readJson(request));
    await requestPasswordReset(await accountDeps(url), input, { ip: clientAddress });
    return Response.json({ ok: true }, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
};
