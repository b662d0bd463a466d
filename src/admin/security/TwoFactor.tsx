// The second factor (issue 24, docs/decisions/037): set up with any authenticator app (the key to
// type, grouped, and its otpauth:// link), confirmed by a first code, then ten recovery codes shown
// once; renewed, or turned off with the password or a code. Each change reads the state again
// (adminKeys.security); renewing asks for a re-authentication, which adminFetch's dialog handles.
import { useState } from 'react';
import type { SecondFactorStatusView, TotpSetupView } from '../../schemas/second-factor.ts';
import { adminFetch, adminKeys, errorMessage, useAdminMutation } from '../query.tsx';
import { Banners, BUTTON, PRIMARY, type Banner, type Translate } from '../ui/kit.tsx';
import DisableForm from './DisableForm.tsx';
import { SECTION } from './forms.tsx';
import SetupSteps from './SetupSteps.tsx';
import Section from '../ui/Section.tsx';

interface Props {
  t: Translate;
  status: SecondFactorStatusView;
}

export default function TwoFactor({ t, status }: Props) {
  const [setup, setSetup] = useState<TotpSetupView | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [banner, setBanner] = useState<Banner | null>(null);
  const [disabling, setDisabling] = useState(false);
  const fail = (error: Error) =>
    setBanner({ tone: 'error', text: t('error', { message: errorMessage(error) }) });
  const changed = { invalidates: [adminKeys.security.all] };

  const begin = useAdminMutation<TotpSetupView>({
    mutationFn: () => adminFetch<TotpSetupView>('POST', '/api/admin/second-factor/setup'),
    onSuccess: setSetup,
    onError: fail,
  });
  const renew = useAdminMutation<{ recoveryCodes: string[] }>({
    ...changed,
    mutationFn: () => adminFetch('POST', '/api/admin/second-factor/recovery-codes'),
    onSuccess: (made) => {
      setCodes(made.recoveryCodes);
      setBanner({ tone: 'success', text: t('renewed') });
    },
    onError: fail,
  });
  const busy = begin.isPending || renew.isPending;

  return (
    <>
      <Banners banner={banner} />
      <Section id="security-2fa" title={t('twoFactor.title')} className={SECTION}>
        <p>{t('twoFactor.intro')}</p>
        {status.enabled ? (
          <>
            <p className="font-medium text-green-900">{t('twoFactor.on')}</p>
            <p>{t('recovery.left', { count: status.recoveryCodesLeft })}</p>
            <div className="flex flex-wrap gap-3">
              <button
                type="button"
                className={BUTTON}
                disabled={busy}
                onClick={() => {
                  setBanner(null);
                  renew.mutate();
                }}
              >
                {t('recovery.renew')}
              </button>
              <button type="button" className={BUTTON} onClick={() => setDisabling(true)}>
                {t('disable.open')}
              </button>
            </div>
            {disabling && (
              <DisableForm
                t={t}
                onDone={() => {
                  setDisabling(false);
                  setCodes(null);
                  setBanner({ tone: 'success', text: t('disabled') });
                }}
              />
            )}
          </>
        ) : setup ? (
          <SetupSteps
            t={t}
            setup={setup}
            onDone={(recoveryCodes) => {
              setSetup(null);
              setCodes(recoveryCodes);
              setBanner({ tone: 'success', text: t('enabled') });
            }}
          />
        ) : (
          <>
            <p className="font-medium text-amber-900">{t('twoFactor.off')}</p>
            <button
              type="button"
              className={PRIMARY}
              disabled={busy}
              onClick={() => {
                setBanner(null);
                begin.mutate();
              }}
            >
              {t('twoFactor.enable')}
            </button>
          </>
        )}
        {codes && <RecoveryCodes codes={codes} t={t} onDone={() => setCodes(null)} />}
      </Section>
    </>
  );
}

function RecoveryCodes({
  codes,
  t,
  onDone,
}: {
  codes: string[];
  t: Translate;
  onDone: () => void;
}) {
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
