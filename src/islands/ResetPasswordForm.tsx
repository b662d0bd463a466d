// Reset password (docs/accounts-api.md): the token from the mailed link, a new password twice,
// POST /api/auth/password/reset; then a link to log in. A used, unknown or expired token
// (`invalid_token`) says so and offers to ask for a new link.
import { useEffect, useRef } from 'react';
import {
  AuthField,
  ErrorBox,
  StatusLine,
  SUBMIT_BUTTON,
  SUCCESS_BOX,
  useHydrated,
} from './auth-kit.tsx';
import { useFormKit } from './form-kit.tsx';
import { resetPasswordSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
  token: string;
  links: { login: string; forgot: string };
}

const FIELDS = ['password', 'confirmPassword'] as const;

export default function ResetPasswordForm({ locale, messages, token, links }: Props) {
  const hydrated = useHydrated();
  // The outcome replaces the form (and its focused button): the keyboard goes to the message.
  const message = useRef<HTMLDivElement>(null);
  const {
    formRef: form,
    state,
    failure,
    edited,
    onSubmit: submit,
    error,
    t,
  } = useFormKit({
    schema: resetPasswordSchema,
    fields: FIELDS,
    endpoint: '/api/auth/password/reset',
    messages,
    locale,
    extra: { token },
    done: 'done',
    outcomes: { invalid_token: 'invalidToken' },
  });

  useEffect(() => {
    if (state === 'done' || state === 'invalidToken') message.current?.focus();
  }, [state]);

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
