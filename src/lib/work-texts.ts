// The texts src/scripts/gallery.ts needs on a page that shows works (the gallery, a work's page),
// as the data-t-* attributes of its root: the script carries no dictionary of its own.
import { t, type Locale, type MessageKey } from '../i18n/index.ts';

// The messages of the cart's refusals (docs/commerce-api.md), for the add-to-cart buttons.
const CART_ERRORS = [
  'errors.original_limit',
  'errors.original_in_cart',
  'errors.original_quantity',
  'errors.out_of_stock',
  'errors.unavailable',
  'errors.not_found',
  'errors.rate_limited',
  'errors.internal',
] as const satisfies readonly MessageKey[];

export function workScriptTexts(locale: Locale): Record<string, string> {
  return {
    'data-t-sold': t(locale, 'gallery.sold'),
    'data-t-low-stock': t(locale, 'gallery.lowStock'),
    'data-t-add-error': t(locale, 'gallery.addError'),
    'data-t-adding': t(locale, 'gallery.adding'),
    'data-t-add': t(locale, 'gallery.addToCart'),
    'data-t-out-of-stock': t(locale, 'gallery.outOfStock'),
    'data-t-errors': JSON.stringify(Object.fromEntries(CART_ERRORS.map((k) => [k, t(locale, k)]))),
    'data-t-zoom': JSON.stringify({
      zoomIn: t(locale, 'gallery.zoom.in'),
      zoomOut: t(locale, 'gallery.zoom.out'),
      reset: t(locale, 'gallery.zoom.reset'),
      close: t(locale, 'gallery.zoom.close'),
      loading: t(locale, 'gallery.zoom.loading'),
    }),
  };
}
