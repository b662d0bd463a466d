// The cart count shared by the navigation badge, the mobile menu, the gallery and (later) the
// cart page: one nanostore, refreshed from the server, remembered between pages for a quick paint.
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

export async function refreshCartCount(): Promise<void> {
  try {
    const response = await fetch('/api/cart/count', { credentials: 'same-origin' });
    if (!response.ok) return;
    const body = (await response.json()) as { count?: unknown };
    if (typeof body.count === 'number') $cartCount.set(body.count);
  } catch {
    // Offline: keep the last known count.
  }
}

/** The badge text: storefront §9 caps it at 9+. */
export function badgeText(count: number): string {
  return count > 9 ? '9+' : String(count);
}

export class AddToCartError extends Error {
  override name = 'AddToCartError';
}

/**
 * Adds one unit of a work to the server-side cart (the server applies every cart rule) and
 * updates the shared count. Throws AddToCartError with the server's message when refused.
 */
export async function addToCart(artworkId: number, quantity = 1): Promise<void> {
  const response = await fetch('/api/cart', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ artworkId, quantity }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    count?: unknown;
    error?: { message?: unknown };
  };
  if (!response.ok) {
    throw new AddToCartError(typeof body.error?.message === 'string' ? body.error.message : '');
  }
  if (typeof body.count === 'number') $cartCount.set(body.count);
  else await refreshCartCount();
}
