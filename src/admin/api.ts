// The back office's JSON calls: same-origin, with the error's code, message and details kept so a
// screen can show the spec's texts ('Erreur: {message}') and recover from a version conflict.
export interface AdminError {
  code: string;
  message: string;
  fields?: Record<string, string>;
  details?: Record<string, unknown>;
}

/** The back office is French: what each error code means to the owner ('Erreur: …', §8). */
const FRENCH: Record<string, string> = {
  not_found: 'élément introuvable (il a peut-être été supprimé)',
  invalid_input: 'certains champs sont invalides',
  invalid_json: 'demande illisible',
  unsupported_media_type: 'format de demande non accepté',
  payload_too_large: 'fichier trop lourd',
  forbidden: 'accès refusé',
  forbidden_origin: 'accès refusé',
  unauthorized: 'session expirée, reconnectez-vous',
  rate_limited: 'trop de demandes, réessayez dans un instant',
  version_conflict: 'modifié entre-temps, rechargez',
  publish_unavailable: 'publication indisponible',
  internal: 'erreur interne du serveur',
  reauth_required: 'identité non confirmée, action annulée',
  invalid_second_factor: 'code incorrect ou déjà utilisé',
  account_exists: 'cette adresse a déjà un compte',
};

export type AdminResult<T> = { ok: true; data: T } | { ok: false; error: AdminError };

/**
 * One JSON call. An action that needs a re-authentication (`reauth_required`) opens the dialog
 * that asks for it (./reauth.tsx) and is sent again once it is given; cancelled, it fails.
 */
export async function adminCall<T>(
  method: string,
  url: string,
  body?: unknown,
): Promise<AdminResult<T>> {
  const result = await send<T>(method, url, body);
  if (result.ok || result.error.code !== 'reauth_required') return result;
  const { askReauth } = await import('./reauth.tsx');
  const asked = result.error.details?.['method'] === 'code' ? 'code' : 'password';
  return (await askReauth(asked)) ? send<T>(method, url, body) : result;
}

async function send<T>(method: string, url: string, body?: unknown): Promise<AdminResult<T>> {
  try {
    const response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const data = (await response.json().catch(() => null)) as { error?: AdminError } | null;
    if (response.ok) return { ok: true, data: data as T };
    const error = data?.error ?? { code: 'internal', message: `HTTP ${response.status}` };
    // 'rejected' carries its own French sentence (e.g. 'Impossible de déplacer vers le bas').
    const message = error.code === 'rejected' ? error.message : FRENCH[error.code];
    return { ok: false, error: { ...error, message: message ?? error.message } };
  } catch {
    return { ok: false, error: { code: 'network', message: 'serveur injoignable' } };
  }
}

/** Tells the publish pill something changed (kept for screens not yet on the query cache). */
export { nudgePublish as announceChange } from './publish-store.ts';

export { frenchDate } from './ui/format.ts';
