// The second step of a sign-in for an account with a second factor (docs/decisions/037), shown by
// both login forms once the password was right: the authenticator app's code or a recovery code,
// POST /api/auth/second-factor. A pending sign-in lasts 5 minutes and takes five codes: after
// that the form says so and starts again from the password.
import { useEffect } from 'react';
import { SUCCESS_BOX } from './auth-kit.tsx';
import { KitForm, useFormKit } from './form-kit.tsx';
import { secondFactorCodeSchema } from '../schemas/second-factor.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  /** Ids stay unique beside the login form's (`login`, `admin-login`). */
  id: string;
  locale: Locale;
  messages: Messages;
  onDone: () => void;
  /** Back to the password (the pending sign-in is void). */
  onRestart: () => void;
}

export default function SecondFactorForm({ id, locale, messages, onDone, onRestart }: Props) {
  const kit = useFormKit({
    schema: secondFactorCodeSchema,
    fields: ['code'],
    endpoint: '/api/auth/second-factor',
    messages,
    locale,
    done: 'success',
    onDone,
    outcomes: { invalid_token: 'expired' },
  });
  const { t, state, formRef } = kit;
  // The password's form is gone: the keyboard goes to the code.
  useEffect(() => {
    const field = formRef.current?.elements.namedItem('code');
    if (field instanceof HTMLElement) field.focus();
  }, [formRef]);
  if (state === 'expired')
    return (
      <div className="space-y-4">
        <p role="alert" className="rounded border border-red-700 bg-red-50 p-4 text-red-900">
          {t('auth.secondFactor.expired')}
        </p>
        <button
          type="button"
          onClick={onRestart}
          className="min-h-11 rounded border border-black/20 bg-white px-4 hover:bg-black/5"
        >
          {t('auth.secondFactor.restart')}
        </button>
      </div>
    );
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4">
      <h2 id={`${id}-title`} className="font-serif text-2xl">
        {t('auth.secondFactor.title')}
      </h2>
      <p className="text-black/75">{t('auth.secondFactor.intro')}</p>
      <KitForm
        kit={kit}
        id={id}
        fields={[
          {
            name: 'code',
            type: 'text',
            label: t('auth.secondFactor.code'),
            autoComplete: 'one-time-code',
            hint: t('auth.secondFactor.codeHint'),
            maxLength: 32,
          },
        ]}
        submit={t('auth.secondFactor.submit')}
        submitting={t('auth.secondFactor.submitting')}
        status={
          state === 'success' && <p className={SUCCESS_BOX}>{t('auth.secondFactor.success')}</p>
        }
        finished={state === 'success'}
      />
    </section>
  );
}
