// The account's security screen (issue 24, docs/decisions/037): the second factor — set up with
// any authenticator app (the key to type, grouped, and its otpauth:// link), confirmed by a first
// code, then ten recovery codes shown once — its recovery codes renewed or the factor turned off
// (password or code); and inviting another administrator (its link shown once). Renewing codes
// and inviting ask for a re-authentication, which adminCall's dialog handles.
import { useState, type FormEvent } from 'react';
import { adminCall, frenchDate } from './api.ts';
import { Banners, BUTTON, INPUT, PRIMARY, translator, type Banner } from './ui/kit.tsx';
import type { SecondFactorStatusView, TotpSetupView } from '../schemas/second-factor.ts';

interface Props {
  initial: SecondFactorStatusView;
  texts: Record<string, string>;
}

const SECTION = 'rounded-lg border border-black/10 bg-white p-5 md:p-6 space-y-4';
const H2 = 'font-serif text-xl';

/** A base32 key in groups of four, as authenticator apps ask for it. */
export const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function fieldValue(event: FormEvent<HTMLFormElement>, name: string): string {
  const control = event.currentTarget.elements.namedItem(name);
  return control instanceof HTMLInputElement ? control.value : '';
}

export default function Security({ initial, texts }: Props) {
  const t = translator(texts);
  const [status, setStatus] = useState(initial);
  const [setup, setSetup] = useState<TotpSetupView | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [banner, setBanner] = useState<Banner | null>(null);
  const [busy, setBusy] = useState(false);
  const [disabling, setDisabling] = useState<'password' | 'code' | null>(null);

  const fail = (message: string) => setBanner({ tone: 'error', text: t('error', { message }) });

  async function refresh() {
    const result = await adminCall<SecondFactorStatusView>('GET', '/api/admin/second-factor');
    if (result.ok) setStatus(result.data);
  }

  async function begin() {
    setBusy(true);
    setBanner(null);
    const result = await adminCall<TotpSetupView>('POST', '/api/admin/second-factor/setup');
    setBusy(false);
    if (result.ok) setSetup(result.data);
    else fail(result.error.message);
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = fieldValue(event, 'code');
    setBusy(true);
    setBanner(null);
    const result = await adminCall<{ recoveryCodes: string[] }>(
      'POST',
      '/api/admin/second-factor/confirm',
      { code },
    );
    setBusy(false);
    if (!result.ok) return fail(result.error.message);
    setSetup(null);
    setCodes(result.data.recoveryCodes);
    setBanner({ tone: 'success', text: t('enabled') });
    await refresh();
  }

  async function renew() {
    setBusy(true);
    setBanner(null);
    const result = await adminCall<{ recoveryCodes: string[] }>(
      'POST',
      '/api/admin/second-factor/recovery-codes',
    );
    setBusy(false);
    if (!result.ok) return fail(result.error.message);
    setCodes(result.data.recoveryCodes);
    setBanner({ tone: 'success', text: t('renewed') });
    await refresh();
  }

  async function disable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = fieldValue(event, 'proof');
    setBusy(true);
    setBanner(null);
    const result = await adminCall(
      'POST',
      '/api/admin/second-factor/disable',
      disabling === 'code' ? { code: value } : { password: value },
    );
    setBusy(false);
    if (!result.ok)
      return fail(
        result.error.code === 'invalid_credentials' ? t('wrongPassword') : result.error.message,
      );
    setDisabling(null);
    setCodes(null);
    setBanner({ tone: 'success', text: t('disabled') });
    await refresh();
  }

  return (
    <div className="max-w-3xl space-y-8">
      <Banners banner={banner} />
      <section aria-labelledby="security-2fa" className={SECTION}>
        <h2 id="security-2fa" className={H2}>
          {t('twoFactor.title')}
        </h2>
        <p>{t('twoFactor.intro')}</p>
        {status.enabled ? (
          <>
            <p className="font-medium text-green-900">{t('twoFactor.on')}</p>
            <p>{t('recovery.left', { count: status.recoveryCodesLeft })}</p>
            <div className="flex flex-wrap gap-3">
              <button type="button" className={BUTTON} disabled={busy} onClick={() => void renew()}>
                {t('recovery.renew')}
              </button>
              <button
                type="button"
                className={BUTTON}
                disabled={busy}
                onClick={() => setDisabling('password')}
              >
                {t('disable.open')}
              </button>
            </div>
            {disabling && (
              <form onSubmit={(event) => void disable(event)} noValidate className="space-y-3">
                <fieldset className="space-y-2">
                  <legend className="font-medium">{t('disable.with')}</legend>
                  {(['password', 'code'] as const).map((kind) => (
                    <label key={kind} className="flex min-h-11 items-center gap-2">
                      <input
                        type="radio"
                        name="kind"
                        checked={disabling === kind}
                        onChange={() => setDisabling(kind)}
                      />
                      {t(`disable.${kind}`)}
                    </label>
                  ))}
                </fieldset>
                <label htmlFor="security-proof" className="font-medium">
                  {t(disabling === 'code' ? 'code' : 'password')}
                </label>
                <input
                  id="security-proof"
                  name="proof"
                  required
                  type={disabling === 'code' ? 'text' : 'password'}
                  autoComplete={disabling === 'code' ? 'one-time-code' : 'current-password'}
                  className={INPUT}
                />
                <button type="submit" className={PRIMARY} disabled={busy}>
                  {t('disable.submit')}
                </button>
              </form>
            )}
          </>
        ) : setup ? (
          <SetupSteps setup={setup} t={t} busy={busy} onConfirm={confirm} />
        ) : (
          <>
            <p className="font-medium text-amber-900">{t('twoFactor.off')}</p>
            <button type="button" className={PRIMARY} disabled={busy} onClick={() => void begin()}>
              {t('twoFactor.enable')}
            </button>
          </>
        )}
        {codes && <RecoveryCodes codes={codes} t={t} onDone={() => setCodes(null)} />}
      </section>
      <InviteAdmin t={t} />
    </div>
  );
}

