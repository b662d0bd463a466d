// The login form (storefront §2 Login, §4, §5, §8, §9): idle → submitting → 'Login successful!
// Redirecting...' and, 1.5 s later, the page the visitor came for; or the red error box.
import { useRef, useState, type FormEvent } from 'react';
import {
  AuthField,
  emailError,
  ErrorBox,
  failureText,
  fieldValue,
  focusFirstError,
  onlyErrors,
  passwordError,
  sendJson,
  serverFieldErrors,
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
  /** Where to go once signed in: a same-site path, checked on the server. */
  next: string;
}

/** storefront §9: the redirect after a login waits 1.5 s. */
const REDIRECT_DELAY_MS = 1500;
const FIELDS = ['email', 'password'] as const;

type State = 'idle' | 'submitting' | 'success';

export default function LoginForm({ locale, messages, next }: Props) {
  const t = translator(messages);
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const [state, setState] = useState<State>('idle');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');

  const edited = (name: string) => {
    setFailure('');
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state !== 'idle') return;
    const element = event.currentTarget;
    const email = fieldValue(element, 'email').trim();
    const password = fieldValue(element, 'password');
    const found = onlyErrors({ email: emailError(email), password: passwordError(password, true) });
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0) {
      focusFirstError(element, FIELDS, found);
      return;
    }
    setState('submitting');
    const result = await sendJson<{ ok: true }>('/api/auth/login', { email, password });
    if (result.ok) {
      setState('success');
      setTimeout(() => window.location.assign(next), REDIRECT_DELAY_MS);
      return;
    }
    setState('idle');
    const fields = serverFieldErrors(result.error, FIELDS, messages);
    if (fields) {
      setErrors(fields);
      focusFirstError(form.current, FIELDS, fields);
      return;
    }
    setFailure(failureText(t, messages, locale, result.error, result.retryAfterSeconds));
  }

  const busy = state !== 'idle';
  return (
    <form
      ref={form}
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={state === 'submitting' || undefined}
      className="space-y-5"
    >
      <AuthField
        form="login"
        name="email"
        type="email"
        label={t('auth.email')}
        autoComplete="email"
        maxLength={254}
        error={errors['email'] && t(errors['email'])}
        onEdit={edited}
      />
      <AuthField
        form="login"
        name="password"
        type="password"
        label={t('auth.password')}
        autoComplete="current-password"
        error={errors['password'] && t(errors['password'])}
        onEdit={edited}
      />
      <ErrorBox text={failure} />
      <StatusLine>
        {state === 'success' && <p className={SUCCESS_BOX}>{t('login.success')}</p>}
      </StatusLine>
      <button
        type="submit"
        disabled={!hydrated || state === 'success'}
        aria-disabled={busy || undefined}
        className={SUBMIT_BUTTON}
      >
        {state === 'submitting' ? t('login.submitting') : t('login.submit')}
      </button>
    </form>
  );
}
