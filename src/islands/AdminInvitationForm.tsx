// Accepting an administrator invitation (back office, French only; docs/accounts-api.md): the
// token from the invitation link, a name and a password twice, POST /api/admin/invitations/accept;
// then a link to log in. A used, unknown or expired invitation (`invalid_token`) says so. The first
// administrator's setup link names no address: the form then asks for it (decision 048).
import {
  emailField,
  KitForm,
  nameField,
  newPasswordFields,
  OutcomeLine,
  useTokenForm,
} from './form-kit.tsx';
import { acceptInvitationSchema } from '../schemas/accounts.ts';
import type { Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  messages: Messages;
  token: string;
  /** The setup link's form: the account's email too. */
  askEmail?: boolean;
  links: { login: string };
}

export default function AdminInvitationForm({ locale, messages, token, askEmail, links }: Props) {
  const kit = useTokenForm({
    schema: acceptInvitationSchema,
    fields: askEmail
      ? ['email', 'fullName', 'password', 'confirmPassword']
      : ['fullName', 'password', 'confirmPassword'],
    endpoint: '/api/admin/invitations/accept',
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
                    <p>{t('invitation.success')}</p>
                    <p className="mt-2">
                      <a href={links.login} className="font-medium underline">
                        {t('invitation.loginLink')}
                      </a>
                    </p>
                  </>
                ),
              }
            : state === 'invalidToken'
              ? { tone: 'error', content: <p>{t('invitation.invalidToken')}</p> }
              : null
        }
      />
      {(state === 'idle' || state === 'submitting') && (
        <KitForm
          kit={kit}
          id="invitation"
          fields={[
            ...(askEmail ? [emailField(t('auth.email'))] : []),
            nameField(t('auth.fullName')),
            ...newPasswordFields(
              t('auth.password'),
              t('auth.confirmPassword'),
              t('auth.passwordHint'),
            ),
          ]}
          submit={t('invitation.submit')}
          submitting={t('invitation.submitting')}
        />
      )}
    </div>
  );
}
