// POST /api/enquiry: "Ask about this work" from a work's page (issue 25) — the contact form's twin
// (./contact.ts): JSON in, 201 `{ ok: true }` out, errors as `{ error: { code, message, fields? } }`;
// a work that is not on sale is 404 `not_found`. A form posted without JavaScript gets the same
// checks and a 303 back to the work's page at #enquiry-result-<outcome>.
import type { APIRoute } from 'astro';
import { submitEnquiry } from '#api/contact/index.ts';
import { getDb } from '#api/db/context.ts';
import { parseInput } from '#api/http/endpoint.ts';
import { AppError, errorResponse, isFormPost, readForm, readJson } from '#api/http/errors.ts';
import { getMailer } from '#api/mail/index.ts';
import { isLocale, localizedPath, workPath, type Locale } from '../../i18n/index.ts';
import { WORK_KEY, enquirySchema } from '../../schemas/contact.ts';

export const prerender = false;

// The contact form's budget: 5000 characters of message can take ~20 KB once encoded.
const MAX_BODY_BYTES = 32_768;
const FORM_OUTCOMES = new Set(['invalid_input', 'rate_limited', 'delivery_failed', 'not_found']);

export const POST: APIRoute = async ({ request, locals, url }) => {
  const form = isFormPost(request);
  let locale: Locale = 'fr';
  let work: string | undefined;
  try {
    const body = form
      ? await readForm(request, MAX_BODY_BYTES)
      : await readJson(request, MAX_BODY_BYTES);
    const claimed = body as { locale?: unknown; work?: unknown } | null;
    if (isLocale(claimed?.locale)) locale = claimed.locale;
    // Only a well-formed key goes into the address sent back: never a path of the sender's.
    if (typeof claimed?.work === 'string' && WORK_KEY.test(claimed.work)) work = claimed.work;
    const input = parseInput(enquirySchema, body);
    await submitEnquiry(
      { db: await getDb(), mailer: getMailer(), siteUrl: import.meta.env.SITE ?? url.origin },
      input,
      { ip: locals.client.address },
    );
    return form ? backToForm(locale, work, 'sent') : Response.json({ ok: true }, { status: 201 });
  } catch (error) {
    const response = errorResponse(error);
    if (!form) return response;
    const code = error instanceof AppError ? error.code : 'internal';
    return backToForm(locale, work, FORM_OUTCOMES.has(code) ? code : 'error');
  }
};

function backToForm(locale: Locale, work: string | undefined, outcome: string): Response {
  const page = work ? workPath(locale, work) : localizedPath(locale, '/gallery');
  const location = work ? `${page}#enquiry-result-${outcome}` : page;
  return new Response(null, { status: 303, headers: { Location: location } });
}
