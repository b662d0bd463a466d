// POST /api/auth/logout → 200 `{ ok: true }`: the current session is deleted and its cookie
// cleared (also when there was none). The cart cookie is left alone.
import { logout } from '#api/accounts/index.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';
import { clearSessionCookie } from './_shared.ts';

export const prerender = false;

export const POST = defineEndpoint({
  handler: async ({ cookies, locals }) => {
    await logout(await getDb(), locals.session?.id);
    clearSessionCookie(cookies, locals.secureCookies);
    return { ok: true };
  },
});
