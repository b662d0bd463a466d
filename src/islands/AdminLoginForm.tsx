// The back office's login (back office §2 "Admin login", §8): email and password, 'Veuillez
// remplir tous les champs' when one is empty, the §8 messages on failure, then — after the
// authenticator app's code when the second factor is on (docs/decisions/037) — the page the
// administrator came for.
import { useState } from 'react';
import { SUCCESS_BOX } from './auth-kit.tsx';
import { emailField, KitForm, useFormKit } from './form-kit.tsx';
import SecondFactorForm from './SecondFactorForm.tsx';
import { adminLoginSchema, type AdminLoginInput } from '../schemas/accounts.ts';
import type { Messages } from './types.ts';

interface Props {
  messages: Messages;
  /** Where to go once signed in: a same-site path, checked on the server. */
  next: string;
}

export default function AdminLoginForm({ messages, next }: Props) {
  // A new form (key) each time the password is asked again.
  const [attempt, setAttempt] = useState(0);
  const [step, setStep] = useState<'password' | 'code'>('password');
  if (step === 'code')
    return (
      <SecondFactorForm
        id="admin-second-factor"
        locale="fr"
        messages={messages}
        onDone={() => window.location.assign(next)}
        onRestart={() => {
          setStep('password');
          setAttempt((n) => n + 1);
        }}
      />
    );
  return (
    <PasswordStep key={attempt} messages={messages} next={next} onCode={() => setStep('code')} />
  );
}

function PasswordStep({ messages, next, onCode }: Props & { onCode: () => void }) {
  const kit = useFormKit<AdminLoginInput, 'success', { secondFactor?: boolean }>({
    schema: adminLoginSchema,
    fields: ['email', 'password'],
    endpoint: '/api/admin/session',
    messages,
    locale: 'fr',
    done: 'success',
    onDone: (data) => (data.secondFactor ? onCode() : window.location.assign(next)),
  });
  const { t, state, errors } = kit;
  // One message for any empty field (§8), in the box rather than twice under the fields.
  const empty = Object.values(errors).includes('admin.login.fillAll');
  return (
    <KitForm
      kit={kit}
      id="admin-login"
      fields={[
        emailField(t('admin.login.email'), 'username'),
        {
          name: 'password',
          type: 'password',
          label: t('admin.login.password'),
          autoComplete: 'current-password',
        },
      ]}
      hideFieldErrors={empty}
      failure={empty ? t('admin.login.fillAll') : undefined}
      submit={t('admin.login.submit')}
      submitting={t('admin.login.submitting')}
      status={state === 'success' && <p className={SUCCESS_BOX}>{t('admin.login.success')}</p>}
      finished={state === 'success'}
    />
  );
}
