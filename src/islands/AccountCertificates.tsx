// The account page's certificates (issue 26, docs/decisions/046): each certificate of authenticity
// the account holds, with its PDF (the signed link, as in the order mail) and its public page, and
// a form to pass it to a new owner — who receives a claim link by mail in the language chosen here
// and takes it with their own account. The page paints the list from the server.
import { useState, type FormEvent } from 'react';
import { AuthField, ErrorBox, fieldValue, sendJson, StatusLine } from './auth-kit.tsx';
import { translator } from './translate.ts';
import type { MessageKey } from '../i18n/index.ts';
import type { HeldCertificate } from '../schemas/certificates.ts';
import { certificateTransferSchema } from '../schemas/certificates.ts';
import type { Locale, Messages } from './types.ts';
import { formatLongDate } from '../domain/dates.ts';

interface Props {
  locale: Locale;
  messages: Messages;
  /** null when the page could not read them. */
  initial: HeldCertificate[] | null;
}

const formatDate = (locale: Locale, iso: string) => formatLongDate(locale, iso);

function TransferForm(props: {
  locale: Locale;
  messages: Messages;
  certificate: HeldCertificate;
  onSent: (offer: { email: string; expiresAt: string }) => void;
}) {
  const { locale, messages, certificate } = props;
  const t = translator(messages);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const formId = `transfer-${certificate.serial}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = {
      serial: certificate.serial,
      email: fieldValue(form, 'email'),
      locale: fieldValue(form, 'locale') === 'en' ? 'en' : 'fr',
    };
    const parsed = certificateTransferSchema.safeParse(input);
    // A new attempt clears the last attempt's failure, whatever stops this one.
    setError('');
    if (!parsed.success) {
      setFieldError(t('certificates.error.email'));
      return;
    }
    setBusy(true);
    const result = await sendJson<{ email: string; expiresAt: string }>(
      '/api/certificates/transfer',
      parsed.data,
    );
    setBusy(false);
    if (result.ok) {
      props.onSent(result.data);
      return;
    }
    const field = result.error?.fields?.['email'];
    if (field) setFieldError(t(field as MessageKey));
    else setError(t('account.certificates.error'));
  }

  return (
    <details className="mt-3">
      <summary className="cursor-pointer font-medium underline">
        {t('account.certificates.transfer')}
      </summary>
      <form
        id={formId}
        noValidate
        onSubmit={(event) => void submit(event)}
        className="mt-3 space-y-3"
      >
        <p className="text-sm text-black/70">{t('account.certificates.transfer.text')}</p>
        <AuthField
          form={formId}
          name="email"
          label={t('account.certificates.transfer.email')}
          type="email"
          autoComplete="off"
          maxLength={254}
          error={fieldError}
          onEdit={() => setFieldError(undefined)}
        />
        <div>
          <label htmlFor={`${formId}-locale`} className="font-medium">
            {t('account.certificates.transfer.locale')}
          </label>
          <select
            id={`${formId}-locale`}
            name="locale"
            defaultValue={locale}
            className="mt-1 block min-h-12 w-full rounded border border-field bg-white px-3"
          >
            <option value="fr" lang="fr">
              Français
            </option>
            <option value="en" lang="en">
              English
            </option>
          </select>
        </div>
        <ErrorBox text={error} />
        <button
          type="submit"
          aria-disabled={busy || undefined}
          disabled={busy}
          className="min-h-12 rounded bg-ink px-6 font-medium text-white disabled:opacity-60 max-sm:w-full"
        >
          {busy
            ? t('account.certificates.transfer.sending')
            : t('account.certificates.transfer.submit')}
        </button>
      </form>
    </details>
  );
}

export default function AccountCertificates({ locale, messages, initial }: Props) {
  const t = translator(messages);
  const [certificates, setCertificates] = useState(initial ?? []);
  const [sent, setSent] = useState<Record<string, string>>({});

  return (
    <section aria-labelledby="account-certificates" className="mt-10">
      <h2 id="account-certificates" className="font-serif text-2xl">
        {t('account.certificates')}
      </h2>
      {initial === null && <ErrorBox text={t('account.certificates.loadError')} />}
      {certificates.length === 0 && initial !== null && (
        <p className="mt-3 text-black/70">{t('account.certificates.empty')}</p>
      )}
      <ul className="mt-4 space-y-4">
        {certificates.map((c) => (
          <li key={c.serial} className="rounded border border-black/15 bg-white p-4">
            <p className="font-serif text-xl">{c.title}</p>
            <p className="text-black/70">{c.nature}</p>
            <p className="mt-1 text-sm text-black/70">
              {t('account.certificates.issued', { date: formatDate(locale, c.issuedAt) })} ·{' '}
              <span className="font-mono whitespace-nowrap" data-certificate-serial>
                {c.serial}
              </span>
            </p>
            <p className="mt-3 flex flex-wrap gap-x-6 gap-y-2">
              <a
                href={c.pdfUrl}
                className="font-medium underline"
                aria-label={t('account.certificates.downloadLabel', { title: c.title })}
              >
                {t('account.certificates.download')}
              </a>
              <a
                href={c.publicUrl}
                className="font-medium underline"
                aria-label={t('account.certificates.pageLabel', { title: c.title })}
              >
                {t('account.certificates.page')}
              </a>
            </p>
            {sent[c.serial] && <StatusLine>{sent[c.serial]}</StatusLine>}
            {!sent[c.serial] && c.pendingTransfer && (
              <p className="mt-2 text-sm">
                {t('account.certificates.transfer.pending', {
                  email: c.pendingTransfer.email,
                  date: formatDate(locale, c.pendingTransfer.expiresAt),
                })}
              </p>
            )}
            <TransferForm
              locale={locale}
              messages={messages}
              certificate={c}
              onSent={(offer) => {
                setSent((all) => ({
                  ...all,
                  [c.serial]: t('account.certificates.transfer.sent', {
                    email: offer.email,
                    date: formatDate(locale, offer.expiresAt),
                  }),
                }));
                setCertificates((all) =>
                  all.map((x) => (x.serial === c.serial ? { ...x, pendingTransfer: offer } : x)),
                );
              }}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
