// The cart page's island (storefront §2 Cart, §4, §8): rendered on the server from the visitor's
// cart, so it paints without a loading state. Every change goes to the cart API and the island
// re-renders from the cart it answers; the shared count follows each answer.
import { useEffect, useRef, useState } from 'react';
import { formatPrice } from '../i18n/index.ts';
import type { MessageKey } from '../i18n/index.ts';
import { apiErrorText, callApi, type ApiResult } from './api.ts';
import { setCartCount } from './cart-bridge.ts';
import { HoldNotice } from './HoldNotice.tsx';
import { LineImage } from './LineImage.tsx';
import { PromoBox } from './PromoBox.tsx';
import { CartTotals } from './Totals.tsx';
import { translator } from './translate.ts';
import type { CartAnswer, CartData, CartLineData, Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  cart: CartData;
  messages: Messages;
  links: {
    gallery: string;
    checkout: string;
    /** A work's page without its key: '/oeuvres/' or '/en/works/' (issue 25). */
    work: string;
  };
}

export default function CartView({ locale, cart: initial, messages, links }: Props) {
  const t = translator(messages);
  const [cart, setCart] = useState(initial);
  const [removed, setRemoved] = useState(initial.removed);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  // The server's count wins over the one remembered in the browser.
  useEffect(() => setCartCount(initial.count), [initial.count]);

  function show(next: CartData) {
    setCart(next);
    setCartCount(next.count);
    if (next.removed.length > 0) setRemoved((before) => [...before, ...next.removed]);
  }

  const errorText = (result: ApiResult<CartAnswer>, failure: MessageKey) =>
    result.ok ? '' : apiErrorText(messages, result.error, locale, t(failure));

  /** One change: sent, then the cart shown as answered; on refusal the cart is read again. */
  async function change(
    request: () => Promise<ApiResult<CartAnswer>>,
    failure: MessageKey,
  ): Promise<string | null> {
    if (busy) return null;
    setBusy(true);
    setError('');
    setStatus('');
    const result = await request();
    if (result.ok) {
      show(result.data.cart);
      setStatus(t('cart.updated'));
    } else if (result.error) {
      // Refused (sold meanwhile, stock lowered…): show the cart as it is now.
      const fresh = await callApi<CartAnswer>('GET', '/api/cart');
      if (fresh.ok) show(fresh.data.cart);
    }
    setBusy(false);
    return result.ok ? null : errorText(result, failure);
  }

  async function setQuantity(line: CartLineData, quantity: number) {
    if (quantity < 1 || quantity > line.maxQuantity) return;
    const failure = await change(
      () => callApi('PATCH', `/api/cart/lines/${line.id}`, { quantity }),
      'cart.error.update',
    );
    if (failure) setError(failure);
  }

  async function remove(line: CartLineData) {
    const failure = await change(
      () => callApi('DELETE', `/api/cart/lines/${line.id}`),
      'cart.error.delete',
    );
    if (failure) setError(failure);
    // The line and its button are gone: focus goes back to the top of the list.
    else heading.current?.focus();
  }

  const removedNotice = removed.length > 0 && (
    <p role="status" className="mb-6 rounded border border-accent/40 bg-accent/5 p-4 text-sm">
      {t('cart.removedSold', { titles: removed.map((title) => title[locale]).join(', ') })}
    </p>
  );
  const live = (
    <>
      <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800 empty:hidden">
        {error}
      </p>
      <p aria-live="polite" className="sr-only">
        {status}
      </p>
    </>
  );

  if (cart.lines.length === 0) {
    return (
      <div>
        {removedNotice}
        {live}
        <div className="rounded-lg border border-black/10 bg-white/60 px-6 py-12 text-center">
          <h2 ref={heading} tabIndex={-1} className="font-serif text-2xl focus:outline-none">
            {t('cart.empty')}
          </h2>
          <p className="mt-2 text-black/70">{t('cart.emptyText')}</p>
          <a
            href={links.gallery}
            className="mt-6 inline-flex min-h-11 items-center rounded bg-ink px-6 text-white"
          >
            {t('cart.browse')}
          </a>
        </div>
      </div>
    );
  }

  const money = (cents: number) => formatPrice(locale, cents, cart.currency);
  const stepper =
    'inline-flex h-11 w-11 items-center justify-center rounded border border-black/25 text-lg aria-disabled:cursor-not-allowed aria-disabled:opacity-40';

  return (
    <div>
      {removedNotice}
      {live}
      <div className="grid gap-10 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="cart-lines-title">
          <h2
            id="cart-lines-title"
            ref={heading}
            tabIndex={-1}
            className="border-b border-black/15 pb-3 text-lg font-semibold focus:outline-none"
          >
            {t(cart.count === 1 ? 'cart.count.one' : 'cart.count.other', { count: cart.count })}
          </h2>
          <ul>
            {cart.lines.map((line) => {
              const title = line.title[locale];
              const original = line.type === 'original';
              return (
                <li key={line.id} className="flex gap-4 border-b border-black/10 py-6">
                  <LineImage image={line.image} className="h-32 w-24 rounded sm:h-40 sm:w-32" />
                  <div className="flex min-w-0 flex-1 flex-col gap-1">
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <h3 className="font-serif text-xl">
                        <a
                          href={`${links.work}${encodeURIComponent(line.slug)}`}
                          className="hover:underline"
                        >
                          {title}
                        </a>
                      </h3>
                      <p className="font-medium">{money(line.lineTotalCents)}</p>
                    </div>
                    {original && (
                      <p>
                        <span className="inline-block rounded-full bg-ink px-2 py-0.5 text-xs font-semibold text-white">
                          {t('artwork.type.original')}
                        </span>
                      </p>
                    )}
                    <p className="text-sm text-black/70">
                      {line.technique[locale]} · {line.dimensions}
                    </p>
                    {line.quantity > 1 && (
                      <p className="text-sm text-black/70">
                        {t('cart.unitPrice', { price: money(line.unitPriceCents) })}
                      </p>
                    )}
                    {line.heldUntil && (
                      <HoldNotice until={line.heldUntil} locale={locale} t={t} className="mt-1" />
                    )}
                    <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-2">
                      {original ? (
                        <p className="text-sm">{t('cart.uniqueCopy')}</p>
                      ) : (
                        <div
                          role="group"
                          aria-label={t('cart.quantityOf', { title })}
                          className="flex items-center gap-2"
                        >
                          <button
                            type="button"
                            className={stepper}
                            aria-label={t('cart.decrease', { title })}
                            aria-disabled={line.quantity <= 1 || busy || undefined}
                            onClick={() => void setQuantity(line, line.quantity - 1)}
                          >
                            <span aria-hidden="true">−</span>
                          </button>
                          <span className="min-w-8 text-center tabular-nums">
                            <span className="sr-only">{t('cart.quantity')} </span>
                            {line.quantity}
                          </span>
                          <button
                            type="button"
                            className={stepper}
                            aria-label={t('cart.increase', { title })}
                            aria-disabled={line.quantity >= line.maxQuantity || busy || undefined}
                            title={
                              line.quantity >= line.maxQuantity ? t('cart.maxReached') : undefined
                            }
                            onClick={() => void setQuantity(line, line.quantity + 1)}
                          >
                            <span aria-hidden="true">+</span>
                          </button>
                        </div>
                      )}
                      <button
                        type="button"
                        onClick={() => void remove(line)}
                        aria-label={t('cart.removeLabel', { title })}
                        aria-disabled={busy || undefined}
                        // No right padding: the word ends where the price above ends.
                        className="min-h-11 pl-3 text-sm underline aria-disabled:cursor-wait aria-disabled:opacity-60"
                      >
                        {t('cart.remove')}
                      </button>
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>

        <section
          aria-labelledby="cart-summary-title"
          className="h-fit space-y-6 rounded-lg border border-black/10 bg-white p-6"
        >
          <h2 id="cart-summary-title" className="font-serif text-2xl">
            {t('cart.summary')}
          </h2>
          <PromoBox
            t={t}
            promo={cart.promo}
            busy={busy}
            onApply={(code) =>
              change(() => callApi('POST', '/api/cart/promo', { code }), 'cart.error.update')
            }
            onRemove={() => change(() => callApi('DELETE', '/api/cart/promo'), 'cart.error.update')}
          />
          <CartTotals cart={cart} locale={locale} t={t} />
          <div className="flex flex-col gap-3">
            <a
              href={links.checkout}
              className="inline-flex min-h-11 items-center justify-center rounded bg-ink px-6 text-white"
            >
              {t('cart.checkout')}
            </a>
            <a
              href={links.gallery}
              className="inline-flex min-h-11 items-center justify-center underline"
            >
              {t('cart.continue')}
            </a>
          </div>
        </section>
      </div>
    </div>
  );
}
