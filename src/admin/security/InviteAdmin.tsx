// Inviting another administrator (issue 24): the address, checked by the kernel's schema, then the
// one-time link shown once with its expiry in Paris time. Inviting asks for a re-authentication,
// which adminFetch's dialog handles.
import { useState } from 'react';
import { inviteAdminSchema } from '../../schemas/second-factor.ts';
import { adminFetch, useAdminMutation } from '../query.tsx';
import { applyServerErrors, useAdminForm } from '../ui/form.ts';
import { frenchDate } from '../ui/format.ts';
import type { Translate } from '../ui/kit.tsx';
import { formSchema, OneFieldForm, SECTION } from './forms.tsx';
import Section from '../ui/Section.tsx';

const EMAIL = { type: 'email', autoComplete: 'off', maxLength: 254 } as const;

interface Invitation {
  url: string;
  expiresAt: string;
}

export default function InviteAdmin({ t }: { t: Translate }) {
  const form = useAdminForm(formSchema<{ email: string }>(inviteAdminSchema), {
    defaultValues: { email: '' },
  });
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const invite = useAdminMutation<Invitation, { email: string }>({
    mutationFn: (body) => adminFetch<Invitation>('POST', '/api/admin/invitations', body),
    onSuccess: (made) => setInvitation(made),
    onError: (error) => {
      const message = applyServerErrors(form, error);
      if (message !== null)
        form.setError('email', { type: 'server', message: t('error', { message }) });
    },
  });
  const submit = form.handleSubmit((values) => {
    setInvitation(null);
    invite.mutate(values);
  });
  return (
    <Section id="security-invite" title={t('invite.title')} className={SECTION}>
      <p>{t('invite.intro')}</p>
      <OneFieldForm
        t={t}
        form={form}
        field={{ name: 'email', label: t('invite.email'), input: EMAIL }}
        submit={{ label: t('invite.submit'), busy: invite.isPending }}
        onSubmit={submit}
      />
      <div role="status" className="empty:hidden">
        {invitation && (
          <div className="space-y-2 rounded border border-green-800 bg-green-50 p-4 text-green-950">
            <p className="font-medium">
              {t('invite.done', { date: frenchDate(invitation.expiresAt) })}
            </p>
            <p className="font-mono text-sm break-all" data-testid="invitation-link">
              {invitation.url}
            </p>
          </div>
        )}
      </div>
    </Section>
  );
}
