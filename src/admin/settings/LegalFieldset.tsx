// The seller's legal identity on the Général tab (issues 12, 26, 27): printed on invoices and the
// legal pages; the dashboard names what is missing (src/domain/legal.ts). The VAT rate is asked
// for under the 'rate' regime only, typed in French ('5,5').
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { Field, INPUT, type Translate } from '../ui/kit.tsx';
import type { GeneralDraft } from './drafts.ts';
import { Fieldset, TextFields, useFieldError, type TextFieldRow } from './fields.tsx';

interface Props {
  t: Translate;
  form: UseFormReturn<GeneralDraft, unknown, unknown>;
}

/** Who sells: the name, SIRET and postal address printed on invoices and the legal pages. */
function sellerRows(t: Translate): TextFieldRow<GeneralDraft>[] {
  const siret = { maxLength: 20, inputMode: 'numeric', hint: t('legal.siretHint') } as const;
  const address = { rows: 3, maxLength: 400, className: 'md:col-span-2' };
  return [
    ['legal_identity.name', t('legal.name'), { maxLength: 200, autoComplete: 'organization' }],
    ['legal_identity.siret', t('legal.siret'), siret],
    ['legal_identity.address', t('legal.address'), address],
  ];
}

/** The VAT rate (under the 'rate' regime only), then the VAT mention every invoice carries. */
function vatRows(t: Translate, regime: string): TextFieldRow<GeneralDraft>[] {
  const hint = t('legal.vatRateHint');
  const rate = { maxLength: 8, inputMode: 'decimal', placeholder: '20', hint } as const;
  const mention = {
    maxLength: 200,
    placeholder: t('legal.vatPlaceholder'),
    hint: t('legal.vatHint'),
    className: 'md:col-span-2',
  };
  const rows: TextFieldRow<GeneralDraft>[] = [
    ['legal_identity.vat_mention', t('legal.vat'), mention],
  ];
  return regime === 'rate'
    ? [['legal_identity.vat_rate_bp', t('legal.vatRate'), rate], ...rows]
    : rows;
}

export default function LegalFieldset({ t, form }: Props) {
  const regime = useWatch({ control: form.control, name: 'legal_identity.vat_regime' });
  const regimeError = useFieldError(form, 'legal_identity.vat_regime');
  return (
    <Fieldset legend={t('legal.legend')}>
      <p className="text-sm text-black/70">{t('legal.intro')}</p>
      <div className="grid gap-5 md:grid-cols-2">
        <TextFields form={form} rows={sellerRows(t)} />
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
        <TextFields form={form} rows={vatRows(t, regime)} />
      </div>
    </Fieldset>
  );
}
