// Turning the second factor off (issue 24): proved by the password or by a code, each checked by
// its side of the kernel's proof schema; a wrong password is said on the field.
import { useState } from 'react';
import { proofSchema } from '../../schemas/second-factor.ts';
import { adminFetch, adminKeys, AdminCallError, useAdminMutation } from '../query.tsx';
import { applyServerErrors, useAdminForm } from '../ui/form.ts';
import type { Translate } from '../ui/kit.tsx';
import { formSchema, OneFieldForm } from './forms.tsx';

type Kind = 'password' | 'code';
const [passwordProof, codeProof] = proofSchema.def.options;
const PROOF_INPUT = {
  password: { type: 'password', autoComplete: 'current-password' },
  code: { type: 'text', autoComplete: 'one-time-code' },
} as const;

export default function DisableForm({ t, onDone }: { t: Translate; onDone: () => void }) {
  const [kind, setKind] = useState<Kind>('password');
  const choice = (
    <fieldset className="space-y-2">
      <legend className="font-medium">{t('disable.with')}</legend>
      {(['password', 'code'] as const).map((value) => (
        <label key={value} className="flex min-h-11 items-center gap-2">
          <input
            type="radio"
            name="kind"
            checked={kind === value}
            onChange={() => setKind(value)}
          />
          {t(`disable.${value}`)}
        </label>
      ))}
    </fieldset>
  );
  // One form per kind of proof: each has its own schema, field and message.
  return <Proof key={kind} t={t} kind={kind} onDone={onDone} choice={choice} />;
}

function Proof(props: { t: Translate; kind: Kind; onDone: () => void; choice: React.ReactNode }) {
  const { t, kind } = props;
  const form = useAdminForm(
    formSchema<Partial<Record<Kind, string>>>(kind === 'code' ? codeProof : passwordProof),
    { defaultValues: { [kind]: '' } },
  );
  const disable = useAdminMutation<unknown, Record<string, string>>({
    mutationFn: (body) => adminFetch('POST', '/api/admin/second-factor/disable', body),
    invalidates: [adminKeys.security.all],
    onSuccess: props.onDone,
    onError: (error) => {
      const wrong = error instanceof AdminCallError && error.error.code === 'invalid_credentials';
      const message = wrong ? t('wrongPassword') : applyServerErrors(form, error);
      if (message !== null) form.setError(kind, { type: 'server', message });
    },
  });
  return (
    <OneFieldForm
      t={t}
      form={form}
      field={{ name: kind, label: t(kind), input: PROOF_INPUT[kind] }}
      submit={{ label: t('disable.submit'), busy: disable.isPending }}
      onSubmit={form.handleSubmit((values) => disable.mutate(values as Record<string, string>))}
    >
      {props.choice}
    </OneFieldForm>
  );
}
