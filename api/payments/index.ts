// The payment provider, seen by the rest of the app: one `stripe` SDK client plus the keys around
// it. With STRIPE_SECRET_KEY unset the client points at the emulator mounted on our own server
// (api/emulator), so the same calls run in development, in tests and against Stripe in production.
import Stripe from 'stripe';

// Publishable keys are public by design; the emulator's secret key is random (api/emulator).
export const EMULATOR_PUBLISHABLE_KEY = 'pk_test_emulator';

export interface Payments {
  stripe: Stripe;
  webhookSecret: string;
  publishableKey: string;
  /** LIVE or TEST, from the publishable key's prefix (storefront §2 "Checkout"). */
  mode: 'live' | 'test';
  /** Whether checkout can run; otherwise `problems` says what is missing (no secrets). */
  ready: boolean;
  problems: string[];
  emulated: boolean;
}

export interface PaymentKeys {
  stripeSecretKey: string | undefined;
  stripePublishableKey: string | undefined;
  stripeWebhookSecret: string | undefined;
}

/** The real Stripe API, configured by the three keys. */
export function createStripePayments(keys: PaymentKeys): Payments {
  const problems: string[] = [];
  if (!keys.stripeSecretKey) problems.push('STRIPE_SECRET_KEY is not set');
  if (!keys.stripePublishableKey) problems.push('STRIPE_PUBLISHABLE_KEY is not set');
  if (!keys.stripeWebhookSecret) problems.push('STRIPE_WEBHOOK_SECRET is not set');
  const secret = keys.stripeSecretKey ?? 'sk_test_missing';
  const publishable = keys.stripePublishableKey ?? '';
  if (keys.stripeSecretKey && keys.stripePublishableKey) {
    const liveSecret = secret.startsWith('sk_live_') || secret.startsWith('rk_live_');
    if (liveSecret !== publishable.startsWith('pk_live_'))
      problems.push(
        'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are not both live or both test keys',
      );
  }
  return {
    stripe: new Stripe(secret, { maxNetworkRetries: 2, timeout: 20_000 }),
    webhookSecret: keys.stripeWebhookSecret ?? '',
    publishableKey: publishable,
    mode: publishable.startsWith('pk_live_') ? 'live' : 'test',
    ready: problems.length === 0,
    problems,
    emulated: false,
  };
}

/**
 * How payments are taken (docs/decisions/023): Stripe when a secret key is set; otherwise the
 * local emulator — on an http:// site (development, tests) or when PAYMENT_EMULATOR=on asks for it
 * (a demo); an https:// site without a key is a production site missing its keys, whose checkout
 * says 'Configuration incomplète' rather than taking test payments.
 */
export function paymentProvider(config: {
  stripeSecretKey: string | undefined;
  siteUrl: string;
  paymentEmulator: boolean;
}): 'stripe' | 'emulator' | 'unconfigured' {
  if (config.stripeSecretKey) return 'stripe';
  if (config.paymentEmulator || !config.siteUrl.startsWith('https:')) return 'emulator';
  return 'unconfigured';
}

/** The emulator on our own server at `port` (TEST mode, always ready), called with its key. */
export function createEmulatedPayments(
  port: number,
  webhookSecret: string,
  secretKey: string,
): Payments {
  return {
    stripe: new Stripe(secretKey, {
      host: '127.0.0.1',
      port,
      protocol: 'http',
      maxNetworkRetries: 1,
      timeout: 10_000,
    }),
    webhookSecret,
    publishableKey: EMULATOR_PUBLISHABLE_KEY,
    mode: 'test',
    ready: true,
    problems: [],
    emulated: true,
  };
}

// Shared between api/server.ts and the bundled Astro endpoints (two module instances).
const KEY = Symbol.for('galerie.payments');
type Holder = { [KEY]?: Payments };

export function providePayments(payments: Payments): void {
  (globalThis as Holder)[KEY] = payments;
}

export function getPayments(): Payments {
  const payments = (globalThis as Holder)[KEY];
  if (!payments) throw new Error('Payments are not configured: providePayments() was not called.');
  return payments;
}

export function hasPayments(): boolean {
  return (globalThis as Holder)[KEY] !== undefined;
}
