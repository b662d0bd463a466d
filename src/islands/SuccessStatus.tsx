// The payment success page's island (storefront §2 Payment success, §4, §8, §9). Fulfilment is the
// webhook's job: this only empties the badge at once, then asks the server every second (up to
// ~30 s) whether the order behind the session is paid, and shows it.
import { useEffect, useRef, useState } from 'react';
import { apiErrorText, callApi } from './api.ts';
import { pinCartCount, refreshCartCount } from './cart-bridge.ts';
import { markOrderPaid } from './order-paid-mark.ts';
import { translator } from './translate.ts';
import { OrderSummary } from './OrderSummary.tsx';
import type { BuyerOrderData, Locale, Messages } from './types.ts';
import { Payment } from '../domain/order-status.ts';
import { formatLongDate } from '../domain/dates.ts';

/** The order behind the session (GET /api/orders/status): no payment provider ids. */
type Order = BuyerOrderData & { email: string };

interface StatusAnswer {
  state: 'verifying' | 'confirmed' | 'failed';
  order: Order;
}

type View =
  | { kind: 'missing' }
  | { kind: 'verifying' }
  | { kind: 'slow' }
  | { kind: 'confirmed'; order: Order }
  | { kind: 'error'; message: string };

interface Props {
  locale: Locale;
  /** The `session_id` query parameter the payment page sends the buyer back with. */
  sessionId: string | null;
  messages: Messages;
  links: {
    gallery: string;
    contact: string;
    /** The terms of sale's print guarantee and damage sections; null where the terms have none. */
    printGuarantee: string | null;
    damage: string | null;
    /** The orders page, for a signed-in buyer only (null for a guest). */
    account: string | null;
  };
}

const POLL_MS = 1000;
const GIVE_UP_MS = 30_000;
/** storefront §9: the post-payment reload waits 2 s. */
const RELOAD_DELAY_MS = 2000;

export default function SuccessStatus({ locale, sessionId, messages, links }: Props) {
  const t = translator(messages);
  const [view, setView] = useState<View>(sessionId ? { kind: 'verifying' } : { kind: 'missing' });
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!sessionId) return;
    // The cart is paid for: the badge says so now; the webhook empties the server's cart.
    pinCartCount(0);
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const settle = (next: View, delay: number) => {
      setView(next);
      timer = setTimeout(() => {
        pinCartCount(null);
        void refreshCartCount();
      }, delay);
    };
    const poll = async () => {
      const result = await callApi<StatusAnswer>(
        'GET',
        `/api/orders/status?session_id=${encodeURIComponent(sessionId)}`,
      );
      if (stopped) return;
      if (result.ok && result.data.state === 'confirmed') {
        markOrderPaid();
        settle({ kind: 'confirmed', order: result.data.order }, RELOAD_DELAY_MS);
        return;
      }
      if (result.ok && result.data.state === 'failed') {
        settle({ kind: 'error', message: t('success.failed') }, 0);
        return;
      }
      if (!result.ok && result.error && result.error.code !== 'rate_limited') {
        const message =
          result.error.code === 'not_found'
            ? t('success.notFound')
            : apiErrorText(messages, result.error, locale, t('success.error'));
        settle({ kind: 'error', message }, 0);
        return;
      }
      // Still verifying, or the server could not be reached: ask again, for a while.
      if (Date.now() - started >= GIVE_UP_MS) {
        settle({ kind: 'slow' }, 0);
        return;
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // Runs once per session id (the texts are fixed for the page).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per session id, said above
  }, [sessionId]);

  // The heading changes with the state: focus follows it so screen readers read the outcome.
  useEffect(() => {
    if (view.kind !== 'verifying' && view.kind !== 'missing') heading.current?.focus();
  }, [view.kind]);

  const titleKey =
    view.kind === 'missing'
      ? 'success.missingSession'
      : view.kind === 'verifying'
        ? 'success.verifying'
        : view.kind === 'slow'
          ? 'success.slowTitle'
          : view.kind === 'confirmed'
            ? 'success.heading'
            : 'success.error';

  const button = 'inline-flex min-h-11 items-center justify-center rounded px-6';
  const support = (
    <p className="mt-6 flex flex-wrap gap-3">
      <a href={links.contact} className={`${button} bg-ink text-white`}>
        {t('success.contactSupport')}
      </a>
      <a href={links.gallery} className={`${button} underline`}>
        {t('success.backToGallery')}
      </a>
    </p>
  );

  return (
    <div className="max-w-3xl">
      <h1 ref={heading} tabIndex={-1} className="font-serif text-4xl focus:outline-none">
        {t(titleKey)}
      </h1>
      <div role="status" aria-live="polite">
        {view.kind === 'verifying' && (
          <p className="mt-6 flex items-center gap-3 text-black/75">
            <span
              aria-hidden="true"
              className="h-5 w-5 animate-spin rounded-full border-2 border-black/20 border-t-ink"
            />
            {t('success.verifying')}
          </p>
        )}
      </div>
      {view.kind === 'missing' && (
        <>
          <p className="mt-4 text-black/75">{t('success.missingSessionText')}</p>
          {support}
        </>
      )}
      {view.kind === 'slow' && (
        <>
          <p className="mt-4 text-black/75">{t('success.slowText')}</p>
          {support}
        </>
      )}
      {view.kind === 'error' && (
        <>
          <p className="mt-4 rounded border border-red-700 bg-red-50 p-4 text-red-900">
            {view.message}
          </p>
          {support}
        </>
      )}
      {view.kind === 'confirmed' && (
        <Confirmed order={view.order} locale={locale} t={t} links={links} />
      )}
    </div>
  );
}

