// The login form (storefront §2 Login, §4, §5, §8, §9): idle → submitting → 'Login successful!
// Redirecting...' and, 1.5 s later, the page the visitor came for; or the red error box. A
// refused login also reminds a new customer of the confirmation link: an address not confirmed
// yet is refused like a wrong password (docs/decisions/038), and says so to nobody in particular.
import { useState } from 'react';
import { SUCCESS_BOX } from './auth-kit.tsx';
import { emailField, KitForm, useFormKit } from './form-kit.tsx';
import SecondFactorForm from './SecondFactorForm.tsx';
import { loginSchema, type LoginInput } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
  /** Where to go once signed in: a same-site path, checked on the server. */
  next: string;
}

/** storefront §9: the redirect after a login waits 1.5 s. */
const REDIRECT_DELAY_MS = 1500;
const FIELDS = ['email', 'password'];

/** An account with a second factor (an administrator's, docs/decisions/037) gives its code next. */
export default function LoginForm(props: Props) {
  // A new password form (key) each time a pending sign-in has run out.
  const [attempt, setAttempt] = useState(0);
  const [step, setStep] = useState<'password' | 'code'>('password');
  if (step === 'code')
    return (
      <SecondFactorForm
        id="login-second-factor"
        locale={props.locale}
        messages={props.messages}
        onDone={() => window.location.assign(props.next)}
        onRestart={() => {
          setStep('password');
          setAttempt((n) => n + 1);
        }}
      />
    );
  return <PasswordStep key={attempt} {...props} onCode={() => setStep('code')} />;
}

function PasswordStep({ locale, messages, next, onCode }: Props & { onCode: () => void }) {
  const goOn = () => setTimeout(() => window.location.assign(next), REDIRECT_DELAY_MS);
  const kit = useFormKit<LoginInput, 'success' | 'refused', { secondFactor?: boolean }>({
    schema: loginSchema,
    fields: FIELDS,
    endpoint: '/api/auth/login',
    messages,
    locale,
    done: 'success',
    onDone: (data) => (data.secondFactor ? onCode() : goOn()),
    outcomes: { invalid_credentials: 'refused' },
    resubmitFrom: ['refused'],
  });
  const { t, state } = kit;
  return (
    <KitForm
      kit={kit}
      id="login"
      fields={[
        emailField(t('auth.email')),
        {
          name: 'password',
          type: 'password',
          label: t('auth.password'),
          autoComplete: 'current-password',
        },
      ]}
      submit={t('login.submit')}
      submitting={t('login.submitting')}
      failure={state === 'refused' ? t('login.error.invalidCredentials') : undefined}
      status={state === 'success' && <p className={SUCCESS_BOX}>{t('login.success')}</p>}
      finished={state === 'success'}
    />
  );
}
