// The E-commerce tab (back office §2 "Site settings", §5; issues 12, 27): the currency — a change
// warns that prices are not converted — the default shipping cost and the free-shipping threshold
// typed in French ('15,00', '500'), the originals' shipping notes, and how card payments are really
// taken (PaymentSection.tsx). No bank transfer: the shop does not take one.
import type { ReactNode } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { CURRENCIES } from '../../domain/currencies.ts';
import { formatWholeMoney } from '../../domain/money.ts';
import type { PaymentState, SiteSettings } from '../../schemas/settings.ts';
import { Field, INPUT, type Translate } from '../ui/kit.tsx';
import type { CommerceDraft } from './drafts.ts';
import { Fieldset, UnitField, useFieldError } from './fields.tsx';
import PaymentSection from './PaymentSection.tsx';
import ShippingNotesFieldset from './ShippingNotesFieldset.tsx';
import type { SettingsTabState } from './useSettingsTab.ts';

interface Props {
  t: Translate;
  state: SettingsTabState<'commerce'>;
  saved: SiteSettings;
  payment: PaymentState;
  saveBar: ReactNode;
}

const symbol = (currency: string) =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
    .formatToParts(0)
    .find((part) => part.type === 'currency')?.value ?? currency;

export default function CommerceTab({ t, state, saved, payment, saveBar }: Props) {
  const { form } = state;
  const currency = useWatch({ control: form.control, name: 'currency' });
  const unit = symbol(currency);
  return (
    <form noValidate onSubmit={(event) => void state.submit(event)} className="space-y-6">
      <p className="max-w-prose text-black/75">{t('commerce.intro')}</p>
      <CurrencyFieldset t={t} form={form} saved={saved.currency} currency={currency} />
      <Fieldset legend={t('shipping.legend')}>
        <div className="grid gap-5 md:grid-cols-2">
          {/* The cost, then the order total from which shipping is free: both in the currency. */}
          {(
            [
              ['default_cost_cents', 'shipping.cost'],
              ['free_threshold_cents', 'shipping.threshold'],
            ] as const
          ).map(([name, key]) => (
            <UnitField
              key={name}
              form={form}
              path={`shipping_info.${name}`}
              label={t(key, { unit })}
              hint={t(`${key}Hint`)}
              unit={unit}
            />
          ))}
        </div>
      </Fieldset>
      <ShippingNotesFieldset t={t} form={form} />
      <PaymentSection t={t} payment={payment} />
      {saveBar}
    </form>
  );
}

function CurrencyFieldset(props: {
  t: Translate;
  form: UseFormReturn<CommerceDraft, unknown, unknown>;
  saved: string;
  currency: string;
}) {
  const { t, form, saved, currency } = props;
  const changed = currency !== saved;
  const error = useFieldError(form, 'currency');
  return (
    <Fieldset legend={t('currency.legend')}>
      <Field
        path="currency"
        label={t('currency.label')}
        error={error}
        hint={changed ? undefined : t('currency.hint')}
      >
        {(control) => (
          <select
            {...control}
            {...form.register('currency')}
            aria-describedby={
              [control['aria-describedby'], changed ? 'settings-currency-warning' : '']
                .filter(Boolean)
                .join(' ') || undefined
            }
            className={`${INPUT} max-w-sm`}
          >
            {CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {t(`currency.${code}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {changed && (
        <div
          id="settings-currency-warning"
          className="rounded border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950"
        >
          <p className="font-medium">{t('currency.warningTitle')}</p>
          <p className="mt-1">
            {t('currency.warning', {
              before: formatWholeMoney(42_000, saved),
              after: formatWholeMoney(42_000, currency),
            })}
          </p>
        </div>
      )}
    </Fieldset>
  );
}
