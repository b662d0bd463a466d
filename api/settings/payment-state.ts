// What the settings screen is given (back office §2 "Site settings", issue 12): the live settings
// and how card payments are really taken — Stripe LIVE or TEST, or the built-in emulator — with
// whether each key is configured. Shared by GET /api/admin/settings, its save answer and the
// /admin/settings page's first view. Says only "configured or not", never a key.
import type { PaymentState, SettingsView } from '../../src/schemas/settings.ts';
import type { Database } from '../db/index.ts';
import { getPayments, hasPayments } from '../payments/index.ts';
import { liveSettings } from './index.ts';

export function paymentState(): PaymentState {
  if (!hasPayments())
    return {
      provider: 'stripe',
      mode: 'test',
      secretKeyConfigured: false,
      webhookSecretConfigured: false,
    };
  const payments = getPayments();
  return {
    provider: 'stripe',
    mode: payments.emulated ? 'emulator' : payments.mode,
    secretKeyConfigured:
      !payments.emulated &&
      !payments.problems.some((p) => p.startsWith('STRIPE_SECRET_KEY is not set')),
    webhookSecretConfigured:
      !payments.emulated && !payments.problems.some((p) => p.startsWith('STRIPE_WEBHOOK_SECRET')),
  };
}

/** The screen's view of the settings as they stand (a save's answer adds the changed keys). */
export async function settingsView(db: Database): Promise<SettingsView> {
  return { settings: await liveSettings(db), payment: paymentState(), changed: [] };
}
