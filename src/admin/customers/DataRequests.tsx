// The customer's data requests in 'Détails du client' (GDPR, issue 13 point 8): the JSON export,
// and erasure after typing the address again. While an order still needs the customer's name and
// address the server refuses (409 erase_blocked, issue 24): the orders are named, and the erasure
// can be scheduled for when they close.
import { useRef, useState } from 'react';
import {
  OPEN_ORDER_REASONS,
  type CustomerErase,
  type EraseResult,
  type OpenOrder,
} from '../../schemas/admin-customers.ts';
import { AdminCallError, errorFields, errorMessage } from '../query.tsx';
import { BUTTON, type Translate } from '../ui/kit.tsx';
import EraseDialog from './EraseDialog.tsx';
import { Section } from './DetailSections.tsx';
import { useEraseCustomer, useExportCustomer } from './queries.ts';

interface Props {
  t: Translate;
  email: string;
  onErased: (result: EraseResult) => void;
}

const DANGER =
  'inline-flex min-h-11 items-center justify-center rounded border border-red-800 bg-white px-4 text-sm font-medium text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-60';

/** The open orders that keep the customer from being erased now, when that was the refusal. */
function blockedBy(error: Error | null): OpenOrder[] | null {
  if (!(error instanceof AdminCallError) || error.error.code !== 'erase_blocked') return null;
  return (error.error.details?.['orders'] as OpenOrder[] | undefined) ?? [];
}

function Blocked({
  t,
  orders,
  busy,
  onLater,
}: {
  t: Translate;
  orders: OpenOrder[];
  busy: boolean;
  onLater: () => void;
}) {
  return (
    <div
      role="alert"
      className="space-y-2 rounded border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p>{t('erase.blocked')}</p>
      <ul className="list-disc pl-5">
        {orders.map((order) => (
          <li key={order.number}>
            <span className="font-medium">{order.number}</span> :{' '}
            {order.reasons.map((reason) => OPEN_ORDER_REASONS[reason]).join(', ')}
          </li>
        ))}
      </ul>
      <button type="button" className={BUTTON} disabled={busy} onClick={onLater}>
        {t('erase.whenClosed')}
      </button>
    </div>
  );
}

export default function DataRequests({ t, email, onErased }: Props) {
  const exporter = useExportCustomer(email);
  const eraser = useEraseCustomer();
  const [confirming, setConfirming] = useState(false);
  // What the owner confirmed: sent again, as is, to erase once the open orders close.
  const [confirmed, setConfirmed] = useState<CustomerErase | null>(null);
  // The notice below the buttons is that of the last request made.
  const [last, setLast] = useState<'export' | 'erase' | null>(null);
  const eraseButton = useRef<HTMLButtonElement>(null);
  const blocked = blockedBy(eraser.error);

  function erase(request: CustomerErase) {
    setConfirmed(request);
    setLast('erase');
    eraser.mutate(request, {
      onSuccess: (result) => {
        if (!('scheduled' in result)) onErased(result);
      },
    });
  }

  let success = '';
  let failure = '';
  if (last === 'export') {
    if (exporter.isSuccess) success = t('gdpr.exported', { file: exporter.data });
    if (exporter.isError)
      failure = t('gdpr.exportError', { message: errorMessage(exporter.error) });
  } else if (last === 'erase') {
    if (eraser.data && 'scheduled' in eraser.data) success = t('erase.scheduled');
    if (eraser.isError && !blocked) {
      const message = errorFields(eraser.error)['confirmation'] ?? errorMessage(eraser.error);
      failure = t('erase.error', { message });
    }
  }

  return (
    <Section id="customer-gdpr" title={t('gdpr.title')}>
      <p className="text-sm text-black/75">{t('gdpr.text')}</p>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className={BUTTON}
          disabled={exporter.isPending || eraser.isPending}
          onClick={() => {
            setLast('export');
            exporter.mutate();
          }}
        >
          {exporter.isPending ? t('gdpr.exporting') : t('gdpr.export')}
        </button>
        <button
          ref={eraseButton}
          type="button"
          disabled={eraser.isPending}
          onClick={() => setConfirming(true)}
          className={DANGER}
        >
          {eraser.isPending ? t('erase.erasing') : t('gdpr.erase')}
        </button>
      </div>
      {blocked && confirmed && (
        <Blocked
          t={t}
          orders={blocked}
          busy={eraser.isPending}
          onLater={() => erase({ ...confirmed, whenClosed: true })}
        />
      )}
      <div aria-live="polite" className="text-sm empty:hidden">
        {success && <p className="text-green-900">{success}</p>}
      </div>
      <div role="alert" className="text-sm empty:hidden">
        {failure && (
          <p className="rounded border border-red-700 bg-red-50 p-3 text-red-950">{failure}</p>
        )}
      </div>
      {confirming && (
        <EraseDialog
          t={t}
          email={email}
          returnFocus={eraseButton}
          onErase={(request) => {
            setConfirming(false);
            erase(request);
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
    </Section>
  );
}
