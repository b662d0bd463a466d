// The money part of a cart or order summary (storefront §2 Cart): subtotal, the promo's discount,
// shipping ('Gratuite' / 'Free' at zero) and total, all as computed by the server.
import { formatPrice } from '../i18n/index.ts';
import type { Translate } from './translate.ts';
import type { CartData, Locale } from './types.ts';

interface Props {
  cart: CartData;
  locale: Locale;
  t: Translate;
}

export function Totals({ cart, locale, t }: Props) {
  const { totals, promo, shipping } = cart;
  const money = (cents: number) => formatPrice(locale, cents);
  const row = 'flex items-baseline justify-between gap-4';
  return (
    <>
      <dl className="space-y-2 text-sm">
        <div className={row}>
          <dt>{t('cart.subtotal')}</dt>
          <dd>{money(totals.subtotalCents)}</dd>
        </div>
        {promo && totals.discountCents > 0 && (
          <div className={`${row} text-green-800`}>
            <dt>{t('cart.discount', { code: promo.code, percent: promo.percent })}</dt>
            <dd>−{money(totals.discountCents)}</dd>
          </div>
        )}
        <div className={row}>
          <dt>{t('cart.shipping')}</dt>
          <dd>
            {totals.shippingCents === 0 ? t('cart.shippingFree') : money(totals.shippingCents)}
          </dd>
        </div>
        <div className={`${row} border-t border-black/15 pt-3 text-base font-semibold`}>
          <dt>{t('cart.total')}</dt>
          <dd>{money(totals.totalCents)}</dd>
        </div>
      </dl>
      {totals.shippingCents > 0 && shipping.freeThresholdCents > 0 && (
        <p className="mt-2 text-xs text-black/70">
          {t('cart.freeShippingFrom', { amount: money(shipping.freeThresholdCents) })}
        </p>
      )}
    </>
  );
}
