// POST /api/contact: the contact form's message (storefront §3). JSON in, 201 `{ ok: true }` out;
// errors as `{ error: { code, message, fields? } }` (api/http/errors.ts). A form posted without
// JavaScript gets the same checks and a 303 back to the page's #contact-result-<outcome>; it keeps
// its own handler for that second path, with the endpoint helper's parsing.
import type { APIRoute } from 'astro';
import { submitContactMessage } from '#api/contact/index.ts';
import { getDb } from '#api/db/context.ts';
import { parseInput } from '#api/http/endpoint.ts';
import { AppError, errorResponse, isFormPost, readForm, readJson } from '#api/http/errors.ts';
import { getMailer } from '#api/mail/index.ts';
import { isLocale, localizedPath, type Locale } from '../../i18n/index.ts';
import { contactSchema } from '../../schemas/contact.ts';

export const prerender = false;

// 5000 characters of message can take ~20 KB once UTF-8 encoded and JSON escaped.
const MAX_BODY_BYTES = 32_768;
const FORM_OUTCOMES = new Set(['invalid_input', 'rate_limited', 'delivery_failed']);

export const POST: APIRoute = async ({ request, locals }) => {
  const form = isFormPost(request);
  let locale: Locale = 'fr';
  try {
    const body = form
      ? await readForm(request, MAX_BODY_BYTES)
      : await readJson(request, MAX_BODY_BYTES);
    const claimed = (body as { locale?: unknown } | null)?.locale;
    if (isLocale(claimed)) locale = claimed;
    const input = parseInput(contactSchema, body);
    await submitContactMessage({ db: await getDb(), mailer: getMailer() }, input, {
      ip: locals.client.address,
    });
    return form ? backToForm(locale, 'sent') : Response.json({ ok: true }, { status: 201 });
  } catch (error) {
    // Built for form posts too: it logs what is unexpected.
    const response = errorResponse(error);
    if (!form) return response;
    const code = error instanceof AppError ? error.code : 'internal';
    return backToForm(locale, FORM_OUTCOMES.has(code) ? code : 'error');
  }
};

function backToForm(locale: Locale, outcome: string): Response {
  const location = `${localizedPath(locale, '/contact')}#contact-result-${outcome}`;
  return new Response(null, { status: 303, headers: { Location: location } });
}
