// The success page marks this tab when an order is confirmed; the account page, opened next in
// the same tab by any route (not only its ?from=success link), then reloads the orders once
// (storefront §9: the post-payment reload). sessionStorage: the mark dies with the tab.
export const ORDER_PAID_MARK = 'galerie-order-paid';

/** Called by the success page once the order is paid. */
export function markOrderPaid(): void {
  try {
    sessionStorage.setItem(ORDER_PAID_MARK, String(Date.now()));
  } catch {
    // Storage refused: the account page's ?from=success link still tells.
  }
}
