// The dashboard (back office §2, §4, §8; issue 11): four figures, 'Actualiser', the unread messages
// (issue 25), the five latest paid orders — and, until it is on, a nudge towards the second factor
// (docs/decisions/037). On a failed load: 'Erreur lors du chargement des données: ' + message, the
// figures at 0 (the works count kept) and the list emptied.
import { useState } from 'react';
import type { Dashboard as Data } from '../schemas/dashboard.ts';
import { formatMoney } from '../domain/money.ts';
import { adminCall, frenchDate } from './api.ts';

interface Props {
  initial: Data;
  texts: Record<string, string>;
  /** Off: the dashboard asks for a second factor, linking to its setup (docs/decisions/037). */
  secondFactorOn: boolean;
}

export default function Dashboard({ initial, texts, secondFactorOn }: Props) {
  const [data, setData] = useState(initial);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');

  async function refresh() {
    setLoading(true);
    const result = await adminCall<Data>('GET', '/api/admin/dashboard');
    setLoading(false);
    if (result.ok) {
      setData(result.data);
      setError('');
      return;
    }
    setError(texts['error']!.replace('{message}', result.error.message));
    setData((before) => ({
      revenueCents: 0,
      paidOrders: 0,
      worksOnline: before.worksOnline,
      awaitingShipment: 0,
      unreadMessages: 0,
      recent: [],
      legalMissing: before.legalMissing,
    }));
  }

  const figures: [string, string][] = [
    [texts['revenue']!, formatMoney(data.revenueCents)],
    [texts['orders']!, String(data.paidOrders)],
    [texts['worksOnline']!, String(data.worksOnline)],
    [texts['awaiting']!, String(data.awaitingShipment)],
  ];
  return (
    <div className="space-y-8" aria-busy={loading || undefined}>
      {!secondFactorOn && (
        <aside
          aria-labelledby="nudge-2fa"
          className="rounded-lg border border-amber-800 bg-amber-50 p-4 text-amber-950"
        >
          <h2 id="nudge-2fa" className="font-medium">
            {texts['secondFactor.title']}
          </h2>
          <p className="mt-1 text-sm">{texts['secondFactor.text']}</p>
          <a
            href="/admin/security"
            className="mt-3 inline-flex min-h-11 items-center rounded bg-ink px-4 text-sm font-medium text-white hover:bg-black"
          >
            {texts['secondFactor.link']}
          </a>
        </aside>
      )}
      {/* Issue 26: invoices and order mails name the seller; until they can in full, say what is
          missing. */}
      {data.legalMissing.length > 0 && (
        <aside
          aria-labelledby="legal-identity"
          data-legal-missing={data.legalMissing.join('|')}
          className="rounded-lg border border-amber-800 bg-amber-50 p-4 text-amber-950"
        >
          <h2 id="legal-identity" className="font-medium">
            {texts['legal.title']}
          </h2>
          <p className="mt-1 text-sm">{texts['legal.text']}</p>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {data.legalMissing.map((field) => (
              <li key={field}>{field}</li>
            ))}
          </ul>
          <a
            href="/admin/settings"
            className="mt-3 inline-flex min-h-11 items-center rounded bg-ink px-4 text-sm font-medium text-white hover:bg-black"
          >
            {texts['legal.link']}
          </a>
        </aside>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="alert" className="text-sm text-red-800 empty:hidden">
          {error}
        </p>
        <button
          type="button"
          onClick={() => void refresh()}
          disabled={loading}
          className="ml-auto min-h-11 rounded border border-black/20 bg-white px-4 text-sm hover:bg-black/5 disabled:opacity-60"
        >
          {loading ? texts['refreshing'] : texts['refresh']}
        </button>
      </div>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-black/10 bg-white p-4">
            <dt className="text-sm text-black/70">{label}</dt>
            <dd className="mt-1 font-serif text-2xl md:text-3xl">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="-mt-5 text-xs text-black/70">{texts['revenueNote']}</p>
      {/* Issue 25: what visitors wrote and the owner has not opened, one click from the screen. */}
      <p>
        <a
          href={data.unreadMessages > 0 ? '/admin/messages?filter=unread' : '/admin/messages'}
          data-unread-messages={data.unreadMessages}
          className="inline-flex min-h-11 items-center gap-3 rounded-lg border border-black/10 bg-white px-4 py-2 hover:bg-black/5"
        >
          <span
            aria-hidden="true"
            className={`inline-flex h-7 min-w-7 items-center justify-center rounded-full px-2 text-sm font-medium tabular-nums ${
              data.unreadMessages > 0 ? 'bg-ink text-white' : 'bg-black/5'
            }`}
          >
            {data.unreadMessages}
          </span>
          <span className="underline decoration-black/30 underline-offset-4">
            {data.unreadMessages === 0
              ? texts['messages.none']
              : data.unreadMessages === 1
                ? texts['messages.one']
                : texts['messages.many']!.replace('{count}', String(data.unreadMessages))}
          </span>
        </a>
      </p>
      <section aria-labelledby="recent-orders">
        <h2 id="recent-orders" className="font-serif text-xl">
          {texts['recent']}
        </h2>
        {data.recent.length === 0 ? (
          <p className="mt-3 text-black/70">{texts['none']}</p>
        ) : (
          // Scrolls sideways on a phone: a focusable region, so the keyboard can scroll it too.
          <div
            role="group"
            aria-labelledby="recent-orders"
            tabIndex={0}
            className="mt-3 overflow-x-auto rounded-lg border border-black/10 bg-white"
          >
            <table className="w-full min-w-[36rem] text-left text-sm">
              <thead className="border-b border-black/10 bg-black/[0.03]">
                <tr>
                  {['col.order', 'col.customer', 'col.amount', 'col.status', 'col.date'].map(
                    (k) => (
                      <th key={k} scope="col" className="px-4 py-2 font-medium">
                        {texts[k]}
                      </th>
                    ),
                  )}
                </tr>
              </thead>
              <tbody>
                {data.recent.map((order) => (
                  <tr key={order.number} className="border-b border-black/5 last:border-0">
                    <td className="px-4 py-2 font-mono text-xs">{order.number}</td>
                    <td className="px-4 py-2">{order.customer}</td>
                    <td className="px-4 py-2">{formatMoney(order.totalCents, order.currency)}</td>
                    <td className="px-4 py-2">{order.statusLabel}</td>
                    <td className="px-4 py-2">{frenchDate(order.date)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
