// The order detail's certificates of authenticity (issue 26, docs/decisions/046): each one issued
// for the order with its state and holder, its PDF and public page, and the owner's two actions —
// reissue a lost certificate (the old serial says "remplacé") and revoke one with a reason. Both
// are audited on the server; the list is read again after each.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { AdminCertificate } from '../../schemas/certificates.ts';
import { adminCall, frenchDate } from '../api.ts';
import type { Translate } from '../ui/kit.tsx';

const BUTTON =
  'inline-flex min-h-11 items-center rounded border border-black/20 bg-white px-3 text-sm hover:bg-black/5';
const DANGER =
  'inline-flex min-h-11 items-center rounded border border-red-800 bg-white px-3 text-sm text-red-900 hover:bg-red-50';

function stateText(t: Translate, c: AdminCertificate): string {
  const date = c.stateChangedAt ? frenchDate(c.stateChangedAt) : '—';
  if (c.state === 'replaced')
    return t('certificates.state.replaced', { serial: c.replacedBy ?? '—' });
  if (c.state === 'revoked')
    return t('certificates.state.revoked', { date, reason: c.revokedReason ?? '—' });
  if (c.state === 'transferred') return t('certificates.state.transferred', { date });
  return t('certificates.state.valid');
}

function Row(props: {
  certificate: AdminCertificate;
  t: Translate;
  onDone: (message: string) => void;
  onError: (message: string) => void;
}) {
  const { certificate: c, t } = props;
  const [asking, setAsking] = useState<'reissue' | 'revoke' | null>(null);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState('');
  const base = `/api/admin/certificates/${c.serial}`;

  async function reissue() {
    setBusy(true);
    const result = await adminCall<{ serial: string }>('POST', `${base}/reissue`);
    setBusy(false);
    setAsking(null);
    if (result.ok) props.onDone(t('certificates.reissued', { serial: result.data.serial }));
    else props.onError(t('certificates.error', { message: result.error.message }));
  }

  async function revoke(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await adminCall('POST', `${base}/revoke`, { reason });
    setBusy(false);
    if (result.ok) {
      setAsking(null);
      props.onDone(t('certificates.revoked', { serial: c.serial }));
    } else
      props.onError(
        t('certificates.error', {
          message: result.error.fields?.['reason'] ?? result.error.message,
        }),
      );
  }

  return (
    <li className="space-y-2 rounded border border-black/10 p-3">
      <p>
        <span className="font-medium">{c.title}</span> —{' '}
        {c.label ? t('certificates.edition', { label: c.label }) : t('certificates.original')}
      </p>
      <p className="text-black/70">
        <span className="font-mono break-all">{c.serial}</span> ·{' '}
        {t('certificates.issued', { date: frenchDate(c.issuedAt) })} · {stateText(t, c)}
      </p>
      <p className="text-black/70">{t('certificates.holder', { email: c.holderEmail })}</p>
      <p className="flex flex-wrap gap-2">
        <a href={c.pdfUrl} download className={BUTTON}>
          {t('certificates.pdf')}
        </a>
        <a href={c.publicUrl} target="_blank" rel="noopener" className={BUTTON}>
          {t('certificates.page')}
        </a>
        {c.state === 'valid' && asking === null && (
          <>
            <button type="button" className={BUTTON} onClick={() => setAsking('reissue')}>
              {t('certificates.reissue')}
            </button>
            <button type="button" className={DANGER} onClick={() => setAsking('revoke')}>
              {t('certificates.revoke')}
            </button>
          </>
        )}
      </p>
      {asking === 'reissue' && (
        <p className="flex flex-wrap gap-2">
          <button type="button" className={BUTTON} disabled={busy} onClick={() => void reissue()}>
            {t('certificates.reissueConfirm')}
          </button>
          <button type="button" className={BUTTON} onClick={() => setAsking(null)}>
            {t('certificates.cancel')}
          </button>
        </p>
      )}
      {asking === 'revoke' && (
        <form onSubmit={(e) => void revoke(e)} className="space-y-2">
          <label htmlFor={`revoke-${c.serial}`} className="block font-medium">
            {t('certificates.reason')}
          </label>
          <textarea
            id={`revoke-${c.serial}`}
            required
            minLength={3}
            maxLength={500}
            rows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            className="block w-full rounded border border-black/30 p-2"
          />
          <p className="flex flex-wrap gap-2">
            <button type="submit" className={DANGER} disabled={busy}>
              {t('certificates.revokeConfirm')}
            </button>
            <button type="button" className={BUTTON} onClick={() => setAsking(null)}>
              {t('certificates.cancel')}
            </button>
          </p>
        </form>
      )}
    </li>
  );
}

export default function Certificates({ orderId, t }: { orderId: string; t: Translate }) {
  const [list, setList] = useState<AdminCertificate[] | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  // The parent makes a new translator at each render: read it through a ref, so the list is not
  // fetched again for every render of the dialog.
  const texts = useRef(t);
  texts.current = t;
  const load = useCallback(async () => {
    const result = await adminCall<{ certificates: AdminCertificate[] }>(
      'GET',
      `/api/admin/certificates?order=${encodeURIComponent(orderId)}`,
    );
    if (result.ok) setList(result.data.certificates);
    else
      setMessage({
        text: texts.current('certificates.error', { message: result.error.message }),
        error: true,
      });
  }, [orderId]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="space-y-2">
      <h3 className="font-serif text-lg">{t('certificates.title')}</h3>
      {message && (
        <p
          role={message.error ? 'alert' : 'status'}
          className={message.error ? 'text-sm text-red-800' : 'text-sm text-green-900'}
        >
          {message.text}
        </p>
      )}
      {list === null ? (
        <p className="text-sm text-black/70">{t('certificates.loading')}</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-black/70">{t('certificates.none')}</p>
      ) : (
        <ul className="space-y-2 text-sm">
          {list.map((c) => (
            <Row
              key={c.serial}
              certificate={c}
              t={t}
              onDone={(text) => {
                setMessage({ text, error: false });
                void load();
              }}
              onError={(text) => setMessage({ text, error: true })}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
