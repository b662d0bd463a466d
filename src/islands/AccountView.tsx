// The account page's island (storefront §2 Account, §4, §9): the signed-in customer's name and
// email, the logout button, the subscription block and the orders, newest first. The page paints
// them from the server; after a payment (?from=success, or the success page's mark in this tab)
// the orders are asked again 2 s later, so an order the webhook has just confirmed shows.
import { useEffect, useState } from 'react';
import { callApi } from './api.ts';
import { failureText, sendJson } from './auth-kit.tsx';
import { ORDER_PAID_MARK } from './order-paid-mark.ts';
import { translator, type Translate } from './translate.ts';
import { OrderSummary } from './OrderSummary.tsx';
import { OrderWithdrawal } from './OrderWithdrawal.tsx';
import type { AccountOrder as AccountOrderData } from '../schemas/views.ts';
import type { Locale, Messages } from './types.ts';
import { Payment } from '../domain/order-status.ts';
import { formatLongDate } from '../domain/dates.ts';
import { formatPrice, type MessageKey } from '../i18n/index.ts';

/**
 * An item of `orders` in GET /api/account/orders (docs/accounts-api.md): the order as its buyer
 * sees it, with its withdrawal if one was sent.
 */
export type AccountOrder = AccountOrderData;

export interface AccountSubscription {
  status: string;
  priceId?: string | null;
  currentPeriodEnd?: string | null;
}

/** The answer of GET /api/account/orders. */
export interface AccountData {
  orders: AccountOrder[];
  subscription: AccountSubscription | null;
}

interface Props {
  locale: Locale;
  messages: Messages;
  user: { name: string; email: string };
  /** false: guest orders placed with this email show only once it is confirmed (the backend's rule). */
  emailVerified: boolean;
  /** The verification link's outcome (`?emailVerified=1|0`, set by GET /api/auth/verify-email). */
  verification: 'confirmed' | 'failed' | null;
  /** The server's data; null when the page could not read it (the island asks the API then). */
  initial: AccountData | null;
  /** The page was opened from the payment success page (`?from=success`). */
  fromSuccess: boolean;
  links: { home: string; gallery: string; login: string };
}

/** storefront §9: the orders are reloaded 2 s after a payment. */
const RELOAD_DELAY_MS = 2000;
/** Subscription statuses the spec names; any other value is shown as it is. */
const KNOWN_STATUSES = ['active', 'trialing', 'canceled', 'past_due'] as const;

// One time zone on the server and in the browser, so the dates hydrate identically; the gallery's.
const TIME_ZONE = 'Europe/Paris';

function formatDate(locale: Locale, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatLongDate(locale, date, { timeZone: TIME_ZONE });
}

/** storefront §9: the session id shown cut to 20 characters. */

function newestFirst(orders: readonly AccountOrder[]): AccountOrder[] {
  return [...orders].sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
}

type Load = { kind: 'ready'; data: AccountData } | { kind: 'loading' } | { kind: 'failed' };

