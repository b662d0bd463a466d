// An order's works and amounts, as its buyer sees them on the success and account pages: image,
// title, original or print, the copies' edition numbers, quantity and price per line, then
// subtotal, discount, shipping, total.
import { formatPrice } from '../i18n/index.ts';
import { LineImage } from './LineImage.tsx';
import { Totals } from './Totals.tsx';
import type { Translate } from './translate.ts';
import type { BuyerOrderData, Locale } from './types.ts';

export function OrderSummary({
  order,
  locale,
  t,
}: {
  order: BuyerOrderData;
  locale: Locale;
  t: Translate;
}) {
  const money = (cents: number) => formatPrice(locale, cents, order.currency);
  return (
    <>
      <ul className="divide-y divide-black/10">
        {order.lines.map((line, index) => (
          <li key={index} className="flex gap-4 py-3">
            <LineImage image={line.image} className="h-20 w-16 shrink-0 rounded" />
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-serif text-lg leading-snug">{line.title}</p>
              {line.refunded && (
                <p data-line-refunded className="font-semibold text-ink">
                  {t('order.lineRefunded')}
                </p>
              )}
              <p className="text-black/70">
                {t(line.type === 'original' ? 'artwork.type.original' : 'artwork.type.print')}
              </p>
              {line.editions.length > 0 && (
                // The copies' numbers in their edition (docs/decisions/045), as pencilled on them.
                <p data-edition className="text-black/70">
                  {t(line.editions.length > 1 ? 'order.editions' : 'order.edition', {
                    labels: line.editions.join(', '),
                  })}
                </p>
              )}
              <p className="text-black/70">
                {line.quantity > 1
                  ? t('order.quantityTimes', {
                      count: line.quantity,
                      price: money(line.unitPriceCents),
                    })
                  : t('checkout.lineQuantity', { count: line.quantity })}
              </p>
            </div>
            <p className="text-sm font-medium whitespace-nowrap">{money(line.lineTotalCents)}</p>
          </li>
        ))}
      </ul>
      <div className="mt-4 border-t border-black/10 pt-4">
        <Totals
          totals={order}
          discountLabel={order.promoCode ? t('order.discount', { code: order.promoCode }) : null}
          locale={locale}
          currency={order.currency}
          t={t}
        />
      </div>
    </>
  );
}
