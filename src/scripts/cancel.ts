// The cancel page (issue 25 §9): the payment page's "Cancel and return" link names the checkout
// (`?order=<id>`); this asks the server to give its works back at once (POST /api/checkout/cancel,
// which only the cart that started it may do), then says so. Without JavaScript, the works come
// back when the payment session expires, as before.
const cancelStatus = document.querySelector<HTMLElement>('[data-cancel-status]');
const releasedNote = document.querySelector<HTMLElement>('[data-cancel-released]');
const cancelledOrder = new URLSearchParams(window.location.search).get('order');

if (cancelStatus && releasedNote && cancelledOrder)
  void release(cancelStatus, releasedNote, cancelledOrder);

async function release(box: HTMLElement, note: HTMLElement, orderId: string): Promise<void> {
  try {
    const response = await fetch('/api/checkout/cancel', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ order: orderId }),
    });
    const answer = (await response.json()) as { released?: unknown };
    // Shown inside the status region, so it is announced.
    if (response.ok && answer.released === true) note.hidden = false;
  } catch {
    // Unreachable: the session expires by itself and gives the works back then.
  }
  box.dataset['settled'] = '';
}

export {};
