// The login form (storefront §2 Login, §4, §5, §8, §9): idle → submitting → 'Login successful!
// Redirecting...' and, 1.5 s later, the page the visitor came for; or the red error box.
import {
  AuthField,
  ErrorBox,
  StatusLine,
  SUBMIT_BUTTON,
  SUCCESS_BOX,
  useHydrated,
} from './auth-kit.tsx';
import { useFormKit } from './form-kit.tsx';
import { loginSchema } from '../schemas/accounts.ts';
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

export default function LoginForm({ locale, messages, next }: Props) {
  const hydrated = useHydrated();
  const {
    formRef: form,
    state,
    failure,
    edited,
    onSubmit: submit,
    error,
    t,
  } = useFormKit({
    schema: loginSchema,
    fields: FIELDS,
    endpoint: '/api/auth/login',
    messages,
    locale,
    done: 'success',
    onDone: () => setTimeout(() => window.location.assign(next), REDIRECT_DELAY_MS),
  });

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
        error={error('email')}
        onEdit={edited}
      />
      <AuthField
        form="login"
        name="password"
        type="password"
        label={t('auth.password')}
        autoComplete="current-password"
        error={error('password')}
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
