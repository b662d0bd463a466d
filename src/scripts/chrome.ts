// Behaviour shared by every page, in plain TypeScript (no framework runtime on catalogue pages):
// language choice, mobile menu, cart badge, promo banner and cookie banner.
import { $cartCount, badgeText, refreshCartCount } from '../stores/cart.ts';
import { afterLoad } from './after-load.ts';
import { lockScroll, trapFocus, unlockScroll } from './layers.ts';

// storefront §1 / §9: storage keys and delays.
const LANGUAGE_KEY = 'gallery-language';
const CONSENT_KEY = 'cookie-consent';
const COOKIE_BANNER_DELAY_MS = 2000;
const PROMO_SCROLL_PX = 50;

function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage can be disabled; nothing else depends on it.
  }
}

function recall(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function recallSession(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

// Language: the switch is a plain link to the same page in the other language.
for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-lang-switch]')) {
  link.addEventListener('click', () => remember(LANGUAGE_KEY, link.dataset['langSwitch'] ?? 'fr'));
}

// Mobile menu: a modal dialog keeps focus inside and closes on Escape by itself.
const menu = document.querySelector<HTMLDialogElement>('#mobile-menu');
const menuButton = document.querySelector<HTMLButtonElement>('[data-menu-open]');
if (menu && menuButton) {
  trapFocus(menu);
  menuButton.addEventListener('click', () => {
    menu.showModal();
    lockScroll();
  });
  menu.querySelector('[data-menu-close]')?.addEventListener('click', () => menu.close());
  menu.addEventListener('close', () => {
    unlockScroll();
    menuButton.focus();
  });
  menu.addEventListener('click', (event) => {
    if (event.target === menu) menu.close();
  });
}

// Cart badge and menu count, live from the cart store.
const badge = document.querySelector<HTMLElement>('[data-cart-badge]');
const cartLink = document.querySelector<HTMLElement>('[data-cart-link]');
// The mobile menu's count and the gallery overlay's (the overlay covers the header's badge).
const counts = document.querySelectorAll<HTMLElement>('[data-cart-count]');
$cartCount.subscribe((count) => {
  if (badge) {
    badge.textContent = badgeText(count);
    badge.hidden = count === 0;
  }
  for (const element of counts) element.textContent = badgeText(count);
  if (cartLink?.dataset['label']) {
    cartLink.setAttribute(
      'aria-label',
      cartLink.dataset['label'].replace('{count}', String(count)),
    );
  }
});
afterLoad(() => void refreshCartCount());

// Promo banner: shown once the page has scrolled more than 50 px, until closed for the visit.
const promo = document.querySelector<HTMLElement>('[data-promo-banner]');
if (promo && recallSession('promo-closed') !== '1') {
  const onScroll = () => {
    promo.hidden = window.scrollY <= PROMO_SCROLL_PX;
  };
  window.addEventListener('scroll', onScroll, { passive: true });
  onScroll();
  promo.querySelector('[data-promo-close]')?.addEventListener('click', () => {
    window.removeEventListener('scroll', onScroll);
    promo.hidden = true;
    try {
      sessionStorage.setItem('promo-closed', '1');
    } catch {
      // Without storage the banner simply comes back on the next page.
    }
  });
}

// Cookie banner: after 2 s when no choice is stored; Close counts as Decline.
const cookieBanner = document.querySelector<HTMLElement>('[data-cookie-banner]');
if (cookieBanner && recall(CONSENT_KEY) === null) {
  window.setTimeout(() => {
    cookieBanner.hidden = false;
  }, COOKIE_BANNER_DELAY_MS);
  for (const button of cookieBanner.querySelectorAll<HTMLButtonElement>('[data-cookie-choice]')) {
    button.addEventListener('click', () => {
      const accepted = button.dataset['cookieChoice'] === 'accept';
      remember(
        CONSENT_KEY,
        JSON.stringify({ accepted, timestamp: new Date().toISOString(), version: '1.0' }),
      );
      if (!accepted) deleteNonEssentialCookies();
      cookieBanner.hidden = true;
    });
  }
}

/** storefront §4: declining deletes every cookie whose name does not start with essential_. */
function deleteNonEssentialCookies(): void {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (!name || name.startsWith('essential_')) continue;
    const expired = `${encodeURIComponent(name)}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    document.cookie = expired;
    document.cookie = `${expired}; domain=${location.hostname}`;
  }
}
