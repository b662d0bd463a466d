// The signup form (storefront §2 Signup, §4, §5, §8, §9): every field required, the passwords
// checked here in the spec's words, then POST /api/auth/signup; on success the message and the
// confirmation-mail notice, and the login page 2 s later. The server's answer is the same whether
// the email was free or taken (docs/accounts-api.md), so nothing here tells them apart either.
import {
  AuthField,
  ErrorBox,
  StatusLine,
  SUBMIT_BUTTON,
  SUCCESS_BOX,
  useHydrated,
} from './auth-kit.tsx';
import { useFormKit } from './form-kit.tsx';
import { signupSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
  links: { login: string };
}

/** storefront §9: the redirect after a signup waits 2 s. */
const REDIRECT_DELAY_MS = 2000;
const FIELDS = ['fullName', 'email', 'password', 'confirmPassword'] as const;

export default function SignupForm({ locale, messages, links }: Props) {
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
    schema: signupSchema,
    fields: FIELDS,
    endpoint: '/api/auth/signup',
    messages,
    locale,
    extra: { locale },
    done: 'success',
    // The login page says the account exists and what comes next (?created=1).
    onDone: () =>
      setTimeout(() => window.location.assign(`${links.login}?created=1`), REDIRECT_DELAY_MS),
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
        form="signup"
        name="fullName"
        type="text"
        label={t('auth.fullName')}
        autoComplete="name"
        maxLength={200}
        error={error('fullName')}
        onEdit={edited}
      />
      <AuthField
        form="signup"
        name="email"
        type="email"
        label={t('auth.email')}
        autoComplete="email"
        maxLength={254}
        error={error('email')}
        onEdit={edited}
      />
      <AuthField
        form="signup"
        name="password"
        type="password"
        label={t('auth.password')}
        autoComplete="new-password"
        hint={t('auth.passwordHint')}
        error={error('password')}
        onEdit={edited}
      />
      <AuthField
        form="signup"
        name="confirmPassword"
        type="password"
        label={t('auth.confirmPassword')}
        autoComplete="new-password"
        error={error('confirmPassword')}
        onEdit={edited}
      />
      <ErrorBox text={failure} />
      <StatusLine>
        {state === 'success' && (
          <div className={SUCCESS_BOX}>
            <p className="font-medium">{t('signup.success')}</p>
            <p className="mt-1 text-sm">{t('signup.checkEmail')}</p>
          </div>
        )}
      </StatusLine>
      <button
        type="submit"
        disabled={!hydrated || state === 'success'}
        aria-disabled={busy || undefined}
        className={SUBMIT_BUTTON}
      >
        {state === 'submitting' ? t('signup.submitting') : t('signup.submit')}
      </button>
    </form>
  );
}
