// The E-commerce tab (back office §2 "Site settings", §5; issue 12): the currency — a change warns
// that prices are not converted — the default shipping cost and the free-shipping threshold, and
// how card payments are really taken (Stripe's mode and whether its keys are set). No bank
// transfer: the shop does not take one, so there is nothing to tick.
import type { ReactNode } from 'react';
import { CURRENCIES } from '../../domain/currencies.ts';
import { formatWholeMoney } from '../../domain/money.ts';
import type { PaymentState, SiteSettings } from '../../schemas/settings.ts';
import type { CommerceDraft } from './drafts.ts';
import { Field, INPUT, rich, type Translate } from '../ui/kit.tsx';
import ShippingNotesFieldset from './ShippingNotesFieldset.tsx';

interface Props {
  t: Translate;
  draft: CommerceDraft;
  saved: SiteSettings;
  payment: PaymentState;
  errors: Record<string, string>;
  update: (change: Partial<CommerceDraft>) => void;
  onSubmit: () => void;
  saveBar: ReactNode;
}

const FIELDSET = 'space-y-5 rounded-lg border border-black/10 bg-white p-4 md:p-6';
// Floated, the legend sits inside the card like a heading instead of breaking its border.
const LEGEND = 'float-left mb-4 w-full font-serif text-xl [&+*]:clear-left';

const symbol = (currency: string) =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
    .formatToParts(0)
    .find((part) => part.type === 'currency')?.value ?? currency;

const MODE_BADGE: Record<PaymentState['mode'], string> = {
  live: 'border-green-800 bg-green-50 text-green-950',
  test: 'border-amber-700 bg-amber-50 text-amber-950',
  emulator: 'border-sky-800 bg-sky-50 text-sky-950',
};

export default function CommerceTab({
  t,
  draft,
  saved,
  payment,
  errors,
  update,
  onSubmit,
  saveBar,
}: Props) {
  const unit = symbol(draft.currency);
  const changedCurrency = draft.currency !== saved.currency;
  const money = (
    path: 'shipping_info.default_cost_cents' | 'shipping_info.free_threshold_cents',
    label: string,
    hint: string,
    step: number,
  ) => (
    <Field path={path} label={label} hint={hint} error={errors[path]} required>
      {(control) => (
        <div className="relative mt-1 max-w-56">
          <input
            {...control}
            type="number"
            inputMode="decimal"
            min={0}
            step={step}
            value={draft[path]}
            onChange={(e) => update({ [path]: e.target.value })}
            className={`${INPUT} mt-0 pr-10 text-right tabular-nums`}
          />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-black/70"
          >
            {unit}
          </span>
        </div>
      )}
    </Field>
  );
  const check = (configured: boolean, yes: string, no: string) => (
    <li className="flex items-start gap-2">
      <span
        aria-hidden="true"
        className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold text-white ${
          configured ? 'bg-green-800' : 'bg-red-800'
        }`}
      >
        {configured ? '✓' : '✗'}
      </span>
      <span>{configured ? yes : no}</span>
    </li>
  );

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      className="space-y-6"
    >
      <p className="max-w-prose text-black/75">{t('commerce.intro')}</p>

      <fieldset className={FIELDSET}>
        <legend className={LEGEND}>{t('currency.legend')}</legend>
        <Field
          path="currency"
          label={t('currency.label')}
          error={errors['currency']}
          hint={changedCurrency ? undefined : t('currency.hint')}
        >
          {(control) => (
            <select
              {...control}
              aria-describedby={
                [control['aria-describedby'], changedCurrency ? 'settings-currency-warning' : '']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
              value={draft.currency}
              onChange={(e) => update({ currency: e.target.value })}
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
        {changedCurrency && (
          <div
            id="settings-currency-warning"
            className="rounded border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950"
          >
            <p className="font-medium">{t('currency.warningTitle')}</p>
            <p className="mt-1">
              {t('currency.warning', {
                before: formatWholeMoney(42_000, saved.currency),
                after: formatWholeMoney(42_000, draft.currency),
              })}
            </p>
          </div>
        )}
      </fieldset>

      <fieldset className={FIELDSET}>
        <legend className={LEGEND}>{t('shipping.legend')}</legend>
        <div className="grid gap-5 md:grid-cols-2">
          {money(
            'shipping_info.default_cost_cents',
            t('shipping.cost', { unit }),
            t('shipping.costHint'),
            0.01,
          )}
          {money(
            'shipping_info.free_threshold_cents',
            t('shipping.threshold', { unit }),
            t('shipping.thresholdHint'),
            1,
          )}
        </div>
      </fieldset>

      <ShippingNotesFieldset
        t={t}
        draft={draft}
        errors={errors}
        update={update}
        fieldset={FIELDSET}
        legend={LEGEND}
      />

      <section aria-labelledby="settings-payment" className={FIELDSET}>
        <h2 id="settings-payment" className={LEGEND}>
          {t('payment.legend')}
        </h2>
        <div className="rounded border border-black/10 p-4">
          <div className="flex flex-wrap items-center gap-3">
            <p className="font-medium">{t('payment.card')}</p>
            <p
              className={`rounded-full border px-3 py-0.5 text-xs font-semibold tracking-wide ${MODE_BADGE[payment.mode]}`}
            >
              <span className="sr-only">{t('payment.modeLabel')} </span>
              {t(`payment.mode.${payment.mode}`)}
            </p>
          </div>
          <p className="mt-2 text-sm text-black/75">{t(`payment.${payment.mode}Text`)}</p>
          <ul className="mt-3 space-y-1 text-sm">
            {check(payment.secretKeyConfigured, t('payment.secretOk'), t('payment.secretMissing'))}
            {check(
              payment.webhookSecretConfigured,
              t('payment.webhookOk'),
              t('payment.webhookMissing'),
            )}
          </ul>
        </div>
        <p className="text-sm text-black/75">
          {rich(t('payment.where'), {
            secret: <code className="text-[0.85em]">STRIPE_SECRET_KEY</code>,
            publishable: <code className="text-[0.85em]">STRIPE_PUBLISHABLE_KEY</code>,
            webhook: <code className="text-[0.85em]">STRIPE_WEBHOOK_SECRET</code>,
          })}
        </p>
      </section>

      {saveBar}
    </form>
  );
}
