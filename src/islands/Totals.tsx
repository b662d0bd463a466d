// The money part of a cart or order summary (storefront §2 Cart): subtotal, the promo's discount,
// shipping ('Gratuite' / 'Free' at zero) and total, all as computed by the server.
import { formatPrice } from '../i18n/index.ts';
import type { Translate } from './translate.ts';
import type { CartData, Locale } from './types.ts';

type Amounts = CartData['totals'];

interface Props {
  totals: Amounts;
  /** The discount line's label ('Remise (SASHA25, -15 %)'), when there is a discount. */
  discountLabel: string | null;
  /** A line under the totals (the cart's free-shipping threshold). */
  note?: string | undefined;
  locale: Locale;
  currency: string;
  t: Translate;
}

export function Totals({ totals, discountLabel, note, locale, currency, t }: Props) {
  const money = (cents: number) => formatPrice(locale, cents, currency);
  const row = 'flex items-baseline justify-between gap-4';
  return (
    <>
      <dl className="space-y-2 text-sm">
        <div className={row}>
          <dt>{t('cart.subtotal')}</dt>
          <dd>{money(totals.subtotalCents)}</dd>
        </div>
        {discountLabel && totals.discountCents > 0 && (
          <div className={`${row} text-green-800`}>
            <dt>{discountLabel}</dt>
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
      {note && <p className="mt-2 text-xs text-black/70">{note}</p>}
    </>
  );
}

/** A cart's totals: its promo as the discount label, the free-shipping threshold as the note. */
export function CartTotals({ cart, locale, t }: { cart: CartData; locale: Locale; t: Translate }) {
  const { totals, promo, shipping, currency } = cart;
  return (
    <Totals
      totals={totals}
      discountLabel={
        promo ? t('cart.discount', { code: promo.code, percent: promo.percent }) : null
      }
      note={
        totals.shippingCents > 0 && shipping.freeThresholdCents > 0
          ? t('cart.freeShippingFrom', {
              amount: formatPrice(locale, shipping.freeThresholdCents, currency),
            })
          : undefined
      }
      locale={locale}
      currency={currency}
      t={t}
    />
  );
}
