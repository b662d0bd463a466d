// Forgot password (docs/accounts-api.md): the email goes to POST /api/auth/password/forgot, and
// the answer is always the same neutral confirmation, whether an account exists or not.
import { useState, type FormEvent } from 'react';
import {
  AuthField,
  emailError,
  ErrorBox,
  failureText,
  fieldValue,
  focusFirstError,
  onlyErrors,
  sendJson,
  StatusLine,
  SUBMIT_BUTTON,
  SUCCESS_BOX,
  useHydrated,
  type FieldErrors,
} from './auth-kit.tsx';
import { translator } from './translate.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
}

type State = 'idle' | 'submitting' | 'sent';

export default function ForgotPasswordForm({ locale, messages }: Props) {
  const t = translator(messages);
  const hydrated = useHydrated();
  const [state, setState] = useState<State>('idle');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');

  const edited = (name: string) => {
    setFailure('');
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state === 'submitting') return;
    const element = event.currentTarget;
    const email = fieldValue(element, 'email').trim();
    const found = onlyErrors({ email: emailError(email) });
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0) {
      focusFirstError(element, ['email'], found);
      return;
    }
    setState('submitting');
    const result = await sendJson<{ ok: true }>('/api/auth/password/forgot', { email, locale });
    if (result.ok) {
      setState('sent');
      return;
    }
    setState('idle');
    setFailure(failureText(t, messages, locale, result.error, result.retryAfterSeconds));
  }

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
        error={errors['email'] && t(errors['email'])}
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