export default function AccountView(props: Props) {
  const { locale, messages, user, emailVerified, verification, fromSuccess, links } = props;
  const t = translator(messages);
  const [load, setLoad] = useState<Load>(
    props.initial ? { kind: 'ready', data: props.initial } : { kind: 'loading' },
  );
  const [loggingOut, setLoggingOut] = useState(false);
  const [logoutError, setLogoutError] = useState('');

  useEffect(() => {
    let justPaid = false;
    try {
      justPaid = sessionStorage.getItem(ORDER_PAID_MARK) !== null;
      sessionStorage.removeItem(ORDER_PAID_MARK);
    } catch {
      // Storage refused (privacy settings): only ?from=success tells.
    }
    const reload = async () => {
      const result = await callApi<AccountData>('GET', '/api/account/orders');
      if (result.ok) {
        setLoad({ kind: 'ready', data: result.data });
        return;
      }
      // The session ended meanwhile (logged out elsewhere, password reset): log in again.
      if (result.error?.code === 'unauthorized') {
        window.location.assign(links.login);
        return;
      }
      setLoad((before) => (before.kind === 'ready' ? before : { kind: 'failed' }));
    };
    if (!props.initial) {
      void reload();
      return;
    }
    if (!fromSuccess && !justPaid) return;
    const timer = setTimeout(() => void reload(), RELOAD_DELAY_MS);
    return () => clearTimeout(timer);
    // Runs once: the server's data and the page's query are fixed.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a mount-only effect, said above
  }, []);

  async function logout() {
    setLoggingOut(true);
    setLogoutError('');
    const result = await callApi<{ ok: true }>('POST', '/api/auth/logout');
    if (result.ok || result.error?.code === 'unauthorized') {
      window.location.assign(links.home);
      return;
    }
    setLoggingOut(false);
    setLogoutError(t('errors.internal'));
  }

  const data = load.kind === 'ready' ? load.data : null;
  const section = 'rounded-lg border border-black/10 bg-white p-6';
  const row = 'grid gap-1 py-2 sm:grid-cols-[10rem_1fr]';

  return (
    <div className="space-y-8">
      {verification === 'confirmed' && (
        <p role="status" className="rounded border border-green-800 bg-green-50 p-4 text-green-900">
          {t('account.verified.ok')}
        </p>
      )}
      {verification === 'failed' && (
        <p role="alert" className="rounded border border-red-700 bg-red-50 p-4 text-red-900">
          {t('account.verified.failed')}
        </p>
      )}
      <section aria-labelledby="account-profile-title" className={section}>
        <h2 id="account-profile-title" className="font-serif text-2xl">
          {t('account.profile')}
        </h2>
        <dl className="mt-4 divide-y divide-black/10 text-sm">
          <div className={row}>
            <dt className="font-medium">{t('account.name')}</dt>
            <dd>{user.name.trim() || t('account.fallbackName')}</dd>
          </div>
          <div className={row}>
            <dt className="font-medium">{t('account.email')}</dt>
            <dd className="break-all">{user.email}</dd>
          </div>
        </dl>
        <p role="alert" className="mt-4 rounded bg-red-50 p-3 text-sm text-red-800 empty:hidden">
          {logoutError}
        </p>
        <button
          type="button"
          onClick={() => void logout()}
          disabled={loggingOut}
          className="mt-4 inline-flex min-h-11 items-center justify-center rounded border border-ink px-6 font-medium disabled:cursor-wait disabled:opacity-60"
        >
          {loggingOut ? t('account.loggingOut') : t('account.logout')}
        </button>
      </section>

      <section aria-labelledby="account-subscription-title" className={section}>
        <h2 id="account-subscription-title" className="font-serif text-2xl">
          {t('account.subscription')}
        </h2>
        {data && <Subscription subscription={data.subscription} locale={locale} t={t} />}
      </section>

      <section aria-labelledby="account-orders-title">
        <h2 id="account-orders-title" className="font-serif text-2xl">
          {t('account.orders')}
        </h2>
        {!emailVerified && <Unverified locale={locale} messages={messages} t={t} />}
        <div role="status" aria-live="polite">
          {load.kind === 'loading' && (
            <p className="mt-4 flex items-center gap-3 text-black/75">
              <span
                aria-hidden="true"
                className="h-5 w-5 animate-spin rounded-full border-2 border-black/20 border-t-ink"
              />
              {t('account.orders.loading')}
            </p>
          )}
          {load.kind === 'failed' && (
            <p className="mt-4 rounded border border-red-700 bg-red-50 p-4 text-red-900">
              {t('account.orders.loadError')}
            </p>
          )}
        </div>
        {data && <Orders orders={data.orders} locale={locale} t={t} gallery={links.gallery} />}
      </section>
    </div>
  );
}

/** The note on guest orders of an unconfirmed address, with a button to mail the link again. */
function Unverified({ locale, messages, t }: { locale: Locale; messages: Messages; t: Translate }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [failure, setFailure] = useState('');
  async function resend() {
    setState('sending');
    setFailure('');
    const result = await sendJson<{ ok: true }>('/api/account/verify-email', { locale });
    if (result.ok) {
      setState('sent');
      return;
    }
    setState('idle');
    setFailure(failureText(t, messages, locale, result.error, result.retryAfterSeconds));
  }
  return (
    <div className="mt-3 rounded border border-accent/40 bg-accent/5 p-4 text-sm">
      <p>{t('account.unverified')}</p>
      <div role="status" aria-live="polite">
        {state === 'sent' && <p className="mt-2 font-medium">{t('account.verify.sent')}</p>}
      </div>
      <p role="alert" className="mt-2 text-red-800 empty:hidden">
        {failure}
      </p>
      {state !== 'sent' && (
        <button
          type="button"
          onClick={() => void resend()}
          disabled={state === 'sending'}
          className="mt-3 inline-flex min-h-11 items-center rounded border border-ink px-4 font-medium disabled:cursor-wait disabled:opacity-60"
        >
          {state === 'sending' ? t('account.verify.sending') : t('account.verify.resend')}
        </button>
      )}
    </div>
  );
}

function Subscription({
  subscription,
  locale,
  t,
}: {
  subscription: AccountSubscription | null;
  locale: Locale;
  t: Translate;
}) {
  if (!subscription) return <p className="mt-3 text-black/75">{t('account.subscription.none')}</p>;
  const known = (KNOWN_STATUSES as readonly string[]).includes(subscription.status);
  const row = 'grid gap-1 py-2 sm:grid-cols-[14rem_1fr]';
  return (
    <dl className="mt-4 divide-y divide-black/10 text-sm">
      <div className={row}>
        <dt className="font-medium">{t('account.subscription.status')}</dt>
        <dd
          className={
            subscription.status === 'active' || subscription.status === 'trialing'
              ? 'font-semibold text-green-800'
              : 'font-semibold text-orange-800'
          }
        >
          {known
            ? t(`account.subscription.${subscription.status as (typeof KNOWN_STATUSES)[number]}`)
            : subscription.status}
        </dd>
      </div>
      {subscription.currentPeriodEnd && (
        <div className={row}>
          <dt className="font-medium">{t('account.subscription.periodEnd')}</dt>
          <dd>{formatDate(locale, subscription.currentPeriodEnd)}</dd>
        </div>
      )}
    </dl>
  );
}

