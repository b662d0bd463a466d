// Accepting an administrator invitation (back office, French only; docs/accounts-api.md): the
// token from the invitation link, a name and a password twice, POST /api/admin/invitations/accept;
// then a link to log in. A used, unknown or expired invitation (`invalid_token`) says so.
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
import { acceptInvitationSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
  token: string;
  links: { login: string };
}

const FIELDS = ['fullName', 'password', 'confirmPassword'] as const;

export default function AdminInvitationForm({ locale, messages, token, links }: Props) {
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
    schema: acceptInvitationSchema,
    fields: FIELDS,
    endpoint: '/api/admin/invitations/accept',
    messages,
    locale,
    extra: { token },
    done: 'done',
    outcomes: { invalid_token: 'invalidToken' },
  });

  useEffect(() => {
    if (state === 'done' || state === 'invalidToken') message.current?.focus();
  }, [state]);

  const finished = state === 'done' || state === 'invalidToken';
  // The status region stays mounted, so the outcome is announced when it appears.
  return (
    <div>
      <StatusLine>
        {state === 'done' && (
          <div ref={message} tabIndex={-1} className={SUCCESS_BOX}>
            <p>{t('invitation.success')}</p>
            <p className="mt-2">
              <a href={links.login} className="font-medium underline">
                {t('invitation.loginLink')}
              </a>
            </p>
          </div>
        )}
        {state === 'invalidToken' && (
          <p
            ref={message}
            tabIndex={-1}
            className="rounded border border-red-700 bg-red-50 p-4 text-red-900"
          >
            {t('invitation.invalidToken')}
          </p>
        )}
      </StatusLine>
      {!finished && (
        <form
          ref={form}
          noValidate
          onSubmit={(event) => void submit(event)}
          aria-busy={state === 'submitting' || undefined}
          className="space-y-5"
        >
          <AuthField
            form="invitation"
            name="fullName"
            type="text"
            label={t('auth.fullName')}
            autoComplete="name"
            maxLength={200}
            error={error('fullName')}
            onEdit={edited}
          />
          <AuthField
            form="invitation"
            name="password"
            type="password"
            label={t('auth.password')}
            autoComplete="new-password"
            hint={t('auth.passwordHint')}
            error={error('password')}
            onEdit={edited}
          />
          <AuthField
            form="invitation"
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
            {state === 'submitting' ? t('invitation.submitting') : t('invitation.submit')}
          </button>
        </form>
      )}
    </div>
  );
}
