// The order detail's certificates of authenticity (issue 26, docs/decisions/046): each one issued
// for the order with its state and holder, its PDF and public page, and the owner's two actions —
// reissue a lost certificate (the old serial says "remplacé") and revoke one with a reason (a
// react-hook-form form on the kernel's certificateRevokeSchema). Both are audited on the server;
// the list lives in the query cache under the order's detail and is read again after each.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { certificateRevokeSchema, type AdminCertificate } from '../../schemas/certificates.ts';
import { adminFetch, adminKeys, errorMessage, useAdminMutation } from '../query.tsx';
import { applyServerErrors, useAdminForm } from '../ui/form.ts';
import { frenchDate } from '../ui/format.ts';
import type { Translate } from '../ui/kit.tsx';

const BUTTON =
  'inline-flex min-h-11 items-center rounded border border-black/20 bg-white px-3 text-sm hover:bg-black/5';
const DANGER =
  'inline-flex min-h-11 items-center rounded border border-red-800 bg-white px-3 text-sm text-red-900 hover:bg-red-50';

type Message = { text: string; error: boolean };

function stateText(t: Translate, c: AdminCertificate): string {
  const date = c.stateChangedAt ? frenchDate(c.stateChangedAt) : '—';
  if (c.state === 'replaced')
    return t('certificates.state.replaced', { serial: c.replacedBy ?? '—' });
  if (c.state === 'revoked')
    return t('certificates.state.revoked', { date, reason: c.revokedReason ?? '—' });
  if (c.state === 'transferred') return t('certificates.state.transferred', { date });
  return t('certificates.state.valid');
}

function RevokeForm(props: {
  serial: string;
  t: Translate;
  busy: boolean;
  onRevoke: (reason: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { serial, t } = props;
  // The kernel's schema is zod mini (the certificate pages' islands stay small); the resolver reads
  // it as any zod 4 schema, the form's typing wants the classic one.
  const form = useAdminForm(
    certificateRevokeSchema as unknown as z.ZodType<{ reason: string }, { reason: string }>,
    {
      defaultValues: { reason: '' },
    },
  );
  const error = form.formState.errors.reason?.message;
  const submit = form.handleSubmit(async ({ reason }) => {
    try {
      await props.onRevoke(reason);
    } catch (failure) {
      const text = applyServerErrors(form, failure);
      if (text) form.setError('reason', { type: 'server', message: text });
    }
  });
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-2">
      <label htmlFor={`revoke-${serial}`} className="block font-medium">
        {t('certificates.reason')}
      </label>
      <textarea
        id={`revoke-${serial}`}
        rows={2}
        maxLength={500}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `revoke-${serial}-error` : undefined}
        {...form.register('reason')}
        className="block w-full rounded border border-black/30 p-2 aria-[invalid=true]:border-red-700"
      />
      {error && (
        <p id={`revoke-${serial}-error`} className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      <p className="flex flex-wrap gap-2">
        <button type="submit" className={DANGER} disabled={props.busy}>
          {t('certificates.revokeConfirm')}
        </button>
        <button type="button" className={BUTTON} onClick={props.onCancel}>
          {t('certificates.cancel')}
        </button>
      </p>
    </form>
  );
}

function Row(props: {
  certificate: AdminCertificate;
  orderId: string;
  t: Translate;
  onMessage: (message: Message) => void;
}) {
  const { certificate: c, t, onMessage } = props;
  const [asking, setAsking] = useState<'reissue' | 'revoke' | null>(null);
  const base = `/api/admin/certificates/${c.serial}`;
  const touched = [adminKeys.orders.detail(props.orderId), adminKeys.editions.all];
  const reissue = useAdminMutation({
    mutationFn: () => adminFetch<{ serial: string }>('POST', `${base}/reissue`),
    invalidates: touched,
    onSuccess: (result) =>
      onMessage({ text: t('certificates.reissued', { serial: result.serial }), error: false }),
    onError: (error) =>
      onMessage({ text: t('certificates.error', { message: errorMessage(error) }), error: true }),
    onSettled: () => setAsking(null),
  });
  const revoke = useAdminMutation({
    mutationFn: (reason: string) => adminFetch('POST', `${base}/revoke`, { reason }),
    invalidates: touched,
    onSuccess: () => {
      setAsking(null);
      onMessage({ text: t('certificates.revoked', { serial: c.serial }), error: false });
    },
  });

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
          <button
            type="button"
            className={BUTTON}
            disabled={reissue.isPending}
            onClick={() => reissue.mutate()}
          >
            {t('certificates.reissueConfirm')}
          </button>
          <button type="button" className={BUTTON} onClick={() => setAsking(null)}>
            {t('certificates.cancel')}
          </button>
        </p>
      )}
      {asking === 'revoke' && (
        <RevokeForm
          serial={c.serial}
          t={t}
          busy={revoke.isPending}
          onRevoke={(reason) => revoke.mutateAsync(reason)}
          onCancel={() => setAsking(null)}
        />
      )}
    </li>
  );
}

export default function Certificates({ orderId, t }: { orderId: string; t: Translate }) {
  const [message, setMessage] = useState<Message | null>(null);
  const list = useQuery({
    queryKey: [...adminKeys.orders.detail(orderId), 'certificates'],
    queryFn: async () =>
      (
        await adminFetch<{ certificates: AdminCertificate[] }>(
          'GET',
          `/api/admin/certificates?order=${encodeURIComponent(orderId)}`,
        )
      ).certificates,
  });
  const shown =
    message ??
    (list.isError
      ? { text: t('certificates.error', { message: errorMessage(list.error) }), error: true }
      : null);

  return (
    <section className="space-y-2">
      <h3 className="font-serif text-lg">{t('certificates.title')}</h3>
      {shown && (
        <p
          role={shown.error ? 'alert' : 'status'}
          className={shown.error ? 'text-sm text-red-800' : 'text-sm text-green-900'}
        >
          {shown.text}
        </p>
      )}
      {!list.data ? (
        !list.isError && <p className="text-sm text-black/70">{t('certificates.loading')}</p>
      ) : list.data.length === 0 ? (
        <p className="text-sm text-black/70">{t('certificates.none')}</p>
      ) : (
        <ul className="space-y-2 text-sm">
          {list.data.map((c) => (
            <Row key={c.serial} certificate={c} orderId={orderId} t={t} onMessage={setMessage} />
          ))}
        </ul>
      )}
    </section>
  );
}
