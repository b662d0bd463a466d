// The pieces of the account forms (login, signup, forgot / reset password, admin invitation —
// docs/accounts-api.md) that the form kit (./form-kit.tsx) is built from: the JSON call that also
// reads Retry-After, the translation of the answer's errors, and one labelled field. The rules
// themselves are the shared schemas' (src/schemas/accounts.ts).
import { useEffect, useState, type ReactNode } from 'react';
import type { MessageKey } from '../i18n/index.ts';
import type { ApiError } from './api.ts';
import { apiErrorText } from './api.ts';
import type { Translate } from './translate.ts';
import type { Locale, Messages } from './types.ts';

/** Field name → message key of its error (`auth.error.*`, the keys the server sends in `fields`). */
export type FieldErrors = Partial<Record<string, MessageKey>>;

/** A form's text field by name (FormData; the fields are uncontrolled). */
export function fieldValue(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}

export type SendResult<T> =
  { ok: true; data: T } | { ok: false; error: ApiError | null; retryAfterSeconds: number | null };

/** POSTs JSON like callApi (api.ts), keeping the Retry-After of a throttled answer. */
export async function sendJson<T>(url: string, body?: unknown): Promise<SendResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    return { ok: false, error: null, retryAfterSeconds: null };
  }
  const data = (await response.json().catch(() => null)) as { error?: ApiError } | null;
  if (response.ok) {
    return data === null
      ? { ok: false, error: null, retryAfterSeconds: null }
      : { ok: true, data: data as T };
  }
  const retry = Number(response.headers.get('retry-after'));
  const error = data?.error;
  return {
    ok: false,
    error:
      typeof error?.code === 'string'
        ? error
        : { code: response.status >= 500 ? 'internal' : 'rejected' },
    retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null,
  };
}

/**
 * The box text for a failed call: the translated `errors.<code>`; a throttled answer with its
 * wait in seconds; 'An unexpected error occurred' when the server could not be reached or the
 * code is unknown (storefront §8).
 */
export function failureText(
  t: Translate,
  messages: Messages,
  locale: Locale,
  error: ApiError | null,
  retryAfterSeconds: number | null,
): string {
  if (error?.code === 'rate_limited' && retryAfterSeconds !== null)
    return t('auth.rateLimitedSeconds', { seconds: retryAfterSeconds });
  return apiErrorText(messages, error, locale, t('errors.internal'));
}

/** Puts the keyboard on the first field with an error, in the form's order. */
export function focusFirstError(
  form: HTMLFormElement | null,
  order: readonly string[],
  errors: FieldErrors,
) {
  const first = order.find((name) => errors[name]);
  if (!first || !form) return;
  const control = form.elements.namedItem(first);
  if (control instanceof HTMLElement) control.focus();
}

/** Until hydrated, submit buttons wait: a click would only post the bare HTML form. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const CONTROL =
  'mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2 aria-[invalid=true]:border-red-700';

interface FieldProps {
  /** The form's id prefix: ids stay unique if two forms ever share a page. */
  form: string;
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  autoComplete: string;
  error?: string | undefined;
  hint?: string | undefined;
  maxLength?: number | undefined;
  /** Called on input: the field's error goes as soon as it is edited. */
  onEdit: (name: string) => void;
}

/** A required text field with its label, hint and error tied to it (aria-describedby). */
export function AuthField(props: FieldProps) {
  const { form, name, label, type, autoComplete, error, hint, maxLength, onEdit } = props;
  const id = `${form}-${name}`;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return (
    <div>
      <label htmlFor={id} className="font-medium">
        {label}
        <span aria-hidden="true" className="text-red-700">
          {' '}
          *
        </span>
      </label>
      <input
        id={id}
        name={name}
        type={type}
        required
        aria-required
        autoComplete={autoComplete}
        maxLength={maxLength}
        spellCheck={type === 'email' ? false : undefined}
        autoCapitalize={type === 'text' ? undefined : 'none'}
        inputMode={type === 'email' ? 'email' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
        onChange={() => onEdit(name)}
        className={CONTROL}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-black/70">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** The error box (red, role=alert) — present but empty until there is something to say. */
export function ErrorBox({ text }: { text: string }) {
  return (
    <p
      role="alert"
      className="rounded border border-red-700 bg-red-50 p-3 text-sm text-red-900 empty:hidden"
    >
      {text}
    </p>
  );
}

/** The success / progress line (role=status), present from the start so it is announced. */
export function StatusLine({ children }: { children: ReactNode }) {
  return (
    <div role="status" aria-live="polite">
      {children}
    </div>
  );
}

export const SUBMIT_BUTTON =
  'min-h-12 w-full rounded bg-ink px-6 font-medium text-white disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-wait aria-disabled:opacity-70';

export const SUCCESS_BOX = 'rounded border border-green-800 bg-green-50 p-4 text-green-900';