/** The order's payment as its buyer reads it: a label of ours, or the raw value when unknown. */
function paymentStatus(order: AccountOrder): { key: MessageKey | null; tone: string } {
  switch (order.paymentStatus) {
    case Payment.paid:
      return order.refundedCents > 0
        ? { key: 'account.orders.payment.partlyRefunded', tone: 'text-green-800' }
        : { key: 'account.orders.paid', tone: 'text-green-800' };
    case Payment.refunded:
      return { key: 'account.orders.payment.refunded', tone: 'text-ink' };
    case Payment.unpaid:
      return { key: 'account.orders.payment.unpaid', tone: 'text-orange-800' };
    case Payment.failed:
      return { key: 'account.orders.payment.failed', tone: 'text-red-800' };
    default:
      return { key: null, tone: 'text-orange-800' };
  }
}

/**
 * What the gallery refunded of an order (in parts, issue 27 §3, or whole) and the credit note of
 * each refund. A refunded withdrawal already says its amount in its own box: only the documents.
 */
function OrderRefund({ order, locale, t }: { order: AccountOrder; locale: Locale; t: Translate }) {
  if (order.refundedCents <= 0 && order.creditNotes.length === 0) return null;
  const saidByWithdrawal = order.withdrawal?.state === 'refunded';
  const base = `/api/account/orders/${encodeURIComponent(order.number)}/invoice?kind=credit_note`;
  return (
    <div data-refund className="mt-4 rounded border border-black/15 bg-black/5 p-4 text-sm">
      {!saidByWithdrawal && order.refundedCents > 0 && (
        <>
          <p className="font-semibold">{t('account.orders.refund.heading')}</p>
          <p className="mt-1">
            {t('account.orders.refund.text', {
              amount: formatPrice(locale, order.refundedCents, order.currency),
            })}
          </p>
        </>
      )}
      {order.creditNotes.length > 0 && (
        <ul className="mt-1 flex flex-wrap gap-x-6">
          {order.creditNotes.map((note) => (
            <li key={note.number}>
              <a
                href={`${base}&number=${encodeURIComponent(note.number)}`}
                download
                aria-label={t('account.orders.refund.creditNoteLabel', {
                  number: note.number,
                  date: formatDate(locale, note.date),
                })}
                className="inline-flex min-h-11 items-center underline"
              >
                {t('account.orders.refund.creditNote', { number: note.number })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Orders({
  orders,
  locale,
  t,
  gallery,
}: {
  orders: readonly AccountOrder[];
  locale: Locale;
  t: Translate;
  gallery: string;
}) {
  if (orders.length === 0) {
    return (
      <div className="mt-4 rounded-lg border border-black/10 bg-white p-6">
        <p>{t('account.orders.empty')}</p>
        <p className="mt-4">
          <a
            href={gallery}
            className="inline-flex min-h-11 items-center justify-center rounded bg-ink px-6 text-white"
          >
            {t('account.orders.browse')}
          </a>
        </p>
      </div>
    );
  }
  return (
    <ul className="mt-4 space-y-4">
      {newestFirst(orders).map((order) => {
        const paid = order.paymentStatus === Payment.paid;
        const status = paymentStatus(order);
        return (
          <li key={order.number} className="rounded-lg border border-black/10 bg-white p-5">
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <h3 className="font-serif text-xl">
                {t('account.orders.number', { number: order.number })}
              </h3>
              <p className="text-sm">
                <time dateTime={order.date}>{formatDate(locale, order.date)}</time>
                {' · '}
                <span data-payment={order.paymentStatus} className={`font-semibold ${status.tone}`}>
                  {status.key ? t(status.key) : order.paymentStatus}
                </span>
              </p>
            </div>
            <div className="mt-3">
              <OrderSummary order={order} locale={locale} t={t} />
            </div>
            <OrderRefund order={order} locale={locale} t={t} />
            {order.withdrawal && (
              <OrderWithdrawal
                withdrawal={order.withdrawal}
                currency={order.currency}
                locale={locale}
                t={t}
              />
            )}
            {(paid || order.invoiceNumber) && (
              <p className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-2">
                {order.invoiceNumber && (
                  <a
                    href={`/api/account/orders/${encodeURIComponent(order.number)}/invoice`}
                    download
                    aria-label={t('account.orders.invoiceLabel', { number: order.invoiceNumber })}
                    className="inline-flex min-h-11 items-center rounded border border-ink px-4 font-medium"
                  >
                    {t('account.orders.invoice')}
                  </a>
                )}
                {/* Signed in, the withdrawal page withdraws from this order at once (decision 039);
                    once withdrawn, the box above says where it stands instead. */}
                {paid && order.withdrawal?.state !== 'confirmed' && (
                  <a
                    href={`${locale === 'en' ? '/en/withdrawal' : '/retractation'}?order=${encodeURIComponent(order.number)}`}
                    aria-label={t('account.orders.withdrawLabel', { number: order.number })}
                    className="inline-flex min-h-11 items-center underline"
                  >
                    {t('account.orders.withdraw')}
                  </a>
                )}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
