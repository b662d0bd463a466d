// The contact form's behaviour (storefront §4: send message → sending → message sent for about
// 3 s → reset), and the same for "Ask about this work" on a work's page (issue 25): a form marked
// data-contact-form says which schema checks it (data-schema) and how its ids start
// (data-prefix). Validates with the same schema as the endpoint, sends JSON, and on any failure
// says why and keeps everything typed. Texts come from the form's data-messages (rendered
// server-side).
//
// The schema (zod/mini, ≈ 5.5 KB gzip) loads when the visitor first reaches into the form, not
// with the page: the page's JavaScript budget (bench/budgets.json) covers what loads up front.
import type { ContactField } from '../schemas/contact.ts';

const SENT_STATE_MS = 3000;
const REQUEST_TIMEOUT_MS = 30_000;
/** The visible fields a form may have, in the order errors are focused. */
const FIELDS = ['name', 'email', 'subject', 'message'] as const satisfies readonly ContactField[];

type SchemaModule = typeof import('../schemas/contact.ts');
let schemaModule: Promise<SchemaModule | undefined> | undefined;
/** The shared schema, or undefined if it cannot load (the server still checks everything). */
const loadSchema = () =>
  (schemaModule ??= import('../schemas/contact.ts').catch(() => {
    schemaModule = undefined;
    return undefined;
  }));

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-contact-form]'))
  setUpContactForm(form);

function setUpContactForm(form: HTMLFormElement): void {
  const messages = JSON.parse(form.dataset['messages'] ?? '{}') as Record<string, string>;
  const text = (key: string) => messages[key] ?? messages['contact.error.generic'] ?? key;
  const prefix = form.dataset['prefix'] ?? 'contact';
  const enquiry = form.dataset['schema'] === 'enquiry';
  const button = form.querySelector<HTMLButtonElement>('[data-contact-submit]');
  const status = form.querySelector<HTMLElement>('[data-contact-status]');
  const control = (name: string) =>
    form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null;
  const fields = FIELDS.filter((name) => control(name) !== null);
  let busy = false;

  // Our messages, in the page's language, replace the browser's validation bubbles.
  form.noValidate = true;
  form.addEventListener('focusin', () => void loadSchema(), { once: true });

  const say = (message: string, tone: 'ok' | 'error' | '') => {
    if (!status) return;
    status.textContent = message;
    if (tone) status.dataset['tone'] = tone;
    else delete status.dataset['tone'];
  };
  const setButton = (key: string, pending: boolean) => {
    if (!button) return;
    button.textContent = text(key);
    // aria-disabled rather than disabled: the button keeps focus while the request runs.
    if (pending) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
  };
  const showFieldError = (name: string, key: string | undefined) => {
    const input = control(name);
    const slot = document.getElementById(`${prefix}-${name}-error`);
    if (slot) slot.textContent = key ? text(key) : '';
    if (key) input?.setAttribute('aria-invalid', 'true');
    else input?.removeAttribute('aria-invalid');
  };
  /** Shows the errors it is given and focuses the first; true when a field had one. */
  const showErrors = (errors: Partial<Record<string, string>>): boolean => {
    let first: HTMLElement | null = null;
    for (const name of fields) {
      showFieldError(name, errors[name]);
      if (errors[name]) first ??= control(name);
    }
    first?.focus();
    return first !== null;
  };
  const fail = (key: string) => {
    busy = false;
    setButton('contact.form.send', false);
    say(text(key), 'error');
  };

  for (const name of fields) {
    control(name)?.addEventListener('input', () => showFieldError(name, undefined));
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    void submit();
  });

  async function submit(): Promise<void> {
    const data: unknown = Object.fromEntries(new FormData(form));
    let body = data;
    const schema = await loadSchema();
    if (schema) {
      const parsed = (enquiry ? schema.enquirySchema : schema.contactSchema).safeParse(data);
      if (!parsed.success) {
        const hasFieldError = showErrors(schema.fieldErrors(parsed.error));
        fail(hasFieldError ? 'contact.error.fields' : 'contact.error.invalid');
        return;
      }
      body = parsed.data;
    }
    showErrors({});
    setButton('contact.form.sending', true);
    say('', '');
    form.setAttribute('aria-busy', 'true');
    let failure: string | undefined;
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) failure = await failureMessage(response);
    } catch {
      failure = 'contact.error.network';
    }
    form.removeAttribute('aria-busy');
    if (failure) {
      fail(failure);
      return;
    }
    setButton('contact.form.sent', true);
    say(text('contact.form.sentStatus'), 'ok');
    window.setTimeout(() => {
      form.reset();
      busy = false;
      setButton('contact.form.send', false);
    }, SENT_STATE_MS);
  }

  /** The message key for a refused request; field errors from the server are shown in place. */
  async function failureMessage(response: Response): Promise<string> {
    const payload = (await response.json().catch(() => null)) as {
      error?: { code?: string; fields?: Record<string, string> };
    } | null;
    const error = payload?.error;
    switch (error?.code) {
      case 'invalid_input':
        return showErrors(error.fields ?? {}) ? 'contact.error.fields' : 'contact.error.invalid';
      case 'rate_limited':
        return 'contact.error.rateLimited';
      case 'delivery_failed':
        return 'contact.error.delivery';
      case 'not_found':
        // The work asked about is no longer on sale (an enquiry only).
        return 'enquiry.error.work';
      default:
        return 'contact.error.generic';
    }
  }
}
