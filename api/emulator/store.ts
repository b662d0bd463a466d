// The emulator's in-memory Stripe account: Checkout Sessions, coupons, payment intents and refunds,
// created and changed by the same rules (and refused with the same errors) as Stripe's test mode.
// No HTTP here: index.ts maps requests to these methods, page.ts shows a session.
import { randomBytes } from 'node:crypto';
import { invalidRequest, noSuch } from './errors.ts';
import type { Params } from './form.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random Stripe-like id: `cs_test_` + 58 characters, `pi_` + 24, … */
export function randomId(prefix: string, length = 24, alphabet = ALPHABET): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return prefix + out;
}

type Metadata = Record<string, string>;

export interface Coupon {
  id: string;
  object: 'coupon';
  amount_off: number | null;
  created: number;
  currency: string | null;
  duration: 'once' | 'forever' | 'repeating';
  duration_in_months: number | null;
  livemode: false;
  max_redemptions: number | null;
  metadata: Metadata;
  name: string | null;
  percent_off: number | null;
  redeem_by: number | null;
  times_redeemed: number;
  valid: boolean;
}

export interface Price {
  id: string;
  object: 'price';
  active: false;
  created: number;
  currency: string;
  livemode: false;
  metadata: Metadata;
  product: string;
  type: 'one_time';
  unit_amount: number;
}

export interface LineItem {
  id: string;
  object: 'item';
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  price: Price;
  quantity: number;
}

export interface CustomerDetails {
  address: null;
  email: string | null;
  name: string | null;
  phone: null;
  tax_exempt: 'none';
  tax_ids: [];
}

export type SessionStatus = 'open' | 'complete' | 'expired';

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  allow_promotion_codes: boolean | null;
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  customer_details: CustomerDetails | null;
  customer_email: string | null;
  discounts: Array<{ coupon: string; promotion_code: null }>;
  expires_at: number;
  livemode: false;
  locale: string | null;
  metadata: Metadata;
  mode: 'payment';
  payment_intent: string | null;
  payment_method_types: ['card'];
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  shipping_cost: {
    amount_subtotal: number;
    amount_tax: 0;
    amount_total: number;
    shipping_rate: string;
  } | null;
  shipping_options: Array<{ shipping_amount: number; shipping_rate: string }>;
  status: SessionStatus;
  submit_type: string | null;
  success_url: string;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: 0 };
  ui_mode: 'hosted_page';
  /** Only while the session is open, as on Stripe. */
  url: string | null;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  latest_charge: string;
  livemode: false;
  metadata: Metadata;
  receipt_email: string | null;
  status: 'succeeded';
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  created: number;
  currency: string;
  metadata: Metadata;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
}

/** What the hosted page needs beyond the session: names and descriptions of the lines. */
export interface SessionRecord {
  session: CheckoutSession;
  lineItems: LineItem[];
  productDescriptions: Array<string | null>;
  shippingName: string | null;
  /** Sent on the payment intent created when the session is paid. */
  paymentIntentData: { metadata: Metadata; description: string | null };
}

export type EmitEvent = (type: string, object: CheckoutSession) => void;

/** Everything the store knows, as written to (and read back from) the data directory. */
export interface StoreSnapshot {
  sessions: SessionRecord[];
  coupons: Coupon[];
  paymentIntents: Array<PaymentIntent & { refunded: number }>;
  refunds: Refund[];
}

// Finished sessions are forgotten a month after their creation (reconciliation looks at pending
// orders, whose sessions last 24 h at most); payment intents and refunds are kept (small).
const KEEP_CLOSED_SESSIONS_S = 30 * 24 * 60 * 60;

export interface StoreOptions {
  /** The shop's address: session.url is built on it, and redirect URLs must share its origin. */
  publicBaseUrl: string;
  /** Receives checkout.session.completed / checkout.session.expired. */
  emit: EmitEvent;
  now?: () => number;
}

