// The read-only parts of 'Détails du client' (back office §2): identity, registration and last
// connection, the purchase statistics (sales, with the refunded or cancelled orders named beside
// their count, issue 27 §6), and the order history (Commande, Date, Montant, Statut) — a table
// from a tablet on, one line per order on a phone — or 'Aucune commande pour ce client'.
import type { ReactNode } from 'react';
import { formatMoney } from '../../domain/money.ts';
import { FULFILMENT_LABELS, paymentLabel } from '../../domain/order-status.ts';
import type { CustomerDetailView } from '../../schemas/admin-customers.ts';
import { frenchDate } from '../ui/format.ts';
import type { Translate } from '../ui/kit.tsx';
import { BodyRow, Card, CardTop, Facts, TableHead } from '../ui/table.tsx';
import KitSection from '../ui/Section.tsx';
import { uncountedText } from './CustomerList.tsx';

type Order = CustomerDetailView['history'][number];
interface Props {
  t: Translate;
  customer: CustomerDetailView;
}

/** A part of 'Détails du client', titled inside the dialog. */
export function Section(props: { id: string; title: string; children: ReactNode }) {
  return <KitSection {...props} level={3} className="space-y-3" heading="font-serif text-lg" />;
}

const dateOr = (t: Translate, iso: string | null) => (iso ? frenchDate(iso) : t('never'));

export function Identity({ t, customer: c }: Props) {
  const rows: [string, ReactNode][] = [
    [t('detail.name'), c.name ?? t('notProvided')],
    [t('detail.email'), c.email],
    [t('detail.account'), c.hasAccount ? t('detail.hasAccount') : t('detail.guest')],
    // A buyer without an account has no registration date: 'Compte' says so, once, instead of
    // 'Inscrit le : Jamais'.
    ...(c.hasAccount
      ? [[t('detail.registered'), dateOr(t, c.registeredAt)] as [string, ReactNode]]
      : []),
    [t('detail.lastSignIn'), dateOr(t, c.lastSignInAt)],
  ];
  return (
    <Section id="customer-identity" title={t('detail.identity')}>
      {/* Label and value pairs, side by side from a tablet on. */}
      <Facts
        facts={rows}
        className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[11rem_1fr]"
        valueClassName="mb-2 break-words sm:mb-1"
      />
    </Section>
  );
}

export function Purchases({ t, customer: c }: Props) {
  const figures = [
    [t('detail.orders'), `${c.orders} ${uncountedText(t, c)}`.trim()],
    [t('detail.spent'), formatMoney(c.spentCents, c.currency)],
    [t('detail.average'), formatMoney(c.averageCents, c.currency)],
    [t('detail.firstOrder'), dateOr(t, c.firstOrderAt)],
    [t('detail.lastOrder'), dateOr(t, c.lastOrderAt)],
  ] as const;
  return (
    <Section id="customer-purchases" title={t('detail.purchases')}>
      {/* Three figures, then the two dates on a row of their own (six columns). */}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-6">
        {figures.map(([label, value], index) => (
          <div
            key={label}
            className={`rounded-lg border border-black/10 bg-white p-3 ${
              index < 3 ? 'sm:col-span-2' : 'sm:col-span-3'
            } ${index === 2 ? 'col-span-2' : ''}`}
          >
            <dt className="text-xs text-black/70">{label}</dt>
            <dd className="mt-1 font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-black/70">{t('detail.countNote')}</p>
    </Section>
  );
}

/** The fulfilment ('Confirmée'…) and, unless simply paid, the payment ('Remboursée'). */
function Status({ order }: { order: Order }) {
  const payment = paymentLabel(order.payment);
  return (
    <>
      {FULFILMENT_LABELS[order.fulfilment]}
      {order.payment !== 'paid' && (
        <span
          className={`ml-2 inline-flex rounded-full border px-2 py-0.5 text-xs ${
            payment.known
              ? 'border-amber-800/30 bg-amber-50 text-amber-950'
              : 'border-black/20 bg-black/5 text-black/70'
          }`}
        >
          {payment.text}
        </span>
      )}
    </>
  );
}

export function History({ t, customer: c }: Props) {
  return (
    <Section id="customer-history" title={t('detail.history')}>
      {c.history.length === 0 ? (
        <p className="text-black/75">{t('detail.noOrders')}</p>
      ) : (
        <>
          <div className="hidden overflow-x-auto rounded-lg border border-black/10 bg-white sm:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('detail.history')}</caption>
              <TableHead>
                {['order', 'date', 'amount', 'status'].map((k) => (
                  <th
                    key={k}
                    scope="col"
                    className={`px-3 py-2 font-medium ${k === 'amount' ? 'text-right' : ''}`}
                  >
                    {t(`detail.col.${k}`)}
                  </th>
                ))}
              </TableHead>
              <tbody>
                {c.history.map((order) => (
                  <BodyRow key={order.id} data-order={order.number}>
                    <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">
                      {order.number}
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">{frenchDate(order.date)}</td>
                    <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                      {formatMoney(order.totalCents, order.currency)}
                    </td>
                    <td className="px-3 py-2">
                      <Status order={order} />
                    </td>
                  </BodyRow>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="space-y-2 sm:hidden">
            {c.history.map((order) => (
              <Card key={order.id} data-order={order.number} className="p-3 text-sm">
                <CardTop
                  code={order.number}
                  amount={formatMoney(order.totalCents, order.currency)}
                  small
                />
                <div className="mt-1 flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="text-black/70">{frenchDate(order.date)}</span>
                  <span>
                    <Status order={order} />
                  </span>
                </div>
              </Card>
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}
