// Reset password (docs/accounts-api.md): the token from the mailed link, a new password twice,
// POST /api/auth/password/reset; then a link to log in. A used, unknown or expired token
// (`invalid_token`) says so and offers to ask for a new link.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  AuthField,
  confirmError,
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
  token: string;
  links: { login: string; forgot: string };
}

const FIELDS = ['password', 'confirmPassword'] as const;

type State = 'idle' | 'submitting' | 'done' | 'invalidToken';

export default function ResetPasswordForm({ locale, messages, token, links }: Props) {
  const t = translator(messages);
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  // The outcome replaces the form (and its focused button): the keyboard goes to the message.
  const message = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<State>('idle');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');

  useEffect(() => {
    if (state === 'done' || state === 'invalidToken') message.current?.focus();
  }, [state]);

  const edited = (name: string) => {
    setFailure('');
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state !== 'idle') return;
    const element = event.currentTarget;
    const password = fieldValue(element, 'password');
    const confirmPassword = fieldValue(element, 'confirmPassword');
    const found = onlyErrors({
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
    const result = await sendJson<{ ok: true }>('/api/auth/password/reset', {
      token,
      password,
      confirmPassword,
    });
    if (result.ok) {
      setState('done');
      return;
    }
    if (result.error?.code === 'invalid_token') {
      setState('invalidToken');
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

  const link = 'font-medium underline';
  const finished = state === 'done' || state === 'invalidToken';
  const outcome = (
    <StatusLine>
      {state === 'done' && (
        <div ref={message} tabIndex={-1} className={SUCCESS_BOX}>
          <p>{t('reset.success')}</p>
          <p className="mt-2">
            <a href={links.login} className={link}>
              {t('reset.loginLink')}
            </a>
          </p>
        </div>
      )}
      {state === 'invalidToken' && (
        <div
          ref={message}
          tabIndex={-1}
          className="rounded border border-red-700 bg-red-50 p-4 text-red-900"
        >
          <p>{t('errors.invalid_token')}</p>
          <p className="mt-2">
            <a href={links.forgot} className={link}>
              {t('reset.requestNew')}
            </a>
          </p>
        </div>
      )}
    </StatusLine>
  );
  const error = (name: (typeof FIELDS)[number]) => {
    const key = errors[name];
    return key && t(key);
  };
  // The status region stays mounted, so the outcome is announced when it appears.
  return (
    <div>
      {outcome}
      {!finished && (
        <form
          ref={form}
          noValidate
          onSubmit={(event) => void submit(event)}
          aria-busy={state === 'submitting' || undefined}
          className="space-y-5"
        >
          <AuthField
            form="reset"
            name="password"
            type="password"
            label={t('auth.newPassword')}
            autoComplete="new-password"
            hint={t('auth.passwordHint')}
            error={error('password')}
            onEdit={edited}
          />
          <AuthField
            form="reset"
            name="confirmPassword"
            type="password"
            label={t('auth.confirmPassword')}
            autoComplete="new-password"
            error={error('confirmPassword')}
            onEdit={edited}
          />
          <ErrorBox text={failure} />
          <button
            type="submit"
            disabled={!hydrated}
            aria-disabled={state === 'submitting' || undefined}
            className={SUBMIT_BUTTON}
          >
            {state === 'submitting' ? t('reset.submitting') : t('reset.submit')}
          </button>
        </form>
      )}
    </div>
  );
}
