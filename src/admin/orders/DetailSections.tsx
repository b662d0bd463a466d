// The order detail's read parts (back office §2 detail; issues 13, 27): customer and address (as
// the server formats it, api/orders/address.ts), the works with their edition numbers and refunded
// lines, the amounts ('Gratuite' shipping), payment, shipment, refunds, invoices and credit notes,
// and the history from the audit log. Dates in Paris time, amounts in French.
import { useState, type ReactNode } from 'react';
import type { OrderDetail } from '../../schemas/admin-orders.ts';
import { formatMoney } from '../../domain/money.ts';
import { frenchDate } from '../ui/format.ts';
import { INLINE_LINK, type Translate } from '../ui/kit.tsx';
import { Facts as KitFacts } from '../ui/table.tsx';
import { PaymentBadge, shortSession } from './badges.tsx';
import { invoiceHref } from './links.ts';

export const LINK =
  'inline-flex min-h-11 items-center rounded border border-black/20 bg-white px-3 text-sm hover:bg-black/5';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="font-serif text-lg">{title}</h3>
      {children}
    </section>
  );
}

/** Label and value pairs, side by side from a tablet on. */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <KitFacts
      facts={rows}
      className="grid items-baseline gap-x-5 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]"
      valueClassName="mb-1 break-words sm:mb-0"
    />
  );
}

type Part = { o: OrderDetail; t: Translate };

export function CustomerAndAddress({ o, t }: Part) {
  return (
    <div className="grid gap-7 md:grid-cols-2">
      <Section title={t('detail.customer')}>
        <Facts
          rows={[
            [t('detail.name'), o.customerName || t('detail.notSpecified')],
            [
              t('detail.email'),
              <a
                key="email"
                href={`mailto:${o.customerEmail}`}
                className={`${INLINE_LINK} underline`}
              >
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
          {o.shippingLines.map((line, index) => (
            <span key={index} className="block">
              {line}
            </span>
          ))}
        </address>
      </Section>
    </div>
  );
}

export function Items({ o, t }: Part) {
  const money = (cents: number) => formatMoney(cents, o.currency);
  const th = 'py-2 font-medium';
  return (
    <Section title={t('detail.items')}>
      <table className="w-full text-left text-sm">
        <thead className="border-b border-black/15 text-black/70">
          <tr>
            <th scope="col" className={`${th} pr-2`}>
              {t('detail.col.title')}
            </th>
            <th scope="col" className={`${th} px-2 text-right`}>
              {t('detail.col.quantity')}
            </th>
            <th scope="col" className={`${th} hidden px-2 text-right sm:table-cell`}>
              {t('detail.col.unit')}
            </th>
            <th scope="col" className={`${th} pl-2 text-right`}>
              {t('detail.col.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {o.lines.map((line) => (
            <tr key={line.id} className="border-b border-black/5 align-top">
              <td className="py-2 pr-2">
                <span className="font-medium">{line.title}</span>
                <span className="block text-xs text-black/70">
                  {line.type === 'original' ? t('detail.original') : t('detail.print')}
                  {line.dimensions && ` · ${line.dimensions}`}
                  <span className="sm:hidden"> · {money(line.unitPriceCents)}</span>
                </span>
                {line.editions.length > 0 && (
                  // To pencil on the prints (docs/decisions/045).
                  <span data-edition className="block text-xs font-medium">
                    {t('detail.editions', { labels: line.editions.join(', ') })}
                  </span>
                )}
                {line.refunded && (
                  <span className="mt-1 inline-flex rounded-full border border-amber-800/40 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-950">
                    {t('detail.refundedBadge')}
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
      <Totals o={o} t={t} />
    </Section>
  );
}

function Totals({ o, t }: Part) {
  const money = (cents: number) => formatMoney(cents, o.currency);
  return (
    <dl className="ml-auto grid max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1 pt-1 text-sm">
      <dt>{t('detail.subtotal')}</dt>
      <dd className="text-right tabular-nums">{money(o.subtotalCents)}</dd>
      {(o.discountCents > 0 || o.promoCode) && (
        <>
          <dt>
            {o.promoCode ? t('detail.discountCode', { code: o.promoCode }) : t('detail.discount')}
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
  );
}

export function PaymentAndDelivery({ o, t }: Part) {
  const [copied, setCopied] = useState('');
  const session = o.stripeSessionId;
  async function copy(id: string) {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(t('detail.copied', { id }));
    } catch {
      setCopied(t('detail.copyFailed', { id }));
    }
  }
  const sessionRow: [string, ReactNode][] = session
    ? [
        [
          t('detail.session'),
          <span key="session" className="flex flex-wrap items-center gap-2">
            <code className="font-mono text-xs" title={session}>
              {shortSession(session)}
            </code>
            <button
              type="button"
              aria-label={t('detail.copyLabel')}
              onClick={() => void copy(session)}
              className={LINK}
            >
              {t('detail.copy')}
            </button>
          </span>,
        ],
      ]
    : [];
  return (
    <div className="grid gap-7 md:grid-cols-2">
      <Section title={t('detail.payment')}>
        <Facts
          rows={[
            [t('detail.method'), o.paymentMethod],
            [t('detail.paidAt'), o.paidAt ? frenchDate(o.paidAt) : '—'],
            [t('detail.status'), <PaymentBadge key="payment" payment={o.payment} />],
            ...sessionRow,
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
  );
}

export function RefundsAndInvoices({ o, t }: Part) {
  const money = (cents: number) => formatMoney(cents, o.currency);
  return (
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
                    invoice.kind === 'invoice' ? 'detail.invoiceNumber' : 'detail.creditNoteNumber',
                    {
                      number: invoice.number,
                      date: frenchDate(invoice.issuedAt),
                    },
                  )}{' '}
                  · {money(invoice.totalCents)}
                </span>
                <a
                  href={invoiceHref(o.id, invoice.kind, invoice.id)}
                  download
                  // Several credit notes after refunds of some works: each link names its own.
                  aria-label={
                    invoice.kind === 'invoice'
                      ? undefined
                      : `${t('detail.creditNote')} ${invoice.number}`
                  }
                  className={LINK}
                >
                  {invoice.kind === 'invoice' ? t('invoice') : t('detail.creditNote')}
                </a>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

export function History({ o, t }: Part) {
  return (
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
  );
}
