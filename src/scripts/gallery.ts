// Gallery and work-page behaviour in plain TypeScript: keyboard-operable tabs, the quick view (a
// modal dialog over the gallery that shows the work's own URL, /oeuvres/<key> or /en/works/<key>,
// issue 25), live availability, zoom, and the add-to-cart buttons. A work's page
// ([data-work-page]) uses the same parts minus tabs and overlay.
import { $cartCount, addToCart, AddToCartError, apiErrorText } from '../stores/cart.ts';
import { isLowStock } from '../domain/low-stock.ts';
import { afterLoad } from './after-load.ts';
import { lockScroll, trapFocus, unlockScroll } from './layers.ts';
import { openZoom, type ZoomLabels } from './zoom.ts';

interface Availability {
  id: number;
  available: boolean;
  isSold: boolean;
  stock: number;
}

const root = document.querySelector<HTMLElement>('[data-gallery], [data-work-page]');
if (root) setUpGallery(root);

function setUpGallery(gallery: HTMLElement): void {
  const text = (name: string) => gallery.dataset[name] ?? '';
  const tabs = [...gallery.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const panels = [...gallery.querySelectorAll<HTMLElement>('[role="tabpanel"]')];
  const overlay = gallery.querySelector<HTMLDialogElement>('[data-work-overlay]');
  const overlayBody = overlay?.querySelector<HTMLElement>('[data-overlay-body]');
  const details = gallery.querySelector<HTMLElement>('[data-work-details]');

  // --- Tabs (WAI-ARIA tabs pattern, automatic activation) ---
  const select = (tab: HTMLButtonElement, focus: boolean) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
    }
    for (const panel of panels) panel.hidden = panel.id !== tab.getAttribute('aria-controls');
    if (focus) tab.focus();
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener('click', () => select(tab, false));
    tab.addEventListener('keydown', (event) => {
      const last = tabs.length - 1;
      const target =
        event.key === 'ArrowRight'
          ? tabs[index === last ? 0 : index + 1]
          : event.key === 'ArrowLeft'
            ? tabs[index === 0 ? last : index - 1]
            : event.key === 'Home'
              ? tabs[0]
              : event.key === 'End'
                ? tabs[last]
                : undefined;
      if (!target) return;
      event.preventDefault();
      select(target, true);
    });
  });
  if (tabs[0]) select(tabs[0], false);

  // --- Quick view: the work's <article> moves into the dialog while it is open; the address bar
  // shows the work's own page, so a copied link, a reload or a new tab lands on it ---
  let opened: { article: HTMLElement; opener: HTMLElement | null } | undefined;
  const galleryPath = gallery.dataset['galleryPath'] ?? location.pathname;
  /** The card link whose work page the address names, if any. */
  const cardFor = (pathname: string) =>
    [...gallery.querySelectorAll<HTMLAnchorElement>('a[data-open-work]')].find(
      (link) => link.pathname === pathname,
    );

  const open = (key: string, opener: HTMLElement | null) => {
    const article = document.getElementById(key);
    if (!overlay || !overlayBody || !article?.matches('[data-work]')) return false;
    if (opened) overlay.close();
    overlayBody.append(article);
    overlay.setAttribute('aria-labelledby', `${key}-title`);
    opened = { article, opener };
    overlay.showModal();
    lockScroll();
    overlay.scrollTop = 0;
    return true;
  };

  if (overlay) trapFocus(overlay);
  overlay?.addEventListener('close', () => {
    if (!opened) return;
    for (const status of opened.article.querySelectorAll('[data-add-status]'))
      status.replaceChildren();
    details?.append(opened.article);
    unlockScroll();
    opened.opener?.focus();
    opened = undefined;
    // Closed by the visitor (not by Back): the gallery's address again, leaving no extra entry
    // behind when the work's was ours to push.
    if (cardFor(location.pathname)) {
      if ((history.state as { work?: string } | null)?.work) history.back();
      else history.replaceState(null, '', galleryPath);
    }
  });
  overlay?.querySelector('[data-overlay-close]')?.addEventListener('click', () => overlay.close());

  for (const link of gallery.querySelectorAll<HTMLAnchorElement>('[data-open-work]')) {
    link.addEventListener('click', (event) => {
      const key = link.dataset['openWork'];
      if (!key || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      if (open(key, link)) history.pushState({ work: key }, '', link.pathname);
    });
  }

  // Back and Forward between the gallery and a work opened from it.
  window.addEventListener('popstate', () => {
    const card = cardFor(location.pathname);
    const key = card?.dataset['openWork'];
    if (key) {
      if (opened?.article.id !== key) open(key, card);
    } else if (overlay?.open) {
      overlay.close();
    }
  });

  // --- Zoom: the viewer is built and the larger image fetched on first use only ---
  for (const button of gallery.querySelectorAll<HTMLButtonElement>('[data-zoom]')) {
    button.addEventListener('click', () => {
      const d = button.dataset;
      openZoom(
        {
          src: d['zoomSrc'] ?? '',
          alt: d['zoomAlt'] ?? '',
          width: Number(d['zoomWidth']),
          height: Number(d['zoomHeight']),
          labels: {
            ...(JSON.parse(text('tZoom') || '{}') as Omit<ZoomLabels, 'dialog'>),
            dialog: d['zoomTitle'] ?? '',
          },
          opener: button,
        },
        { trapFocus },
      );
    });
  }

  // --- Add to cart: idle → 'Adding...' → back, with the server's message on refusal ---
  for (const button of gallery.querySelectorAll<HTMLButtonElement>('[data-add-to-cart]')) {
    button.addEventListener('click', () => void add(button));
  }

  const errorMessages = (): Record<string, string> => {
    try {
      return JSON.parse(text('tErrors')) as Record<string, string>;
    } catch {
      return {};
    }
  };

  /** The confirmation of the line added, with the new count and the ways on (AddedToCart.astro). */
  function confirm(block: HTMLElement): void {
    const status = block.querySelector<HTMLElement>('[data-add-status]');
    const template = gallery.querySelector<HTMLTemplateElement>('template[data-add-confirmation]');
    if (!status || !template) return;
    const content = template.content.cloneNode(true) as DocumentFragment;
    const line = content.querySelector<HTMLElement>('[data-line]');
    if (line) line.textContent = block.dataset['line'] ?? '';
    const viewCart = content.querySelector<HTMLElement>('[data-view-cart]');
    if (viewCart)
      viewCart.textContent = (viewCart.dataset['label'] ?? '').replace(
        '{count}',
        String($cartCount.get()),
      );
    content
      .querySelector('[data-continue]')
      ?.addEventListener('click', () =>
        overlay?.open ? overlay.close() : status.replaceChildren(),
      );
    status.replaceChildren(content);
  }

  async function add(button: HTMLButtonElement): Promise<void> {
    const id = Number(button.dataset['artworkId']);
    const block = button.closest<HTMLElement>('[data-variant-block]');
    const message = block?.querySelector<HTMLElement>('[data-add-message]');
    const status = block?.querySelector<HTMLElement>('[data-add-status]');
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    button.textContent = text('tAdding');
    if (message) message.textContent = '';
    status?.replaceChildren();
    try {
      await addToCart(id);
      if (block) confirm(block);
    } catch (error) {
      // The refusal's code in the page's language (data-t-errors), else the spec's add failure.
      if (message)
        message.textContent = apiErrorText(
          errorMessages(),
          error instanceof AddToCartError ? error.error : null,
          document.documentElement.lang,
          text('tAddError'),
        );
    } finally {
      button.removeAttribute('aria-busy');
      button.disabled = false;
      button.textContent = text('tAdd');
      void refreshAvailability();
    }
  }

  // --- Live availability: a work sold or hidden since the build shows as such ---
  const loading = gallery.querySelector<HTMLElement>('[data-gallery-loading]');
  const apply = (works: Availability[]) => {
    const byId = new Map(works.map((w) => [w.id, w]));
    for (const card of gallery.querySelectorAll<HTMLElement>('[data-card]')) {
      const state = byId.get(Number(card.dataset['artworkId']));
      card.hidden = !state?.available;
    }
    for (const price of gallery.querySelectorAll<HTMLElement>('[data-card-price]')) {
      const state = byId.get(Number(price.dataset['artworkId']));
      if (!state) continue;
      const original = price.dataset['type'] === 'original';
      price.textContent =
        original && state.isSold
          ? text('tSold')
          : !original && state.stock === 0
            ? text('tOutOfStock')
            : (price.dataset['price'] ?? '');
    }
    for (const block of gallery.querySelectorAll<HTMLElement>('[data-variant-block]')) {
      const state = byId.get(Number(block.dataset['artworkId']));
      if (!state) continue;
      const button = block.querySelector<HTMLButtonElement>('[data-add-to-cart]');
      block.hidden = !state.available;
      if (block.dataset['type'] === 'original') {
        block
          .querySelector<HTMLElement>('[data-price-line]')
          ?.toggleAttribute('hidden', state.isSold);
        block
          .querySelector<HTMLElement>('[data-sold-notice]')
          ?.toggleAttribute('hidden', !state.isSold);
        if (button) button.hidden = state.isSold;
      } else {
        const low = block.querySelector<HTMLElement>('[data-low-stock]');
        if (low) {
          low.hidden = !isLowStock(state.stock);
          low.textContent = text('tLowStock').replace('{count}', String(state.stock));
        }
        if (button && button.getAttribute('aria-busy') !== 'true') {
          button.disabled = state.stock === 0;
          button.textContent = state.stock === 0 ? text('tOutOfStock') : text('tAdd');
        }
      }
    }
    for (const panel of panels) {
      const visible = panel.querySelectorAll('[data-card]:not([hidden])').length;
      panel.querySelector<HTMLElement>('[data-empty]')?.toggleAttribute('hidden', visible > 0);
    }
  };

  async function refreshAvailability(): Promise<void> {
    loading?.classList.remove('invisible');
    try {
      // Always asked again (a 304 when nothing changed): a work bought a moment ago shows sold.
      const response = await fetch('/api/availability', { cache: 'no-cache' });
      if (response.ok) apply(((await response.json()) as { works: Availability[] }).works);
    } catch {
      // Offline: the prerendered state stays; the cart re-checks everything anyway.
    } finally {
      loading?.classList.add('invisible');
    }
  }
  afterLoad(() => void refreshAvailability());
  // Back to the gallery from the cart or the payment (page restored from the back/forward cache),
  // or back to its tab: what sold meanwhile shows at once.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void refreshAvailability();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refreshAvailability();
  });
}
