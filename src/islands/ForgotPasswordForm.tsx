// Forgot password (docs/accounts-api.md): the email goes to POST /api/auth/password/forgot, and
// the answer is always the same neutral confirmation, whether an account exists or not.
import { SUCCESS_BOX } from './auth-kit.tsx';
import { emailField, KitForm, useFormKit } from './form-kit.tsx';
import { forgotPasswordSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
}

export default function ForgotPasswordForm({ locale, messages }: Props) {
  // The neutral confirmation stays; another address may be tried (resubmitFrom).
  const kit = useFormKit({
    schema: forgotPasswordSchema,
    fields: ['email'],
    endpoint: '/api/auth/password/forgot',
    messages,
    locale,
    extra: { locale },
    done: 'sent',
    resubmitFrom: ['sent'],
  });
  const { t, state } = kit;
  return (
    <KitForm
      kit={kit}
      id="forgot"
      fields={[emailField(t('auth.email'))]}
      submit={t('forgot.submit')}
      submitting={t('forgot.submitting')}
      status={state === 'sent' && <p className={SUCCESS_BOX}>{t('forgot.sent')}</p>}
    />
  );
}
