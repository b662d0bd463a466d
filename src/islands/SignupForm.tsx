// The signup form (storefront §2 Signup, §4, §5, §8, §9): every field required, the passwords
// checked here in the spec's words, then POST /api/auth/signup; on success the message and the
// confirmation-mail notice, and the login page 2 s later. The server's answer is the same whether
// the email was free or taken (docs/accounts-api.md), so nothing here tells them apart either.
import { SUCCESS_BOX } from './auth-kit.tsx';
import { emailField, KitForm, nameField, newPasswordFields, useFormKit } from './form-kit.tsx';
import { signupSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
  links: { login: string };
}

/** storefront §9: the redirect after a signup waits 2 s. */
const REDIRECT_DELAY_MS = 2000;
const FIELDS = ['fullName', 'email', 'password', 'confirmPassword'];

export default function SignupForm({ locale, messages, links }: Props) {
  // The login page says the account exists and what comes next (?created=1).
  const toLogin = () =>
    setTimeout(() => window.location.assign(`${links.login}?created=1`), REDIRECT_DELAY_MS);
  const kit = useFormKit({
    schema: signupSchema,
    fields: FIELDS,
    endpoint: '/api/auth/signup',
    messages,
    locale,
    extra: { locale },
    done: 'success',
    onDone: toLogin,
  });
  const { t, state } = kit;
  return (
    <KitForm
      kit={kit}
      id="signup"
      fields={[
        nameField(t('auth.fullName')),
        emailField(t('auth.email')),
        ...newPasswordFields(t('auth.password'), t('auth.confirmPassword'), t('auth.passwordHint')),
      ]}
      submit={t('signup.submit')}
      submitting={t('signup.submitting')}
      status={
        state === 'success' && (
          <div className={SUCCESS_BOX}>
            <p className="font-medium">{t('signup.success')}</p>
            <p className="mt-1 text-sm">{t('signup.checkEmail')}</p>
          </div>
        )
      }
      finished={state === 'success'}
    />
  );
}
