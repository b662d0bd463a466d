// POST /api/auth/signup `{ email, password, confirmPassword, fullName, locale }` → 201 `{ ok: true }`
// whether the address was free or already has an account (api/accounts `signup`: same work, one
// mail either way). 400 `invalid_input` with field keys, 429 `rate_limited`.
import type { APIRoute } from 'astro';
import { signup } from '../../../../api/accounts/index.ts';
import { signupSchema } from '../../../../api/accounts/validation.ts';
import { checkSameOrigin, errorResponse, readJson } from '../../../../api/http/errors.ts';
import { accountDeps, NO_STORE, parse } from './_shared.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, url, clientAddress }) => {
  try {
    checkSameOrigin(request, import.meta.env.SITE);
    const input = parse(signupSchema, await readJson(request));
    await signup(await accountDeps(url), input, { ip: clientAddress });
    return Response.json({ ok: true }, { status: 201, headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
};
