// The islands' way to the shared cart count (src/stores/cart.ts), without importing it: that
// store lives in the page script, and a module shared with it would cost every catalogue page a
// second request. Signals wait in `window.galerieCart` until the store has started.
import type { CartSignal } from '../stores/cart.ts';

function signal(value: CartSignal): void {
  if (typeof window === 'undefined') return;
  (window.galerieCart ??= []).push(value);
}

/** The count of a cart answer: the badge shows it. */
export const setCartCount = (count: number) => signal({ count });

/** Holds the badge at `count` (refreshes ignored) until called with null. */
export const pinCartCount = (count: number | null) => signal({ pin: count });

/** Asks the server for the count again. */
export const refreshCartCount = () => signal({ refresh: true });
