// Remembers the visitor's language choice (storefront §1: stored under gallery-language).
export const LANGUAGE_KEY = 'gallery-language';

for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-lang-switch]')) {
  link.addEventListener('click', () => {
    try {
      localStorage.setItem(LANGUAGE_KEY, link.dataset['langSwitch'] ?? 'fr');
    } catch {
      // Storage can be disabled; the link still leads to the other language.
    }
  });
}
