// The order's detail modal (back office §2, issue 13 point 3): the customer and where the parcel
// goes, the works with the amounts ('Gratuite' shipping), the payment (Stripe session shortened
// with a copy of the whole id, paid date, Stripe's dashboard in live mode), the shipment, refunds,
// invoices to download, and the history from the audit log. Read fresh from the server on open.
import { useEffect, useState, type ReactNode } from 'react';
import type { OrderDetail } from '../../schemas/admin-orders.ts';
import { FULFILMENT_LABELS } from '../../domain/order-status.ts';
import { formatMoney } from '../../domain/money.ts';
import { adminCall, frenchDate } from '../api.ts';
import { rich, type Translate } from '../ui/kit.tsx';
import Modal from '../ui/Modal.tsx';
import { PaymentBadge, shortSession, WithdrawalBadge } from './badges.tsx';
import Certificates from './Certificates.tsx';

interface Props {
  id: string;
  number: string;
  t: Translate;
  onClose: () => void;
}

function country(code: string): string {
  try {
    return new Intl.DisplayNames(['fr'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export const invoiceHref = (id: string, kind: 'invoice' | 'credit_note' = 'invoice') =>
  `/api/admin/orders/${id}/invoice${kind === 'credit_note' ? '?kind=credit_note' : ''}`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="font-serif text-lg">{title}</h3>
      {children}
    </section>
  );
}

/** Label and value pairs, side by side from a tablet on. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid items-baseline gap-x-5 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-black/70">{label}</dt>
          <dd className="mb-1 break-words sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const LINK =
  'inline-flex min-h-11 items-center rounded border border-black/20 bg-white px-3 text-sm hover:bg-black/5';

export default function DetailDialog({ id, number, t, onClose }: Props) {
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [error, setError] = useState('');
  const [copied, setCopied] = useState('');

  useEffect(() => {
    let live = true;
    void adminCall<{ order: OrderDetail }>('GET', `/api/admin/orders/${id}`).then((result) => {
      if (!live) return;
      if (result.ok) setOrder(result.data.order);
      else setError(t('detail.loadError', { message: result.error.message }));
    });
    return () => {
      live = false;
    };
  }, [id]);

  async function copy(session: string) {
    try {
      await navigator.clipboard.writeText(session);
      setCopied(t('detail.copied', { id: session }));
    } catch {
      setCopied(t('detail.copyFailed', { id: session }));
    }
  }

  const o = order;
  const money = (cents: number) => formatMoney(cents, o?.currency);
  return (
    <Modal
      id="order-detail"
      title={rich(t('detail.title'), {
        number: <span className="whitespace-nowrap">{number}</span>,
      })}
      closeLabel={t('detail.close')}
      onClose={onClose}
      size="wide"
    >
      <p role="alert" className="text-sm font-medium text-red-800 empty:hidden">
        {error}
      </p>
      {!o && !error && <p className="text-sm text-black/70">{t('detail.loading')}</p>}
      {o && (
        <div className="space-y-7">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{FULFILMENT_LABELS[o.fulfilment]}</span>
            <PaymentBadge payment={o.payment} />
            {o.withdrawalRequestedAt && (
              <WithdrawalBadge
                text={`${t('detail.withdrawalAt', { date: frenchDate(o.withdrawalRequestedAt) })}${
                  o.withdrawalConfirmedVia
                    ? ` — ${t(`detail.withdrawalVia.${o.withdrawalConfirmedVia}`)}`
                    : ''
                }`}
              />
            )}
            {o.withdrawalPendingAt && (
              <WithdrawalBadge
                pending
                text={t('detail.withdrawalPendingAt', { date: frenchDate(o.withdrawalPendingAt) })}
              />
            )}
            <span className="text-black/70">· {frenchDate(o.date)}</span>
          </div>

          <div className="grid gap-7 md:grid-cols-2">
            <Section title={t('detail.customer')}>
              <Facts
                rows={[
                  [t('detail.name'), o.customerName || t('detail.notSpecified')],
                  [
                    t('detail.email'),
                    <a key="email" href={`mailto:${o.customerEmail}`} className="underline">
                      {o.customerEmail}
                    </a>,
                  ],
                  ...(o.customerPhone
                    ? [[t('detail.phone'), o.customerPhone] as [string, ReactNode]]
                    : []),
                  [t('detail.language'), t(`lang.${o.locale}`)],
                ]}
              />
            </Section>
            <Section title={t('detail.address')}>
              <address className="text-sm leading-relaxed not-italic">
                {o.shippingAddress.street}
                <br />
                {o.shippingAddress.additional_info && (
                  <>
                    {o.shippingAddress.additional_info}
                    <br />
                  </>
                )}
                {o.shippingAddress.postal_code} {o.shippingAddress.city}
                <br />
                {country(o.shippingAddress.country)}
              </address>
            </Section>
          </div>

          <Section title={t('detail.items')}>
            <table className="w-full text-left text-sm">
              <thead className="border-b border-black/15 text-black/70">
                <tr>
                  <th scope="col" className="py-2 pr-2 font-medium">
                    {t('detail.col.title')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-right font-medium">
                    {t('detail.col.quantity')}
                  </th>
                  <th scope="col" className="hidden px-2 py-2 text-right font-medium sm:table-cell">
                    {t('detail.col.unit')}
                  </th>
                  <th scope="col" className="py-2 pl-2 text-right font-medium">
                    {t('detail.col.total')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {o.lines.map((line, index) => (
                  <tr key={index} className="border-b border-black/5 align-top">
                    <td className="py-2 pr-2">
                      <span className="font-medium">{line.title}</span>
                      <span className="block text-xs text-black/70">
                        {line.type === 'original' ? t('detail.original') : t('detail.print')}
                        <span className="sm:hidden"> · {money(line.unitPriceCents)}</span>
                      </span>
                      {line.editions.length > 0 && (
                        // To pencil on the prints (docs/decisions/045).
                        <span data-edition className="block text-xs font-medium">
                          {t('detail.editions', { labels: line.editions.join(', ') })}
                        </span>
                      )}
                    </td>
                    <td className="px-2 py-2 text-right tabular-nums">{line.quantity}</td>
                    <td className="hidden px-2 py-2 text-right whitespace-nowrap tabular-nums sm:table-cell">
                      {money(line.unitPriceCents)}
                    </td>
                    <td className="py-2 pl-2 text-right whitespace-nowrap tabular-nums">
                      {money(line.lineCents)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <dl className="ml-auto grid max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1 pt-1 text-sm">
              <dt>{t('detail.subtotal')}</dt>
              <dd className="text-right tabular-nums">{money(o.subtotalCents)}</dd>
              {(o.discountCents > 0 || o.promoCode) && (
                <>
                  <dt>
                    {o.promoCode
                      ? t('detail.discountCode', { code: o.promoCode })
                      : t('detail.discount')}
                  </dt>
                  <dd className="text-right tabular-nums">−{money(o.discountCents)}</dd>
                </>
              )}
              <dt>{t('detail.shipping')}</dt>
              <dd className="text-right tabular-nums">
                {o.shippingCents === 0 ? t('detail.free') : money(o.shippingCents)}
              </dd>
              <div className="col-span-2 grid grid-cols-subgrid border-t border-black/15 pt-1">
                <dt className="font-semibold">{t('detail.total')}</dt>
                <dd className="text-right font-semibold tabular-nums">{money(o.totalCents)}</dd>
              </div>
            </dl>
          </Section>

          <div className="grid gap-7 md:grid-cols-2">
            <Section title={t('detail.payment')}>
              <Facts
                rows={[
                  [t('detail.method'), o.paymentMethod],
                  [t('detail.paidAt'), o.paidAt ? frenchDate(o.paidAt) : '—'],
                  [t('detail.status'), <PaymentBadge key="payment" payment={o.payment} />],
                  ...(o.stripeSessionId
                    ? [
                        [
                          t('detail.session'),
                          <span key="session" className="flex flex-wrap items-center gap-2">
                            <code className="font-mono text-xs" title={o.stripeSessionId}>
                              {shortSession(o.stripeSessionId)}
                            </code>
                            <button
                              type="button"
                              aria-label={t('detail.copyLabel')}
                              onClick={() => void copy(o.stripeSessionId!)}
                              className="inline-flex min-h-11 items-center rounded border border-black/20 bg-white px-3 text-sm hover:bg-black/5"
                            >
                              {t('detail.copy')}
                            </button>
                          </span>,
                        ] as [string, ReactNode],
                      ]
                    : []),
                ]}
              />
              <p role="status" className="text-xs break-all text-black/70 empty:hidden">
                {copied}
              </p>
              {o.stripeDashboardUrl ? (
                <a href={o.stripeDashboardUrl} target="_blank" rel="noreferrer" className={LINK}>
                  {t('detail.dashboard')}
                </a>
              ) : (
                <p className="text-xs text-black/70">{t('detail.dashboardNote')}</p>
              )}
            </Section>
            <Section title={t('detail.delivery')}>
              {o.shippedAt ? (
                <Facts
                  rows={[
                    [t('detail.shippedAt'), frenchDate(o.shippedAt)],
                    [t('detail.carrier'), o.carrier ?? t('detail.notSpecified')],
                    [t('detail.tracking'), o.trackingNumber ?? t('detail.notSpecified')],
                  ]}
                />
              ) : (
                <p className="text-sm text-black/70">
                  {o.fulfilment === 'cancelled' ? t('detail.neverShipped') : t('detail.notShipped')}
                </p>
              )}
            </Section>
          </div>

          <div className="grid gap-7 md:grid-cols-2">
            <Section title={t('detail.refunds')}>
              <p className="text-sm">
                {o.refundedCents > 0
                  ? t('detail.refunded', {
                      amount: money(o.refundedCents),
                      date: o.refundedAt ? frenchDate(o.refundedAt) : '—',
                    })
                  : o.refundPending
                    ? t('detail.refundPending', { amount: money(o.totalCents) })
                    : t('detail.noRefund')}
              </p>
            </Section>
            <Section title={t('detail.invoices')}>
              {o.invoices.length === 0 ? (
                <p className="text-sm text-black/70">{t('detail.noInvoice')}</p>
              ) : (
                <ul className="space-y-2 text-sm">
                  {o.invoices.map((invoice) => (
                    <li key={invoice.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                      <span>
                        {t(
                          invoice.kind === 'invoice'
                            ? 'detail.invoiceNumber'
                            : 'detail.creditNoteNumber',
                          { number: invoice.number, date: frenchDate(invoice.issuedAt) },
                        )}{' '}
                        · {money(invoice.totalCents)}
                      </span>
                      <a href={invoiceHref(o.id, invoice.kind)} download className={LINK}>
                        {invoice.kind === 'invoice' ? t('invoice') : t('detail.creditNote')}
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </Section>
          </div>

          <Certificates orderId={o.id} t={t} />

          <Section title={t('detail.history')}>
            <ol className="space-y-2 border-l-2 border-black/10 pl-4 text-sm">
              {o.history.map((entry, index) => (
                <li key={index}>
                  <time dateTime={entry.at} className="text-black/70">
                    {frenchDate(entry.at)}
                  </time>{' '}
                  — {entry.summary}
                  {entry.actor && (
                    <span className="text-black/70"> {t('detail.by', { actor: entry.actor })}</span>
                  )}
                </li>
              ))}
            </ol>
          </Section>
        </div>
      )}
    </Modal>
  );
}
