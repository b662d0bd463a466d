// Forgot password (docs/accounts-api.md): the email goes to POST /api/auth/password/forgot, and
// the answer is always the same neutral confirmation, whether an account exists or not.
import {
  AuthField,
  ErrorBox,
  StatusLine,
  SUBMIT_BUTTON,
  SUCCESS_BOX,
  useHydrated,
} from './auth-kit.tsx';
import { useFormKit } from './form-kit.tsx';
import { forgotPasswordSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
}

export default function ForgotPasswordForm({ locale, messages }: Props) {
  const hydrated = useHydrated();
  const {
    state,
    failure,
    edited,
    onSubmit: submit,
    error,
    t,
  } = useFormKit({
    schema: forgotPasswordSchema,
    fields: ['email'],
    endpoint: '/api/auth/password/forgot',
    messages,
    locale,
    extra: { locale },
    done: 'sent',
    // The neutral confirmation stays; another address may be tried.
    resubmitFrom: ['sent'],
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={state === 'submitting' || undefined}
      className="space-y-5"
    >
      <AuthField
        form="forgot"
        name="email"
        type="email"
        label={t('auth.email')}
        autoComplete="email"
        maxLength={254}
        error={error('email')}
        onEdit={edited}
      />
      <ErrorBox text={failure} />
      <StatusLine>
        {state === 'sent' && <p className={SUCCESS_BOX}>{t('forgot.sent')}</p>}
      </StatusLine>
      <button
        type="submit"
        disabled={!hydrated}
        aria-disabled={state === 'submitting' || undefined}
        className={SUBMIT_BUTTON}
      >
        {state === 'submitting' ? t('forgot.submitting') : t('forgot.submit')}
      </button>
    </form>
  );
}