type T = ReturnType<typeof translator>;

function SetupSteps(props: {
  setup: TotpSetupView;
  t: T;
  busy: boolean;
  onConfirm: (event: FormEvent<HTMLFormElement>) => Promise<void>;
}) {
  const { setup, t, busy, onConfirm } = props;
  return (
    <ol className="list-decimal space-y-4 pl-5">
      <li className="space-y-2">
        <p>{t('setup.add')}</p>
        <p>
          <a href={setup.uri} className="underline">
            {t('setup.link')}
          </a>
        </p>
        <p>{t('setup.type')}</p>
        <p
          className="rounded border border-black/15 bg-black/[0.03] px-3 py-2 font-mono text-lg tracking-wider break-all"
          data-testid="totp-secret"
        >
          {grouped(setup.secret)}
        </p>
        <p className="text-sm text-black/70">{t('setup.settings')}</p>
      </li>
      <li>
        <form onSubmit={(event) => void onConfirm(event)} noValidate className="space-y-3">
          <label htmlFor="security-setup-code" className="font-medium">
            {t('code')}
          </label>
          <input
            id="security-setup-code"
            name="code"
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            className={INPUT}
          />
          <p className="text-sm text-black/70">{t('setup.confirmHint')}</p>
          <button type="submit" className={PRIMARY} disabled={busy}>
            {t('setup.confirm')}
          </button>
        </form>
      </li>
    </ol>
  );
}

function RecoveryCodes({ codes, t, onDone }: { codes: string[]; t: T; onDone: () => void }) {
  return (
    <div className="space-y-3 rounded border border-amber-800 bg-amber-50 p-4" tabIndex={-1}>
      <h3 className="font-serif text-lg">{t('recovery.title')}</h3>
      <p>{t('recovery.once')}</p>
      <ul
        aria-label={t('recovery.title')}
        className="grid grid-cols-2 gap-2 font-mono sm:grid-cols-5"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <button type="button" className={BUTTON} onClick={onDone}>
        {t('recovery.noted')}
      </button>
    </div>
  );
}

function InviteAdmin({ t }: { t: T }) {
  const [invitation, setInvitation] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = fieldValue(event, 'email');
    setBusy(true);
    setError('');
    setInvitation(null);
    const result = await adminCall<{ url: string; expiresAt: string }>(
      'POST',
      '/api/admin/invitations',
      { email },
    );
    setBusy(false);
    if (result.ok) setInvitation(result.data);
    else
      setError(
        result.error.code === 'invalid_input'
          ? t('invite.invalid')
          : t('error', { message: result.error.message }),
      );
  }

  return (
    <section aria-labelledby="security-invite" className={SECTION}>
      <h2 id="security-invite" className={H2}>
        {t('invite.title')}
      </h2>
      <p>{t('invite.intro')}</p>
      <form onSubmit={(event) => void invite(event)} noValidate className="space-y-3">
        <label htmlFor="security-invite-email" className="font-medium">
          {t('invite.email')}
        </label>
        <input
          id="security-invite-email"
          name="email"
          type="email"
          required
          autoComplete="off"
          maxLength={254}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'security-invite-error' : undefined}
          className={INPUT}
        />
        <p
          id="security-invite-error"
          role="alert"
          className="text-sm font-medium text-red-800 empty:hidden"
        >
          {error}
        </p>
        <button type="submit" className={PRIMARY} disabled={busy}>
          {t('invite.submit')}
        </button>
      </form>
      <div role="status" className="empty:hidden">
        {invitation && (
          <div className="space-y-2 rounded border border-green-800 bg-green-50 p-4 text-green-950">
            <p className="font-medium">
              {t('invite.done', { date: frenchDate(invitation.expiresAt) })}
            </p>
            <p className="font-mono text-sm break-all" data-testid="invitation-link">
              {invitation.url}
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
