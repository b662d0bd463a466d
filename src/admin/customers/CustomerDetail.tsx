// 'Détails du client' (back office §2, issue 13 points 7 and 8): identity, registration and last
// connection, purchase statistics, the order history (Commande, Date, Montant, Statut) or 'Aucune
// commande pour ce client' — read fresh from the server on open; a failure says so and offers to
// try again instead of showing an empty history (§8's silent empty list is not kept). Then the
// customer's data requests: the JSON export, and erasure after typing the address again.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  confirmsErase,
  type CustomerDetailView,
  type EraseResult,
  type EraseScheduled,
  type OpenOrder,
  OPEN_ORDER_REASONS,
} from '../../schemas/admin-customers.ts';
import { FULFILMENT_LABELS, paymentLabel } from '../../domain/order-status.ts';
import { formatMoney } from '../../domain/money.ts';
import { adminCall, frenchDate } from '../api.ts';
import ConfirmDialog from '../ui/ConfirmDialog.tsx';
import { BUTTON, INPUT, rich, type Translate } from '../ui/kit.tsx';
import Modal from '../ui/Modal.tsx';

interface Props {
  email: string;
  t: Translate;
  onClose: () => void;
  onErased: (result: EraseResult) => void;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h3 id={id} className="font-serif text-lg">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** Label and value pairs, side by side from a tablet on. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[11rem_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-black/70">{label}</dt>
          <dd className="mb-2 break-words sm:mb-1">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The file name the server gave (Content-Disposition), else one of our own. */
function fileName(response: Response, email: string): string {
  const given = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return given?.[1] ?? `donnees-client-${email}.json`;
}

export default function CustomerDetail({ email, t, onClose, onErased }: Props) {
  const [customer, setCustomer] = useState<CustomerDetailView | null>(null);
  const [error, setError] = useState('');
  const [exporting, setExporting] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  /** The open orders that keep the customer from being erased now (409 erase_blocked). */
  const [blocked, setBlocked] = useState<OpenOrder[] | null>(null);
  const eraseButton = useRef<HTMLButtonElement>(null);
  const modal = useRef<HTMLDialogElement | null>(null);
  const never = t('never');

  async function load() {
    setError('');
    const result = await adminCall<CustomerDetailView>(
      'GET',
      `/api/admin/customers/detail?${new URLSearchParams({ email })}`,
    );
    if (result.ok) setCustomer(result.data);
    else setError(t('detail.loadError', { message: result.error.message }));
  }

  useEffect(() => {
    void load();
  }, [email]);

  async function exportData() {
    setExporting(true);
    setNotice(null);
    try {
      const response = await fetch(
        `/api/admin/customers/export?${new URLSearchParams({ email })}`,
        { credentials: 'same-origin' },
      );
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as {
          error?: { message?: string };
        } | null;
        throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
      }
      const name = fileName(response, email);
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setNotice({ tone: 'success', text: t('gdpr.exported', { file: name }) });
    } catch (failure) {
      const message = failure instanceof TypeError ? 'serveur injoignable' : String(failure);
      setNotice({
        tone: 'error',
        text: t('gdpr.exportError', { message: message.replace(/^Error: /, '') }),
      });
    } finally {
      setExporting(false);
    }
  }

  async function erase(whenClosed = false) {
    setErasing(true);
    setNotice(null);
    const result = await adminCall<EraseResult | EraseScheduled>(
      'POST',
      '/api/admin/customers/erase',
      { email, confirmation: typed, ...(whenClosed && { whenClosed }) },
    );
    setErasing(false);
    if (!result.ok) {
      if (result.error.code === 'erase_blocked') {
        setBlocked((result.error.details?.['orders'] as OpenOrder[] | undefined) ?? []);
        return;
      }
      const message = result.error.fields?.['confirmation'] ?? result.error.message;
      setNotice({ tone: 'error', text: t('erase.error', { message }) });
      return;
    }
    setBlocked(null);
    if ('scheduled' in result.data) {
      setNotice({ tone: 'success', text: t('erase.scheduled') });
      return;
    }
    onErased(result.data);
    modal.current?.close();
  }

  const date = (iso: string | null) => (iso ? frenchDate(iso) : never);
  /** The fulfilment ('Confirmée'…) and, unless simply paid, the payment ('Remboursée'). */
  const status = (order: CustomerDetailView['history'][number]) => {
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
  };
  const c = customer;
  return (
    <Modal
      id="customer-detail"
      title={t('detail.title')}
      closeLabel={t('detail.close')}
      onClose={onClose}
      handle={modal}
      size="medium"
    >
      {error ? (
        <div
          role="alert"
          className="space-y-3 rounded border border-red-700 bg-red-50 p-4 text-sm text-red-950"
        >
          <p className="font-medium">{error}</p>
          <button type="button" className={BUTTON} onClick={() => void load()}>
            {t('detail.retry')}
          </button>
        </div>
      ) : !c ? (
        <p role="status" className="text-black/75">
          {t('detail.loading')}
        </p>
      ) : (
        <div className="space-y-7">
          <Section id="customer-identity" title={t('detail.identity')}>
            <Facts
              rows={[
                [t('detail.name'), c.name ?? t('notProvided')],
                [t('detail.email'), c.email],
                [t('detail.account'), c.hasAccount ? t('detail.hasAccount') : t('detail.guest')],
                [t('detail.registered'), date(c.registeredAt)],
                [t('detail.lastSignIn'), date(c.lastSignInAt)],
              ]}
            />
          </Section>

          <Section id="customer-purchases" title={t('detail.purchases')}>
            {/* Three figures, then the two dates on a row of their own (six columns). */}
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-6">
              {(
                [
                  [t('detail.orders'), String(c.orders)],
                  [t('detail.spent'), formatMoney(c.spentCents, c.currency)],
                  [t('detail.average'), formatMoney(c.averageCents, c.currency)],
                  [t('detail.firstOrder'), date(c.firstOrderAt)],
                  [t('detail.lastOrder'), date(c.lastOrderAt)],
                ] as const
              ).map(([label, value], index) => (
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

          <Section id="customer-history" title={t('detail.history')}>
            {c.history.length === 0 ? (
              <p className="text-black/75">{t('detail.noOrders')}</p>
            ) : (
              <>
                {/* From a tablet on: the §2 table. */}
                <div className="hidden overflow-x-auto rounded-lg border border-black/10 bg-white sm:block">
                  <table className="w-full text-left text-sm">
                    <caption className="sr-only">{t('detail.history')}</caption>
                    <thead className="border-b border-black/10 bg-black/[0.03]">
                      <tr>
                        {['order', 'date', 'amount', 'status'].map((k) => (
                          <th
                            key={k}
                            scope="col"
                            className={`px-3 py-2 font-medium ${k === 'amount' ? 'text-right' : ''}`}
                          >
                            {t(`detail.col.${k}`)}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {c.history.map((order) => (
                        <tr
                          key={order.id}
                          data-order={order.number}
                          className="border-b border-black/5 last:border-0"
                        >
                          <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">
                            {order.number}
                          </td>
                          <td className="px-3 py-2 whitespace-nowrap">{frenchDate(order.date)}</td>
                          <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                            {formatMoney(order.totalCents, order.currency)}
                          </td>
                          <td className="px-3 py-2">{status(order)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {/* On a phone: one line per order, nothing to scroll sideways. */}
                <ul className="space-y-2 sm:hidden">
                  {c.history.map((order) => (
                    <li
                      key={order.id}
                      data-order={order.number}
                      className="rounded-lg border border-black/10 bg-white p-3 text-sm"
                    >
                      <div className="flex items-baseline justify-between gap-3">
                        <span className="font-mono text-xs">{order.number}</span>
                        <span className="font-medium tabular-nums">
                          {formatMoney(order.totalCents, order.currency)}
                        </span>
                      </div>
                      <div className="mt-1 flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                        <span className="text-black/70">{frenchDate(order.date)}</span>
                        <span>{status(order)}</span>
                      </div>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </Section>

          <Section id="customer-gdpr" title={t('gdpr.title')}>
            <p className="text-sm text-black/75">{t('gdpr.text')}</p>
            <div className="flex flex-wrap gap-3">
              <button
                type="button"
                className={BUTTON}
                disabled={exporting || erasing}
                onClick={() => void exportData()}
              >
                {exporting ? t('gdpr.exporting') : t('gdpr.export')}
              </button>
              <button
                ref={eraseButton}
                type="button"
                disabled={erasing}
                onClick={() => {
                  setTyped('');
                  setConfirming(true);
                }}
                className="inline-flex min-h-11 items-center justify-center rounded border border-red-800 bg-white px-4 text-sm font-medium text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-60"
              >
                {erasing ? t('erase.erasing') : t('gdpr.erase')}
              </button>
            </div>
            {blocked && (
              <div
                role="alert"
                className="space-y-2 rounded border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950"
              >
                <p>{t('erase.blocked')}</p>
                <ul className="list-disc pl-5">
                  {blocked.map((order) => (
                    <li key={order.number}>
                      <span className="font-medium">{order.number}</span> :{' '}
                      {order.reasons.map((reason) => OPEN_ORDER_REASONS[reason]).join(', ')}
                    </li>
                  ))}
                </ul>
                <button
                  type="button"
                  className={BUTTON}
                  disabled={erasing}
                  onClick={() => void erase(true)}
                >
                  {t('erase.whenClosed')}
                </button>
              </div>
            )}
            <div aria-live="polite" className="text-sm empty:hidden">
              {notice?.tone === 'success' && <p className="text-green-900">{notice.text}</p>}
            </div>
            <div role="alert" className="text-sm empty:hidden">
              {notice?.tone === 'error' && (
                <p className="rounded border border-red-700 bg-red-50 p-3 text-red-950">
                  {notice.text}
                </p>
              )}
            </div>
          </Section>
        </div>
      )}

      {confirming && c && (
        <ConfirmDialog
          id="customer-erase"
          title={t('erase.title')}
          tone="danger"
          confirmLabel={t('erase.confirm')}
          cancelLabel={t('erase.cancel')}
          confirmDisabled={!confirmsErase(c.email, typed)}
          returnFocus={eraseButton}
          onConfirm={() => {
            setConfirming(false);
            void erase();
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {rich(t('erase.what'), { email: <strong className="break-all">{c.email}</strong> })}
          </p>
          <p>{t('erase.kept')}</p>
          <p className="font-medium">{t('erase.final')}</p>
          <label className="block pt-1">
            <span className="font-medium">{t('erase.confirmLabel')}</span>
            <input
              type="email"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              className={INPUT}
            />
          </label>
        </ConfirmDialog>
      )}
    </Modal>
  );
}
