// An order's withdrawal on the account page (issue 25 §9): its state — sent and awaiting the mailed
// confirmation, confirmed, or refunded — with the statement's date (the legal one) and the refund.
import { formatPrice } from '../i18n/index.ts';
import type { Translate } from './translate.ts';
import type { AccountWithdrawal } from '../schemas/views.ts';
import type { Locale } from './types.ts';
import { formatLongDate } from '../domain/dates.ts';

/** Date and time in the gallery's time zone, the same on server and browser. */
function dateTime(locale: Locale, iso: string): string {
  return formatLongDate(locale, iso, { time: true });
}

const TONE = {
  requested: 'border-amber-700/40 bg-amber-50 text-amber-950',
  confirmed: 'border-red-800/30 bg-red-50 text-red-950',
  refunded: 'border-black/15 bg-black/5 text-ink',
} as const;

export function OrderWithdrawal({
  withdrawal,
  currency,
  locale,
  t,
}: {
  withdrawal: AccountWithdrawal;
  currency: string;
  locale: Locale;
  t: Translate;
}) {
  const date = dateTime(locale, withdrawal.requestedAt);
  const text =
    withdrawal.state === 'requested'
      ? t('account.orders.withdrawal.requested', { date })
      : withdrawal.state === 'confirmed'
        ? t('account.orders.withdrawal.confirmed', { date })
        : t('account.orders.withdrawal.refunded', {
            date,
            amount: formatPrice(locale, withdrawal.refundedCents, currency),
            refundDate: withdrawal.refundedAt ? dateTime(locale, withdrawal.refundedAt) : '',
          });
  return (
    <div
      data-withdrawal={withdrawal.state}
      className={`mt-4 rounded border p-4 text-sm ${TONE[withdrawal.state]}`}
    >
      <p className="font-semibold">{t(`account.orders.withdrawal.state.${withdrawal.state}`)}</p>
      <p className="mt-1">{text}</p>
    </div>
  );
}
