// The seller's legal identity on the Général tab (issues 12, 26, 27): printed on invoices and the
// legal pages; the dashboard names what is missing (src/domain/legal.ts). The VAT rate is asked
// for under the 'rate' regime only, typed in French ('5,5').
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { Field, INPUT, type Translate } from '../ui/kit.tsx';
import type { GeneralDraft } from './drafts.ts';
import { Fieldset, TextField, useFieldError } from './fields.tsx';

interface Props {
  t: Translate;
  form: UseFormReturn<GeneralDraft, unknown, unknown>;
}

export default function LegalFieldset({ t, form }: Props) {
  const regime = useWatch({ control: form.control, name: 'legal_identity.vat_regime' });
  const regimeError = useFieldError(form, 'legal_identity.vat_regime');
  return (
    <Fieldset legend={t('legal.legend')}>
      <p className="text-sm text-black/70">{t('legal.intro')}</p>
      <div className="grid gap-5 md:grid-cols-2">
        <TextField
          form={form}
          path="legal_identity.name"
          label={t('legal.name')}
          options={{ maxLength: 200, autoComplete: 'organization' }}
        />
        <TextField
          form={form}
          path="legal_identity.siret"
          label={t('legal.siret')}
          options={{ maxLength: 20, inputMode: 'numeric', hint: t('legal.siretHint') }}
        />
        <TextField
          form={form}
          path="legal_identity.address"
          label={t('legal.address')}
          options={{ rows: 3, maxLength: 400, className: 'md:col-span-2' }}
        />
        <Field
          path="legal_identity.vat_regime"
          label={t('legal.vatRegime')}
          hint={t('legal.vatRegimeHint')}
          error={regimeError}
        >
          {(control) => (
            <select {...control} {...form.register('legal_identity.vat_regime')} className={INPUT}>
              {(['', 'franchise', 'rate'] as const).map((value) => (
                <option key={value} value={value}>
                  {t(`legal.vatRegime.${value || 'unset'}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {regime === 'rate' && (
          <TextField
            form={form}
            path="legal_identity.vat_rate_bp"
            label={t('legal.vatRate')}
            options={{
              maxLength: 8,
              inputMode: 'decimal',
              placeholder: '20',
              hint: t('legal.vatRateHint'),
            }}
          />
        )}
        <TextField
          form={form}
          path="legal_identity.vat_mention"
          label={t('legal.vat')}
          options={{
            maxLength: 200,
            placeholder: t('legal.vatPlaceholder'),
            hint: t('legal.vatHint'),
            className: 'md:col-span-2',
          }}
        />
      </div>
    </Fieldset>
  );
}
