// How card payments are really taken (the E-commerce tab, issue 12): Stripe's mode and whether its
// keys are set. Nothing to tick: the keys are the server's environment variables.
import type { PaymentState } from '../../schemas/settings.ts';
import { rich, type Translate } from '../ui/kit.tsx';
import { FIELDSET, LEGEND } from './fields.tsx';
import Section from '../ui/Section.tsx';

const MODE_BADGE: Record<PaymentState['mode'], string> = {
  live: 'border-green-800 bg-green-50 text-green-950',
  test: 'border-amber-700 bg-amber-50 text-amber-950',
  emulator: 'border-sky-800 bg-sky-50 text-sky-950',
};

function Check({ configured, yes, no }: { configured: boolean; yes: string; no: string }) {
  return (
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
}

export default function PaymentSection({ t, payment }: { t: Translate; payment: PaymentState }) {
  return (
    <Section
      id="settings-payment"
      title={t('payment.legend')}
      className={FIELDSET}
      heading={LEGEND}
    >
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
          <Check
            configured={payment.secretKeyConfigured}
            yes={t('payment.secretOk')}
            no={t('payment.secretMissing')}
          />
          <Check
            configured={payment.webhookSecretConfigured}
            yes={t('payment.webhookOk')}
            no={t('payment.webhookMissing')}
          />
        </ul>
      </div>
      <p className="text-sm text-black/75">
        {rich(t('payment.where'), {
          secret: <code className="text-[0.85em]">STRIPE_SECRET_KEY</code>,
          publishable: <code className="text-[0.85em]">STRIPE_PUBLISHABLE_KEY</code>,
          webhook: <code className="text-[0.85em]">STRIPE_WEBHOOK_SECRET</code>,
        })}
      </p>
    </Section>
  );
}
