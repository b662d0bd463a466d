// The islands' JSON client of the cart, checkout and order endpoints (docs/commerce-api.md) and
// the translation of their error codes. Islands keep their own copy rather than share the page
// script's (src/stores/cart.ts; see src/islands/cart-bridge.ts for why).
import type { ApiError } from '../stores/cart.ts';

export type { ApiError };

/** The answer of a call: its JSON body, or the error (null when the server could not be reached). */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError | null };

export async function callApi<T>(
  method: string,
  url: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    return { ok: false, error: null };
  }
  const data = (await response.json().catch(() => null)) as { error?: ApiError } | null;
  if (response.ok)
    return data === null ? { ok: false, error: null } : { ok: true, data: data as T };
  const error = data?.error;
  return {
    ok: false,
    error:
      typeof error?.code === 'string'
        ? error
        : { code: response.status >= 500 ? 'internal' : 'rejected' },
  };
}

/**
 * The visitor's text for an API error: `messages['errors.<code>']` with its `{placeholders}`
 * filled from `params`, where `title_fr` / `title_en` give `{title}` in the page's language;
 * `fallback` when the error is unknown or the server could not be reached. (Same as
 * `apiErrorText` in src/stores/cart.ts, used by the gallery.)
 */
export function apiErrorText(
  messages: Readonly<Record<string, string>>,
  error: ApiError | null,
  locale: string,
  fallback: string,
): string {
  const template = error ? messages[`errors.${error.code}`] : undefined;
  if (!error || !template) return fallback;
  const params: Record<string, string | number> = { ...error.params };
  params['title'] ??= params[`title_${locale}`] ?? params['title_fr'] ?? '';
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => String(params[name] ?? ''));
}
