// The signup form (storefront §2 Signup, §4, §5, §8, §9): every field required, the passwords
// checked here in the spec's words, then POST /api/auth/signup; on success no session and no
// redirect, but "check your mailbox": the account opens from the link of the mail (decision 038).
// The server's answer is the same whether the email was free or taken (docs/accounts-api.md), so
// nothing here tells them apart either: the mail says which it was, to the address's owner only.
import { useState } from 'react';
import { fieldValue, SUCCESS_BOX } from './auth-kit.tsx';
import { emailField, KitForm, nameField, newPasswordFields, useFormKit } from './form-kit.tsx';
import { signupSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
}

const FIELDS = ['fullName', 'email', 'password', 'confirmPassword'];

export default function SignupForm({ locale, messages }: Props) {
  // The address as sent, shown back so a typo can be seen (the visitor's own words, to them).
  const [sentTo, setSentTo] = useState('');
  const kit = useFormKit({
    schema: signupSchema,
    fields: FIELDS,
    endpoint: '/api/auth/signup',
    messages,
    locale,
    extra: { locale },
    done: 'success',
    onDone: () => {
      const form = kit.formRef.current;
      setSentTo(form ? fieldValue(form, 'email').trim() : '');
    },
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
            <p className="font-medium">{t('signup.sent.title')}</p>
            <p className="mt-1 text-sm">{t('signup.sent.text', { email: sentTo })}</p>
            <p className="mt-1 text-sm">{t('signup.sent.browser')}</p>
            <p className="mt-1 text-sm">{t('signup.sent.help')}</p>
          </div>
        )
      }
      finished={state === 'success'}
    />
  );
}
