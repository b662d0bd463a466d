// Full-screen layers (mobile menu, artwork overlay): page scroll locked while one is open (nested
// locks count) and keyboard focus kept inside it.
let locks = 0;

export function lockScroll(): void {
  if (locks++ === 0) document.documentElement.classList.add('scroll-locked');
}

export function unlockScroll(): void {
  if (locks > 0 && --locks === 0) document.documentElement.classList.remove('scroll-locked');
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Tab and Shift+Tab cycle within the layer: a modal <dialog> alone would let focus leave for the
 * browser's own controls after the last element.
 */
export function trapFocus(layer: HTMLElement): void {
  layer.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const items = [...layer.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => !el.hidden && el.getClientRects().length > 0,
    );
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !layer.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !layer.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  });
}
