// The signup form (storefront §2 Signup, §4, §5, §8, §9): every field required, the passwords
// checked here in the spec's words, then POST /api/auth/signup; on success the message and the
// confirmation-mail notice, and the login page 2 s later. The server's answer is the same whether
// the email was free or taken (docs/accounts-api.md), so nothing here tells them apart either.
import { useRef, useState, type FormEvent } from 'react';
import {
  AuthField,
  confirmError,
  emailError,
  ErrorBox,
  failureText,
  fieldValue,
  focusFirstError,
  nameError,
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
  links: { login: string };
}

/** storefront §9: the redirect after a signup waits 2 s. */
const REDIRECT_DELAY_MS = 2000;
const FIELDS = ['fullName', 'email', 'password', 'confirmPassword'] as const;

type State = 'idle' | 'submitting' | 'success';

export default function SignupForm({ locale, messages, links }: Props) {
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
    const fullName = fieldValue(element, 'fullName').trim();
    const email = fieldValue(element, 'email').trim();
    const password = fieldValue(element, 'password');
    const confirmPassword = fieldValue(element, 'confirmPassword');
    const found = onlyErrors({
      fullName: nameError(fullName),
      email: emailError(email),
      password: passwordError(password),
      confirmPassword: confirmPassword
        ? confirmError(password, confirmPassword)
        : 'auth.error.passwordRequired',
    });
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0) {
      focusFirstError(element, FIELDS, found);
      return;
    }
    setState('submitting');
    const result = await sendJson<{ ok: true }>('/api/auth/signup', {
      email,
      password,
      confirmPassword,
      fullName,
      locale,
    });
    if (result.ok) {
      setState('success');
      // The login page says the account exists and what comes next (?created=1).
      setTimeout(() => window.location.assign(`${links.login}?created=1`), REDIRECT_DELAY_MS);
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

  const error = (name: (typeof FIELDS)[number]) => {
    const key = errors[name];
    return key && t(key);
  };
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
