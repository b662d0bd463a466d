// The cart count shared by the navigation badge, the mobile menu, the gallery and the cart,
// checkout and success islands: one nanostore, refreshed from the server, remembered between pages
// for a quick paint; and the gallery's add-to-cart call.
//
// The React islands are bundled apart from the page script that carries this store: a module both
// imported would become a shared chunk, a second round trip on every catalogue page (see
// src/layouts/Base.astro). So islands do not import it; they push signals to `window.galerieCart`
// (src/islands/cart-bridge.ts), which this store drains at start and then listens to.
import { atom } from 'nanostores';

const COUNT_KEY = 'gallery-cart-count';

export const $cartCount = atom<number>(readCached());

function readCached(): number {
  try {
    const value = Number(localStorage.getItem(COUNT_KEY));
    return Number.isInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

$cartCount.listen((count) => {
  try {
    localStorage.setItem(COUNT_KEY, String(count));
  } catch {
    // Storage may be disabled; the badge still shows the live count.
  }
});

// Every cart answer carries the count. A refresh started before such an answer may come back
// after it with the older count: it is dropped when the count was set in the meantime.
let generation = 0;

/** The count from a cart answer (the server's word at that moment). */
export function setCartCount(count: number): void {
  generation++;
  $cartCount.set(count);
}

// The success page shows an empty cart at once, while the server only empties it when the payment
// webhook arrives: until then a refresh must not bring the old count back.
let pinned = false;

/** Holds the count at `count` (refreshes are ignored) until called with null. */
export function pinCartCount(count: number | null): void {
  pinned = count !== null;
  if (count !== null) setCartCount(count);
}

export async function refreshCartCount(): Promise<void> {
  if (pinned) return;
  const started = generation;
  try {
    const response = await fetch('/api/cart/count', { credentials: 'same-origin' });
    if (!response.ok) return;
    const body = (await response.json()) as { count?: unknown };
    if (typeof body.count === 'number' && !pinned && generation === started)
      setCartCount(body.count);
  } catch {
    // Offline: keep the last known count.
  }
}

/** What an island asks of the count: the count of a cart answer, a pin, or a server refresh. */
export type CartSignal = { count: number } | { pin: number | null } | { refresh: true };

declare global {
  interface Window {
    /** Signals queued by islands that ran first, then this store's receiver. */
    galerieCart?: CartSignal[] | { push(signal: CartSignal): void };
  }
}

function receive(signal: CartSignal): void {
  if ('count' in signal) setCartCount(signal.count);
  else if ('pin' in signal) pinCartCount(signal.pin);
  else void refreshCartCount();
}

if (typeof window !== 'undefined') {
  const queued = Array.isArray(window.galerieCart) ? window.galerieCart : [];
  window.galerieCart = { push: receive };
  queued.forEach(receive);
}

/** The badge text: storefront §9 caps it at 9+. */
export function badgeText(count: number): string {
  return count > 9 ? '9+' : String(count);
}

/** An error answer of our JSON endpoints: `{ error: { code, message, fields?, params? } }`. */
export interface ApiError {
  code: string;
  message?: string;
  fields?: Record<string, string>;
  params?: Record<string, string | number>;
}

/**
 * The visitor's text for an API error: `messages['errors.<code>']` with its `{placeholders}`
 * filled from `params`, where `title_fr` / `title_en` give `{title}` in the page's language;
 * `fallback` when the error is unknown or the server could not be reached. (The islands' copy is
 * in src/islands/api.ts: keep both alike.)
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

export class AddToCartError extends Error {
  override name = 'AddToCartError';
  /** The server's refusal; null when it could not be reached. */
  readonly error: ApiError | null;

  constructor(error: ApiError | null) {
    super(error?.message ?? 'network error');
    this.error = error;
  }
}

/**
 * Adds a work to the server-side cart (the server applies every cart rule) and updates the shared
 * count. Throws AddToCartError when refused or unreachable.
 */
export async function addToCart(artworkId: number, quantity = 1): Promise<void> {
  let response: Response;
  try {
    response = await fetch('/api/cart', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ artworkId, quantity }),
    });
  } catch {
    throw new AddToCartError(null);
  }
  const body = (await response.json().catch(() => ({}))) as { count?: unknown; error?: ApiError };
  if (!response.ok) {
    const code = body.error?.code;
    throw new AddToCartError(typeof code === 'string' ? { ...body.error, code } : null);
  }
  if (typeof body.count === 'number') setCartCount(body.count);
  else await refreshCartCount();
}
