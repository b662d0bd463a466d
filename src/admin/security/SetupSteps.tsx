// Setting up the second factor (issue 24): the account added to the app by its link or by typing
// the key, then a first code — checked by the kernel's schema before the server checks it.
import { grouped } from '../Security.tsx';
import { secondFactorCodeSchema, type TotpSetupView } from '../../schemas/second-factor.ts';
import { adminFetch, adminKeys, useAdminMutation } from '../query.tsx';
import { applyServerErrors, useAdminForm } from '../ui/form.ts';
import { INLINE_LINK, type Translate } from '../ui/kit.tsx';
import { formSchema, OneFieldForm } from './forms.tsx';

const CODE = { autoComplete: 'one-time-code', inputMode: 'numeric', maxLength: 8 } as const;

interface Props {
  t: Translate;
  setup: TotpSetupView;
  onDone: (recoveryCodes: string[]) => void;
}

export default function SetupSteps({ t, setup, onDone }: Props) {
  const form = useAdminForm(formSchema<{ code: string }>(secondFactorCodeSchema), {
    defaultValues: { code: '' },
  });
  const confirm = useAdminMutation<{ recoveryCodes: string[] }, { code: string }>({
    mutationFn: (body) => adminFetch('POST', '/api/admin/second-factor/confirm', body),
    invalidates: [adminKeys.security.all],
    onSuccess: (made) => onDone(made.recoveryCodes),
    onError: (error) => {
      const message = applyServerErrors(form, error);
      if (message !== null) form.setError('code', { type: 'server', message });
    },
  });
  return (
    <ol className="list-decimal space-y-4 pl-5">
      <li className="space-y-2">
        <p>{t('setup.add')}</p>
        <p>
          <a href={setup.uri} className={`${INLINE_LINK} underline`}>
            {t('setup.link')}
          </a>
        </p>
        <p>{t('setup.type')}</p>
        <p
          className="rounded border border-black/15 bg-black/[0.03] px-3 py-2 font-mono text-lg tracking-wider"
          data-testid="totp-secret"
        >
          {grouped(setup.secret)}
        </p>
        <p className="text-sm text-black/70">{t('setup.settings')}</p>
      </li>
      <li>
        <OneFieldForm
          t={t}
          form={form}
          field={{ name: 'code', label: t('code'), hint: t('setup.confirmHint'), input: CODE }}
          submit={{ label: t('setup.confirm'), busy: confirm.isPending }}
          onSubmit={form.handleSubmit((values) => confirm.mutate(values))}
        />
      </li>
    </ol>
  );
}
