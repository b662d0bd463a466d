// Reset password (docs/accounts-api.md): the token from the mailed link, a new password twice,
// POST /api/auth/password/reset; then a link to log in. A used, unknown or expired token
// (`invalid_token`) says so and offers to ask for a new link.
import { KitForm, newPasswordFields, OutcomeLine, useTokenForm } from './form-kit.tsx';
import { resetPasswordSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
  token: string;
  links: { login: string; forgot: string };
}

const link = 'font-medium underline';

export default function ResetPasswordForm({ locale, messages, token, links }: Props) {
  const kit = useTokenForm({
    schema: resetPasswordSchema,
    fields: ['password', 'confirmPassword'],
    endpoint: '/api/auth/password/reset',
    messages,
    locale,
    token,
  });
  const { t, state } = kit;
  return (
    <div>
      <OutcomeLine
        outcome={
          state === 'done'
            ? {
                tone: 'success',
                content: (
                  <>
                    <p>{t('reset.success')}</p>
                    <p className="mt-2">
                      <a href={links.login} className={link}>
                        {t('reset.loginLink')}
                      </a>
                    </p>
                  </>
                ),
              }
            : state === 'invalidToken'
              ? {
                  tone: 'error',
                  content: (
                    <>
                      <p>{t('errors.invalid_token')}</p>
                      <p className="mt-2">
                        <a href={links.forgot} className={link}>
                          {t('reset.requestNew')}
                        </a>
                      </p>
                    </>
                  ),
                }
              : null
        }
      />
      {(state === 'idle' || state === 'submitting') && (
        <KitForm
          kit={kit}
          id="reset"
          fields={newPasswordFields(
            t('auth.newPassword'),
            t('auth.confirmPassword'),
            t('auth.passwordHint'),
          )}
          submit={t('reset.submit')}
          submitting={t('reset.submitting')}
        />
      )}
    </div>
  );
}
