// GET /api/certificates/mine?locale=fr|en → `{ certificates }`: the valid certificates the signed-in
// account holds (HeldCertificate), for its account page. 401 without a session.
import { requireUser } from '#api/accounts/index.ts';
import { accountCertificates } from '#api/certificates/views.ts';
import { getDb } from '#api/db/context.ts';
import { defineEndpoint } from '#api/http/endpoint.ts';

export const prerender = false;

export const GET = defineEndpoint({
  handler: async ({ locals, url }) => {
    const user = requireUser(locals);
    const locale = url.searchParams.get('locale') === 'en' ? 'en' : 'fr';
    return { certificates: await accountCertificates(await getDb(), user, locale, new Date()) };
  },
});
