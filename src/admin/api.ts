// The back office's JSON calls: same-origin, with the error's code, message and details kept so a
// screen can show the spec's texts ('Erreur: {message}') and recover from a version conflict.
export interface AdminError {
  code: string;
  message: string;
  fields?: Record<string, string>;
  details?: Record<string, unknown>;
}

export type AdminResult<T> = { ok: true; data: T } | { ok: false; error: AdminError };

export async function adminCall<T>(
  method: string,
  url: string,
  body?: unknown,
): Promise<AdminResult<T>> {
  try {
    const response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const data = (await response.json().catch(() => null)) as { error?: AdminError } | null;
    if (response.ok) return { ok: true, data: data as T };
    return {
      ok: false,
      error: data?.error ?? { code: 'internal', message: `HTTP ${response.status}` },
    };
  } catch (error) {
    return { ok: false, error: { code: 'network', message: (error as Error).message || 'réseau' } };
  }
}

/** Tells the shell something changed: it shows the publish status at once. */
export function announceChange(): void {
  window.dispatchEvent(new Event('admin:changed'));
}

export const euros = (cents: number, currency = 'EUR') =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency }).format(cents / 100);

export const frenchDate = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short' }).format(
    new Date(iso),
  );