// Top-level parameters of POST /v1/checkout/sessions in the SDK's SessionCreateParams: known ones
// that the emulator does not model are accepted and ignored; anything else is refused like Stripe.
const SESSION_CREATE_PARAMS = [
  'adaptive_pricing',
  'after_expiration',
  'allow_promotion_codes',
  'allowed_payment_method_types',
  'automatic_tax',
  'billing_address_collection',
  'branding_settings',
  'cancel_url',
  'client_reference_id',
  'consent_collection',
  'currency',
  'custom_fields',
  'custom_text',
  'customer',
  'customer_account',
  'customer_creation',
  'customer_email',
  'customer_update',
  'discounts',
  'excluded_payment_method_types',
  'expand',
  'expires_at',
  'integration_identifier',
  'invoice_creation',
  'line_items',
  'locale',
  'managed_payments',
  'metadata',
  'mode',
  'name_collection',
  'optional_items',
  'origin_context',
  'payment_intent_data',
  'payment_method_collection',
  'payment_method_configuration',
  'payment_method_data',
  'payment_method_options',
  'permissions',
  'phone_number_collection',
  'redirect_on_completion',
  'return_url',
  'saved_payment_method_options',
  'setup_intent_data',
  'shipping_address_collection',
  'shipping_options',
  'submit_type',
  'subscription_data',
  'success_url',
  'tax_id_collection',
  'ui_mode',
  'wallet_options',
] as const;
const LINE_ITEM_PARAMS = [
  'adjustable_quantity',
  'metadata',
  'price',
  'price_data',
  'quantity',
  'tax_rates',
];
const PRICE_DATA_PARAMS = [
  'currency',
  'product',
  'product_data',
  'recurring',
  'tax_behavior',
  'unit_amount',
  'unit_amount_decimal',
];
const PRODUCT_DATA_PARAMS = [
  'description',
  'images',
  'metadata',
  'name',
  'tax_code',
  'tax_details',
  'unit_label',
];
const COUPON_CREATE_PARAMS = [
  'amount_off',
  'applies_to',
  'currency',
  'currency_options',
  'duration',
  'duration_in_months',
  'expand',
  'id',
  'max_redemptions',
  'metadata',
  'name',
  'percent_off',
  'redeem_by',
];
const REFUND_CREATE_PARAMS = [
  'amount',
  'charge',
  'currency',
  'customer',
  'expand',
  'instructions_email',
  'metadata',
  'origin',
  'payment_intent',
  'reason',
  'refund_application_fee',
  'reverse_transfer',
];
const LOCALES = [
  'auto',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'en-GB',
  'es',
  'es-419',
  'et',
  'fi',
  'fil',
  'fr',
  'fr-CA',
  'hi-IN',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'mt',
  'nb',
  'nl',
  'pl',
  'pt',
  'pt-BR',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'th',
  'tr',
  'vi',
  'zh',
  'zh-HK',
  'zh-TW',
] as const;

// Stripe: expires_at is 30 minutes to 24 hours after the session's creation.
const MIN_EXPIRY_S = 30 * 60;
const MAX_EXPIRY_S = 24 * 60 * 60;

function checkUrl(value: string, param: string, origin?: string): string {
  let url: URL;
  try {
    // {CHECKOUT_SESSION_ID} is a template, filled in on redirect.
    url = new URL(value.replaceAll('{CHECKOUT_SESSION_ID}', 'cs'));
  } catch {
    throw invalidRequest('Not a valid URL', param, 'url_invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidRequest('Not a valid URL', param, 'url_invalid');
  }
  // Issue 14: the emulator redirects the buyer there, so only to the shop itself (no open redirect).
  if (origin !== undefined && url.origin !== origin) {
    throw invalidRequest(
      `Not a valid URL: the payment emulator only redirects to the shop (${origin}).`,
      param,
      'url_invalid',
    );
  }
  return value;
}

function checkEmail(value: string, param: string): string {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
    throw invalidRequest(`Invalid email address: ${value}`, param, 'email_invalid');
  }
  return value;
}

function checkCurrency(value: string, param: string): string {
  const currency = value.toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) {
    throw invalidRequest(`Invalid currency: ${value}.`, param);
  }
  return currency;
}