function Confirmed({
  order,
  locale,
  t,
  links,
}: {
  order: Order;
  locale: Locale;
  t: ReturnType<typeof translator>;
  links: Props['links'];
}) {
  const paid = order.paymentStatus === Payment.paid;
  // Only an original comes with a certificate of authenticity (issue 9).
  const hasOriginal = order.lines.some((line) => line.type === 'original');
  // The terms of sale guarantee prints only (content/*/terms.md, "Garantie qualité des tirages").
  const hasPrint = order.lines.some((line) => line.type === 'print');
  const row = 'grid gap-1 py-2 sm:grid-cols-[12rem_1fr]';
  return (
    <>
      <p className="mt-3 text-lg">{t('success.thanks')}</p>

      <section
        aria-labelledby="success-details-title"
        className="mt-8 rounded-lg border border-black/10 bg-white p-6"
      >
        {/* Smaller on a phone, where the number would break at its hyphen (GS-2026- / 01001). */}
        <h2 id="success-details-title" className="font-serif text-xl sm:text-2xl">
          {t('success.orderTitle', { number: order.number })}
        </h2>
        <dl className="mt-4 divide-y divide-black/10 text-sm">
          <div className={row}>
            <dt className="font-medium">{t('success.status')}</dt>
            <dd className={paid ? 'font-semibold text-green-800' : 'font-semibold text-amber-800'}>
              {paid ? t('success.paid') : order.paymentStatus}
            </dd>
          </div>
          <div className={row}>
            <dt className="font-medium">{t('success.orderNumber')}</dt>
            <dd>{order.number}</dd>
          </div>
          <div className={row}>
            <dt className="font-medium">{t('success.date')}</dt>
            <dd>
              <time dateTime={order.date}>{formatOrderDate(locale, order.date)}</time>
            </dd>
          </div>
          <div className={row}>
            <dt className="font-medium">{t('success.email')}</dt>
            <dd className="break-all">{order.email}</dd>
          </div>
        </dl>
        <h3 className="mt-6 font-serif text-xl">{t('order.works')}</h3>
        <div className="mt-2">
          <OrderSummary order={order} locale={locale} t={t} />
        </div>
      </section>

      <section aria-labelledby="success-next-title" className="mt-8">
        <h2 id="success-next-title" className="font-serif text-2xl">
          {t('success.nextSteps')}
        </h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5">
          <li>{t('success.step.email', { email: order.email })}</li>
          <li>{t(hasOriginal ? 'success.step.preparation' : 'success.step.preparationPrints')}</li>
        </ol>
      </section>

      <section aria-labelledby="success-delivery-title" className="mt-8">
        <h2 id="success-delivery-title" className="font-serif text-2xl">
          {t('success.delivery')}
        </h2>
        <ul className="mt-3 list-disc space-y-2 pl-5">
          <li>{t('success.delivery.shipment')}</li>
          <li>{t('success.delivery.time')}</li>
          {hasPrint && links.printGuarantee && (
            <li>
              {t('success.delivery.printGuarantee')}{' '}
              <TermsLink
                href={links.printGuarantee}
                section={t('success.delivery.printGuaranteeSection')}
                t={t}
              />
            </li>
          )}
          {links.damage && (
            <li>
              {t('success.delivery.damage')}{' '}
              <TermsLink href={links.damage} section={t('success.delivery.damageSection')} t={t} />
            </li>
          )}
        </ul>
      </section>

      <p className="mt-10 flex flex-wrap items-center gap-x-6 gap-y-3">
        <a
          href={links.gallery}
          className="inline-flex min-h-11 items-center justify-center rounded bg-ink px-6 text-white"
        >
          {t('success.backToGallery')}
        </a>
        {links.account && (
          <a href={links.account} className="inline-flex min-h-11 items-center underline">
            {t('success.seeOrders')}
          </a>
        )}
        <a href={links.contact} className="inline-flex min-h-11 items-center underline">
          {t('success.contact')}
        </a>
      </p>
    </>
  );
}

/** "(Conditions de vente)": a link to a section of the terms, named for screen readers, kept on
 * one line with its brackets. */
function TermsLink({
  href,
  section,
  t,
}: {
  href: string;
  section: string;
  t: ReturnType<typeof translator>;
}) {
  return (
    <span className="whitespace-nowrap">
      (
      <a
        href={href}
        aria-label={t('success.delivery.termsLabel', { section })}
        className="inline-block min-h-6 underline"
      >
        {t('success.delivery.terms')}
      </a>
      )
    </span>
  );
}

/** The date and time of the order, in the gallery's time zone (the same on server and browser). */
function formatOrderDate(locale: Locale, iso: string): string {
  return formatLongDate(locale, iso, { time: true });
}