/** Splits `total` over `weights` in proportion, the rounding remainder to the largest parts. */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0 || total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => ({ i, frac: x - Math.floor(x) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    left--;
  }
  return parts;
}

export class EmulatorStore {
  readonly #options: StoreOptions;
  readonly #now: () => number;
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #coupons = new Map<string, Coupon>();
  readonly #paymentIntents = new Map<string, PaymentIntent & { refunded: number }>();
  readonly #refunds = new Map<string, Refund>();
  readonly #timers = new Map<string, NodeJS.Timeout>();

  readonly #origin: string;

  constructor(options: StoreOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#origin = new URL(options.publicBaseUrl).origin;
  }

  /** The state to persist; closed sessions past their keeping time are dropped first. */
  snapshot(): StoreSnapshot {
    const oldest = this.#unixNow() - KEEP_CLOSED_SESSIONS_S;
    for (const [id, record] of this.#sessions)
      if (record.session.status !== 'open' && record.session.created < oldest)
        this.#sessions.delete(id);
    for (const [id, coupon] of this.#coupons)
      if (!coupon.valid && coupon.created < oldest) this.#coupons.delete(id);
    return {
      sessions: [...this.#sessions.values()],
      coupons: [...this.#coupons.values()],
      paymentIntents: [...this.#paymentIntents.values()],
      refunds: [...this.#refunds.values()],
    };
  }

  /**
   * Loads a snapshot written by an earlier process: open sessions get their expiry timers again,
   * and those whose expires_at passed meanwhile expire now (emitting their event).
   */
  restore(snapshot: StoreSnapshot): void {
    for (const record of snapshot.sessions) this.#sessions.set(record.session.id, record);
    for (const coupon of snapshot.coupons) this.#coupons.set(coupon.id, coupon);
    for (const intent of snapshot.paymentIntents) this.#paymentIntents.set(intent.id, intent);
    for (const refund of snapshot.refunds) this.#refunds.set(refund.id, refund);
    for (const { session } of snapshot.sessions)
      if (session.status === 'open') this.#scheduleExpiry(session.id, session.expires_at);
  }

  #unixNow(): number {
    return Math.floor(this.#now() / 1000);
  }

  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  // ── Checkout Sessions ────────────────────────────────────────────────────────────────────────

  createSession(params: Params): CheckoutSession {
    params.allowOnly(SESSION_CREATE_PARAMS);
    const created = this.#unixNow();

    const mode = params.string('mode') ?? 'payment';
    if (mode !== 'payment') {
      throw invalidRequest(
        `The payment emulator only supports mode=payment (got "${mode}").`,
        'mode',
      );
    }
    const uiMode = params.string('ui_mode');
    if (uiMode !== undefined && uiMode !== 'hosted_page' && uiMode !== 'hosted') {
      throw invalidRequest(
        `The payment emulator only supports the hosted payment page (ui_mode "${uiMode}").`,
        'ui_mode',
      );
    }

    // Lines: price_data only (the emulator keeps no catalogue of Prices).
    const items = params.list('line_items', 100);
    if (items.length === 0) {
      throw invalidRequest(
        'Missing required param: line_items.',
        'line_items',
        'parameter_missing',
      );
    }
    let currency: string | undefined;
    const lines = items.map((item) => {
      item.allowOnly(LINE_ITEM_PARAMS);
      const priceId = item.string('price');
      if (priceId !== undefined) throw noSuch('price', priceId, item.name('price'), 400);
      const priceData = item.object('price_data');
      if (!priceData) {
        throw invalidRequest(
          `Missing required param: ${item.name('price_data')}.`,
          item.name('price_data'),
          'parameter_missing',
        );
      }
      priceData.allowOnly(PRICE_DATA_PARAMS);
      if (priceData.has('recurring')) {
        throw invalidRequest(
          'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
          priceData.name('recurring'),
        );
      }
      const lineCurrency = checkCurrency(
        priceData.string('currency', { required: true }),
        priceData.name('currency'),
      );
      if (currency !== undefined && lineCurrency !== currency) {
        throw invalidRequest(
          'All line items must have the same currency.',
          priceData.name('currency'),
        );
      }
      currency = lineCurrency;
      const unitAmount = priceData.integer('unit_amount', { required: true, min: 1 });
      const productId = priceData.string('product');
      if (productId !== undefined)
        throw noSuch('product', productId, priceData.name('product'), 400);
      const product = priceData.object('product_data');
      if (!product) {
        throw invalidRequest(
          `Missing required param: ${priceData.name('product_data')}.`,
          priceData.name('product_data'),
          'parameter_missing',
        );
      }
      product.allowOnly(PRODUCT_DATA_PARAMS);
      const name = product.string('name', { required: true, max: 250 });
      const description = product.string('description') ?? null;
      for (const url of product.strings('images', 8)) checkUrl(url, product.name('images'));
      const quantity = item.integer('quantity', { required: true, min: 1 });
      return { currency: lineCurrency, unitAmount, name, description, quantity };
    });
    const sessionCurrency = currency ?? 'eur';
    const explicitCurrency = params.string('currency');
    if (
      explicitCurrency !== undefined &&
      checkCurrency(explicitCurrency, 'currency') !== currency
    ) {
      throw invalidRequest('The currency must match the currency of the line items.', 'currency');
    }

    // Discount: one coupon at most (no promotion codes in the emulator).
    const discounts = params.list('discounts', 1);
    if (discounts.length > 0 && params.boolean('allow_promotion_codes') === true) {
      throw invalidRequest(
        'You may only specify one of these parameters: allow_promotion_codes, discounts.',
        'discounts',
      );
    }
    if (discounts.length > 1) {
      throw invalidRequest('You may only specify one discount.', 'discounts');
    }
    let coupon: Coupon | undefined;
    const discount = discounts[0];
    if (discount) {
      discount.allowOnly(['coupon', 'promotion_code']);
      const promo = discount.string('promotion_code');
      if (promo !== undefined) {
        throw noSuch('promotion code', promo, discount.name('promotion_code'), 400);
      }
      const couponId = discount.string('coupon', { required: true });
      coupon = this.#coupons.get(couponId);
      if (!coupon) throw noSuch('coupon', couponId, discount.name('coupon'), 400);
      if (coupon.redeem_by !== null && coupon.redeem_by <= created) coupon.valid = false;
      if (!coupon.valid) {
        // Redeemed max_redemptions times, or past redeem_by.
        throw invalidRequest(
          `Coupon ${couponId} is no longer valid.`,
          discount.name('coupon'),
          'coupon_expired',
        );
      }
      if (coupon.amount_off !== null && coupon.currency !== sessionCurrency) {
        throw invalidRequest(
          `The coupon ${couponId} is in ${coupon.currency} and cannot be applied to a ${sessionCurrency} session.`,
          discount.name('coupon'),
        );
      }
    }

    // Shipping: one fixed-amount rate given inline (shipping_rate_data), which is then selected.
    const shippingOptions = params.list('shipping_options', 5);
    let shipping: { amount: number; name: string } | undefined;
    if (shippingOptions.length > 0) {
      const option = shippingOptions[0];
      const rateId = option?.string('shipping_rate');
      if (option && rateId !== undefined) {
        throw noSuch('shipping rate', rateId, option.name('shipping_rate'), 400);
      }
      const data = option?.object('shipping_rate_data');
      if (!option || !data) {
        throw invalidRequest(
          'Missing required param: shipping_options[0][shipping_rate_data].',
          'shipping_options[0][shipping_rate_data]',
          'parameter_missing',
        );
      }
      const fixed = data.object('fixed_amount');
      if (!fixed) {
        throw invalidRequest(
          `Missing required param: ${data.name('fixed_amount')}.`,
          data.name('fixed_amount'),
          'parameter_missing',
        );
      }
      const shippingCurrency = checkCurrency(
        fixed.string('currency', { required: true }),
        fixed.name('currency'),
      );
      if (shippingCurrency !== sessionCurrency) {
        throw invalidRequest(
          'The shipping rate currency must match the currency of the line items.',
          fixed.name('currency'),
        );
      }
      shipping = {
        amount: fixed.integer('amount', { required: true, min: 0 }),
        name: data.string('display_name', { required: true, max: 100 }),
      };
    }

    const shop = this.#origin;
    const successUrl = checkUrl(
      params.string('success_url', { required: true }),
      'success_url',
      shop,
    );
    const cancelUrlRaw = params.string('cancel_url');
    const cancelUrl =
      cancelUrlRaw === undefined ? null : checkUrl(cancelUrlRaw, 'cancel_url', shop);
    const emailRaw = params.string('customer_email');
    const customerEmail = emailRaw === undefined ? null : checkEmail(emailRaw, 'customer_email');
    const clientReferenceId = params.string('client_reference_id', { max: 200 }) ?? null;
    const metadata = params.metadata();
    const locale = params.oneOf('locale', LOCALES) ?? null;
    const submitType = params.oneOf('submit_type', ['auto', 'book', 'donate', 'pay', 'subscribe']);

    const expiresAt = params.integer('expires_at') ?? created + MAX_EXPIRY_S;
    if (expiresAt - created < MIN_EXPIRY_S) {
      throw invalidRequest(
        'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
        'expires_at',
      );
    }
    if (expiresAt - created > MAX_EXPIRY_S) {
      throw invalidRequest(
        'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
        'expires_at',
      );
    }

    const intentData = params.object('payment_intent_data');
    const paymentIntentData = {
      metadata: intentData?.metadata() ?? {},
      description: intentData?.string('description') ?? null,
    };

    // Amounts: the coupon applies to the lines (never below 0), shipping comes on top.
    const subtotals = lines.map((l) => l.unitAmount * l.quantity);
    const subtotal = subtotals.reduce((a, b) => a + b, 0);
    let amountDiscount = 0;
    if (coupon?.amount_off != null) amountDiscount = Math.min(coupon.amount_off, subtotal);
    else if (coupon?.percent_off != null) {
      amountDiscount = Math.min(Math.round((subtotal * coupon.percent_off) / 100), subtotal);
    }
    const lineDiscounts = apportion(amountDiscount, subtotals);
    const amountShipping = shipping?.amount ?? 0;
    const shippingRate = shipping ? randomId('shr_') : null;

    const id = randomId('cs_test_', 58);
    const lineItems: LineItem[] = lines.map((line, i) => {
      const lineSubtotal = subtotals[i] ?? 0;
      const lineDiscount = lineDiscounts[i] ?? 0;
      return {
        id: randomId('li_'),
        object: 'item',
        amount_discount: lineDiscount,
        amount_subtotal: lineSubtotal,
        amount_tax: 0,
        amount_total: lineSubtotal - lineDiscount,
        currency: line.currency,
        description: line.name,
        price: {
          id: randomId('price_'),
          object: 'price',
          active: false,
          created,
          currency: line.currency,
          livemode: false,
          metadata: {},
          product: randomId('prod_', 14),
          type: 'one_time',
          unit_amount: line.unitAmount,
        },
        quantity: line.quantity,
      };
    });

    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      allow_promotion_codes: params.boolean('allow_promotion_codes') ?? null,
      amount_subtotal: subtotal,
      amount_total: subtotal - amountDiscount + amountShipping,
      cancel_url: cancelUrl,
      client_reference_id: clientReferenceId,
      created,
      currency: sessionCurrency,
      customer: null,
      customer_details: null,
      customer_email: customerEmail,
      discounts: coupon ? [{ coupon: coupon.id, promotion_code: null }] : [],
      expires_at: expiresAt,
      livemode: false,
      locale,
      metadata,
      mode: 'payment',
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      shipping_cost:
        shipping && shippingRate
          ? {
              amount_subtotal: shipping.amount,
              amount_tax: 0,
              amount_total: shipping.amount,
              shipping_rate: shippingRate,
            }
          : null,
      shipping_options:
        shipping && shippingRate
          ? [{ shipping_amount: shipping.amount, shipping_rate: shippingRate }]
          : [],
      status: 'open',
      submit_type: submitType ?? null,
      success_url: successUrl,
      total_details: {
        amount_discount: amountDiscount,
        amount_shipping: amountShipping,
        amount_tax: 0,
      },
      ui_mode: 'hosted_page',
      url: `${this.#options.publicBaseUrl.replace(/\/+$/, '')}/emulator/checkout/${id}`,
    };
    this.#sessions.set(id, {
      session,
      lineItems,
      productDescriptions: lines.map((l) => l.description),
      shippingName: shipping?.name ?? null,
      paymentIntentData,
    });
    this.#scheduleExpiry(id, expiresAt);
    return session;
  }

  #scheduleExpiry(id: string, expiresAt: number): void {
    const delay = Math.max(0, expiresAt * 1000 - this.#now());
    const timer = setTimeout(() => {
      this.#timers.delete(id);
      const record = this.#sessions.get(id);
      if (record?.session.status === 'open') this.#expire(record);
    }, delay);
    timer.unref();
    this.#timers.set(id, timer);
  }

  #clearTimer(id: string): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  #expire(record: SessionRecord): void {
    this.#clearTimer(record.session.id);
    record.session.status = 'expired';
    record.session.url = null;
    this.#options.emit('checkout.session.expired', record.session);
  }

  /** The session's record; an open session past its expires_at expires now (timers may lag). */
  record(id: string): SessionRecord {
    const record = this.#sessions.get(id);
    if (!record) throw noSuch('checkout.session', id, 'session');
    if (record.session.status === 'open' && record.session.expires_at <= this.#unixNow()) {
      this.#expire(record);
    }
    return record;
  }

  expireSession(id: string): CheckoutSession {
    const record = this.record(id);
    if (record.session.status !== 'open') {
      throw invalidRequest(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${record.session.status}".`,
      );
    }
    this.#expire(record);
    return record.session;
  }

  /** What the test card 4242 4242 4242 4242 does: the session is paid and complete. */
  completeSession(id: string, customer: { email: string | null; name: string | null }) {
    const record = this.record(id);
    const { session } = record;
    if (session.status !== 'open') {
      throw invalidRequest(`This Checkout Session is no longer open (${session.status}).`);
    }
    this.#clearTimer(id);
    const created = this.#unixNow();
    const email = session.customer_email ?? customer.email;
    if (session.amount_total > 0) {
      const intent = {
        id: randomId('pi_'),
        object: 'payment_intent' as const,
        amount: session.amount_total,
        amount_received: session.amount_total,
        created,
        currency: session.currency,
        customer: null,
        description: record.paymentIntentData.description,
        latest_charge: randomId('ch_'),
        livemode: false as const,
        metadata: record.paymentIntentData.metadata,
        receipt_email: email,
        status: 'succeeded' as const,
        refunded: 0,
      };
      this.#paymentIntents.set(intent.id, intent);
      session.payment_intent = intent.id;
      session.payment_status = 'paid';
    } else {
      // Stripe completes a fully discounted session without any payment.
      session.payment_status = 'no_payment_required';
    }
    session.status = 'complete';
    session.url = null;
    session.customer_details = {
      address: null,
      email,
      name: customer.name,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    const couponId = session.discounts[0]?.coupon;
    const coupon = couponId === undefined ? undefined : this.#coupons.get(couponId);
    if (coupon) {
      coupon.times_redeemed++;
      if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) {
        coupon.valid = false;
      }
    }
    this.#options.emit('checkout.session.completed', session);
    return session;
  }

  // ── Coupons ─────────────────────────────────────────────────────────────────────────────────

  createCoupon(params: Params): Coupon {
    params.allowOnly(COUPON_CREATE_PARAMS);
    const id = params.string('id', { max: 200 }) ?? randomId('', 8, ALPHABET.slice(0, 36));
    if (this.#coupons.has(id)) {
      throw invalidRequest('Coupon already exists.', 'id', 'resource_already_exists');
    }
    const amountOff = params.integer('amount_off', { min: 1 });
    const percentOff = params.decimal('percent_off');
    if (amountOff !== undefined && percentOff !== undefined) {
      throw invalidRequest(
        'You may only specify one of these parameters: amount_off, percent_off.',
        'amount_off',
      );
    }
    if (amountOff === undefined && percentOff === undefined) {
      throw invalidRequest(
        'You must set either `percent_off` or `amount_off` and `currency`.',
        'percent_off',
        'parameter_missing',
      );
    }
    if (percentOff !== undefined && (percentOff <= 0 || percentOff > 100)) {
      throw invalidRequest(
        'Invalid percent_off: must be greater than 0 and at most 100.',
        'percent_off',
      );
    }
    const currencyRaw = params.string('currency');
    if (amountOff !== undefined && currencyRaw === undefined) {
      throw invalidRequest(
        'You must pass currency when passing amount_off.',
        'currency',
        'parameter_missing',
      );
    }
    const duration = params.oneOf('duration', ['once', 'forever', 'repeating']) ?? 'once';
    const coupon: Coupon = {
      id,
      object: 'coupon',
      amount_off: amountOff ?? null,
      created: this.#unixNow(),
      currency:
        amountOff !== undefined && currencyRaw !== undefined
          ? checkCurrency(currencyRaw, 'currency')
          : null,
      duration,
      duration_in_months: params.integer('duration_in_months', { min: 1 }) ?? null,
      livemode: false,
      max_redemptions: params.integer('max_redemptions', { min: 1 }) ?? null,
      metadata: params.metadata(),
      name: params.string('name', { max: 40 }) ?? null,
      percent_off: percentOff ?? null,
      redeem_by: params.integer('redeem_by') ?? null,
      times_redeemed: 0,
      valid: true,
    };
    this.#coupons.set(id, coupon);
    return coupon;
  }

  coupon(id: string): Coupon {
    const coupon = this.#coupons.get(id);
    if (!coupon) throw noSuch('coupon', id, 'coupon');
    return coupon;
  }

  deleteCoupon(id: string): { id: string; object: 'coupon'; deleted: true } {
    this.coupon(id);
    this.#coupons.delete(id);
    return { id, object: 'coupon', deleted: true };
  }

  // ── Payment intents and refunds ─────────────────────────────────────────────────────────────

  paymentIntent(id: string): PaymentIntent {
    const intent = this.#paymentIntents.get(id);
    if (!intent) throw noSuch('payment_intent', id, 'intent');
    const { refunded: _refunded, ...visible } = intent;
    return visible;
  }

  createRefund(params: Params): Refund {
    params.allowOnly(REFUND_CREATE_PARAMS);
    const intentId = params.string('payment_intent');
    const chargeId = params.string('charge');
    if (intentId === undefined && chargeId === undefined) {
      throw invalidRequest(
        'One of the following params should be provided for this request: payment_intent or charge.',
        'payment_intent',
        'parameter_missing',
      );
    }
    const intent =
      intentId !== undefined
        ? this.#paymentIntents.get(intentId)
        : [...this.#paymentIntents.values()].find((pi) => pi.latest_charge === chargeId);
    if (!intent) {
      throw noSuch(
        intentId !== undefined ? 'payment_intent' : 'charge',
        intentId ?? chargeId ?? '',
        intentId !== undefined ? 'payment_intent' : 'charge',
        400,
      );
    }
    const left = intent.amount_received - intent.refunded;
    if (left <= 0) {
      throw invalidRequest(
        `Charge ${intent.latest_charge} has already been refunded.`,
        undefined,
        'charge_already_refunded',
      );
    }
    const amount = params.integer('amount', { min: 1 }) ?? left;
    if (amount > left) {
      throw invalidRequest(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`,
        'amount',
        'amount_too_large',
      );
    }
    const refund: Refund = {
      id: randomId('re_'),
      object: 'refund',
      amount,
      charge: intent.latest_charge,
      created: this.#unixNow(),
      currency: intent.currency,
      metadata: params.metadata(),
      payment_intent: intent.id,
      reason: params.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer']) ?? null,
      status: 'succeeded',
    };
    intent.refunded += amount;
    this.#refunds.set(refund.id, refund);
    return refund;
  }

  refund(id: string): Refund {
    const refund = this.#refunds.get(id);
    if (!refund) throw noSuch('refund', id, 'refund');
    return refund;
  }
}
