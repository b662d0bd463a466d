// The checkout page's island (storefront §2 Checkout, §4, §5, §8): the buyer's details, the
// pre-payment checks (nothing is sent while one fails), then POST /api/checkout with only ids,
// quantities, details and the promo code — the server prices everything — and off to the hosted
// payment page. The order summary is the server's cart. The fields are uncontrolled (read with
// FormData on submit), so what a buyer types before the island has hydrated is kept.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { formatPrice, type MessageKey } from '../i18n/index.ts';
import { checkoutSchema, type CheckoutPrefill, type Country } from '../schemas/checkout.ts';
import { fieldErrors as fieldErrorsOf } from '../schemas/fields.ts';
import { apiErrorText, callApi, type ApiError } from './api.ts';
import { setCartCount } from './cart-bridge.ts';
import { HoldNotice, holdText } from './HoldNotice.tsx';
import { LineImage } from './LineImage.tsx';
import { PromoBox } from './PromoBox.tsx';
import { CartTotals } from './Totals.tsx';
import { translator } from './translate.ts';
import type { CartAnswer, CartData, Locale, Messages } from './types.ts';

interface Props {
  locale: Locale;
  cart: CartData;
  messages: Messages;
  links: { cart: string; terms: string };
  /** From the server's payment configuration (no secrets): the LIVE/TEST badge and readiness. */
  payment: { mode: 'live' | 'test'; ready: boolean; problems: string[] };
  /** The code the site advertises (settings' banner code), for the promo hint. */
  promoHint: { code: string; percent: number } | null;
  countries: ReadonlyArray<{ code: Country; name: string }>;
  /** A signed-in customer's details and last address (issue 25 §9), from the server; editable. */
  prefill: CheckoutPrefill | null;
}

type FieldName =
  | 'name'
  | 'email'
  | 'phone'
  | 'street'
  | 'city'
  | 'postalCode'
  | 'country'
  | 'additionalInfo'
  | 'billingStreet'
  | 'billingCity'
  | 'billingPostalCode'
  | 'billingCountry'
  | 'billingAdditionalInfo'
  | 'acceptTerms';

/**
 * Each field's path in the checkout schema, in the order the form shows them (issue 9: the list
 * of problems follows the form, top to bottom, not the spec's back-office order).
 */
const PATHS: Record<FieldName, string> = {
  name: 'customer.name',
  email: 'customer.email',
  phone: 'customer.phone',
  street: 'shippingAddress.street',
  postalCode: 'shippingAddress.postalCode',
  city: 'shippingAddress.city',
  country: 'shippingAddress.country',
  additionalInfo: 'shippingAddress.additionalInfo',
  billingStreet: 'billingAddress.street',
  billingPostalCode: 'billingAddress.postalCode',
  billingCity: 'billingAddress.city',
  billingCountry: 'billingAddress.country',
  billingAdditionalInfo: 'billingAddress.additionalInfo',
  acceptTerms: 'acceptTerms',
};
/** The fields of the left column; the terms box sits by the pay button, after the summary. */
const FIELD_ORDER = Object.values(PATHS).filter((path) => path !== PATHS.acceptTerms);
const fieldId = (path: string) => `checkout-${path.replace(/\./g, '-')}`;

interface Problem {
  text: string;
  /** The field to go to, when the problem belongs to one. */
  path?: string | undefined;
}

const CONTROL =
  'mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2 aria-[invalid=true]:border-red-700';

interface FieldProps {
  path: string;
  label: string;
  required?: boolean;
  error: string | undefined;
  hint?: string | undefined;
  /** The control itself, given the id and ARIA attributes to carry. */
  children: (attributes: {
    id: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
    'aria-required': true | undefined;
    required: boolean;
    className: string;
  }) => ReactNode;
}

function Field({ path, label, required = false, error, hint, children }: FieldProps) {
  const id = fieldId(path);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return (
    <div>
      <label htmlFor={id} className="font-medium">
        {label}
        {required && (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        )}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy.length ? describedBy.join(' ') : undefined,
        'aria-required': required || undefined,
        required,
        className: CONTROL,
      })}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-black/70">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** storefront §9: France is the default country. */
const DEFAULT_COUNTRY: Country = 'FR';

/** The fields' starting values: a signed-in customer's, else empty. */
function startingValues(prefill: CheckoutPrefill | null): Partial<Record<FieldName, string>> {
  if (!prefill) return {};
  const address = prefill.shippingAddress;
  return {
    name: prefill.name,
    email: prefill.email,
    ...(address
      ? {
          street: address.street,
          postalCode: address.postalCode,
          city: address.city,
          country: address.country,
          additionalInfo: address.additionalInfo ?? '',
        }
      : {}),
  };
}

export default function CheckoutForm(props: Props) {
  const { locale, messages, links, payment, promoHint, countries } = props;
  const t = translator(messages);
  const defaults = startingValues(props.prefill);
  const [cart, setCart] = useState(props.cart);
  const [billingSame, setBillingSame] = useState(true);
  // Until hydrated, the pay button waits: a click would only submit the bare HTML form.
  const [hydrated, setHydrated] = useState(false);
  const billingBox = useRef<HTMLInputElement>(null);
  /** Schema path → translated error shown next to the field. */
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Problem[]>([]);
  const [submitError, setSubmitError] = useState('');
  const [processing, setProcessing] = useState(false);
  const [promoBusy, setPromoBusy] = useState(false);
  const problemBox = useRef<HTMLDivElement>(null);
  const money = (cents: number) => formatPrice(locale, cents, cart.currency);

  // Coming back from the payment page with the browser's Back button restores this page as it
  // was left: processing. It is not any more.
  useEffect(() => {
    setHydrated(true);
    // The server's count wins over the one remembered in the browser.
    setCartCount(props.cart.count);
    // The box may have been clicked before hydration.
    if (billingBox.current) setBillingSame(billingBox.current.checked);
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) setProcessing(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
    // Once, at hydration: the server's count is the page's, fixed for its life.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a mount-only effect, said above
  }, []);

  useEffect(() => {
    if (problems.length > 0) problemBox.current?.focus();
  }, [problems]);

  /** A schema message key (or one sent by the server) as text; `items.<i>.…` gives `{n}`. */
  const keyText = (key: string, path = '') => {
    const item = /^items\.(\d+)/.exec(path);
    const n = item ? Number(item[1]) + 1 : '';
    return key in messages ? t(key as MessageKey, { n }) : t('checkout.error.invalid');
  };

  /** storefront §5: editing any field clears the list, and that field's own error. */
  const edited = (name: FieldName) => () => {
    setProblems([]);
    setFieldErrors((before) => {
      if (!(PATHS[name] in before)) return before;
      const { [PATHS[name]]: _gone, ...rest } = before;
      return rest;
    });
  };

  /** The request body from the form's fields: only what POST /api/checkout accepts. */
  function payload(form: HTMLFormElement) {
    const data = new FormData(form);
    const value = (name: FieldName) => {
      const entry = data.get(PATHS[name]);
      return typeof entry === 'string' ? entry : '';
    };
    const optional = (name: FieldName, key: string) =>
      value(name).trim() ? { [key]: value(name) } : {};
    const address = (billing: boolean) => ({
      street: value(billing ? 'billingStreet' : 'street'),
      city: value(billing ? 'billingCity' : 'city'),
      postalCode: value(billing ? 'billingPostalCode' : 'postalCode'),
      country: value(billing ? 'billingCountry' : 'country'),
      ...optional(billing ? 'billingAdditionalInfo' : 'additionalInfo', 'additionalInfo'),
    });
    return {
      locale,
      acceptTerms: data.get(PATHS.acceptTerms) === 'on',
      items: cart.lines.map((line) => ({ artworkId: line.artworkId, quantity: line.quantity })),
      customer: { name: value('name'), email: value('email'), ...optional('phone', 'phone') },
      shippingAddress: address(false),
      billingSameAsShipping: billingSame,
      ...(billingSame ? {} : { billingAddress: address(true) }),
      ...(cart.promo ? { promoCode: cart.promo.code } : {}),
    };
  }

  /**
   * storefront §5 pre-payment check, in the order of the page: the fields top to bottom, then the
   * order summary, then the terms box by the pay button.
   */
  function prePaymentProblems(fields: Record<string, string>): Problem[] {
    const list: Problem[] = [];
    for (const path of FIELD_ORDER) {
      const key = fields[path];
      if (key) list.push({ text: keyText(key, path), path });
    }
    // The server names the cart's problem (issue 14: e.g. it changed in another tab).
    if (fields['items']) list.push({ text: keyText(fields['items'], 'items') });
    else if (cart.lines.length === 0) list.push({ text: t('checkout.error.cartEmpty') });
    cart.lines.forEach((line, index) => {
      const n = index + 1;
      if (!Number.isInteger(line.artworkId) || line.artworkId <= 0)
        list.push({ text: t('checkout.error.itemId', { n }) });
      if (!line.title[locale].trim()) list.push({ text: t('checkout.error.itemTitle', { n }) });
      if (!(line.unitPriceCents > 0)) list.push({ text: t('checkout.error.itemPrice', { n }) });
      if (!(line.quantity > 0)) list.push({ text: t('checkout.error.itemQuantity', { n }) });
    });
    if (!(cart.totals.subtotalCents > 0)) list.push({ text: t('checkout.error.subtotal') });
    if (!(cart.totals.totalCents > 0)) list.push({ text: t('checkout.error.total') });
    const terms = fields[PATHS.acceptTerms];
    if (terms) list.push({ text: keyText(terms, PATHS.acceptTerms), path: PATHS.acceptTerms });
    for (const [path, key] of Object.entries(fields)) {
      if (path === 'items' || path === PATHS.acceptTerms || FIELD_ORDER.includes(path)) continue;
      list.push({ text: keyText(key, path) });
    }
    return list.filter((p, i) => list.findIndex((q) => q.text === p.text) === i);
  }

  const showFieldErrors = (fields: Record<string, string>) =>
    setFieldErrors(
      Object.fromEntries(
        Object.entries(fields)
          .filter(([path]) => FIELD_ORDER.includes(path) || path === PATHS.acceptTerms)
          .map(([path, key]) => [path, keyText(key, path)]),
      ),
    );

  async function reloadCart() {
    const fresh = await callApi<CartAnswer>('GET', '/api/cart');
    if (!fresh.ok) return;
    setCart(fresh.data.cart);
    setCartCount(fresh.data.cart.count);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!payment.ready || processing) return;
    setSubmitError('');
    const body = payload(event.currentTarget);
    const parsed = checkoutSchema.safeParse(body);
    const fields = parsed.success ? {} : fieldErrorsOf(parsed.error);
    const list = prePaymentProblems(fields);
    showFieldErrors(fields);
    setProblems(list);
    if (list.length > 0 || !parsed.success) return;

    setProcessing(true);
    const result = await callApi<{ url?: unknown }>('POST', '/api/checkout', parsed.data);
    if (result.ok && typeof result.data.url === 'string') {
      window.location.assign(result.data.url);
      return;
    }
    setProcessing(false);
    const error: ApiError | null = result.ok ? { code: 'payment_failed' } : result.error;
    if (error?.code === 'invalid_input' && error.fields) {
      showFieldErrors(error.fields);
      setProblems(prePaymentProblems(error.fields));
      // The cart changed since this page was opened: the summary shows it as it is now.
      if (error.fields['items']) await reloadCart();
      return;
    }
    // Issue 14: this connection has its share of payments in progress (per-address limit).
    if (error?.code === 'rate_limited') {
      setSubmitError(
        t('checkout.error.tooManyCheckouts', { minutes: error.params?.['minutes'] ?? 30 }),
      );
      return;
    }
    const message = apiErrorText(
      messages,
      error,
      locale,
      error ? t('errors.internal') : t('checkout.error.network'),
    );
    // Issue 25 §9: the buyer who lost the race for an original is told when to try again.
    const until = error?.code === 'artwork_held' ? error.params?.['until'] : undefined;
    setSubmitError(
      typeof until === 'string' ? `${message}. ${holdText(t, locale, until, Date.now())}` : message,
    );
    // A work sold, held or out of stock meanwhile: the summary shows the cart as it is now.
    if (error && error.code !== 'payment_failed' && error.code !== 'payment_not_configured')
      await reloadCart();
  }

  async function promoChange(method: 'POST' | 'DELETE', body?: { code: string }) {
    setPromoBusy(true);
    const result = await callApi<CartAnswer>(method, '/api/cart/promo', body);
    setPromoBusy(false);
    if (result.ok) {
      setCart(result.data.cart);
      setCartCount(result.data.cart.count);
      setProblems([]);
      return null;
    }
    return apiErrorText(messages, result.error, locale, t('cart.error.update'));
  }

  const text = (
    name: FieldName,
    label: MessageKey,
    extra: {
      required?: boolean;
      type?: string;
      autoComplete: string;
      maxLength: number;
      hint?: string;
      inputMode?: 'email' | 'tel' | 'text';
    },
  ) => (
    <Field
      path={PATHS[name]}
      label={t(label)}
      required={extra.required ?? false}
      error={fieldErrors[PATHS[name]]}
      hint={extra.hint}
    >
      {(attributes) => (
        <input
          {...attributes}
          name={PATHS[name]}
          type={extra.type ?? 'text'}
          defaultValue={defaults[name]}
          onChange={edited(name)}
          autoComplete={extra.autoComplete}
          maxLength={extra.maxLength}
          inputMode={extra.inputMode}
          spellCheck={extra.type === 'email' ? false : undefined}
        />
      )}
    </Field>
  );

  const countrySelect = (name: 'country' | 'billingCountry', autoComplete: string) => (
    <Field
      path={PATHS[name]}
      label={t('checkout.country')}
      required
      error={fieldErrors[PATHS[name]]}
    >
      {(attributes) => (
        <select
          {...attributes}
          name={PATHS[name]}
          defaultValue={defaults[name] ?? DEFAULT_COUNTRY}
          onChange={edited(name)}
          autoComplete={autoComplete}
        >
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  const addressFields = (billing: boolean) => {
    const section = billing ? 'billing' : 'shipping';
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          {text(billing ? 'billingStreet' : 'street', 'checkout.street', {
            required: true,
            autoComplete: `${section} address-line1`,
            maxLength: 200,
          })}
        </div>
        {text(billing ? 'billingPostalCode' : 'postalCode', 'checkout.postalCode', {
          required: true,
          autoComplete: `${section} postal-code`,
          maxLength: 16,
        })}
        {text(billing ? 'billingCity' : 'city', 'checkout.city', {
          required: true,
          autoComplete: `${section} address-level2`,
          maxLength: 200,
        })}
        <div className="sm:col-span-2">
          {countrySelect(billing ? 'billingCountry' : 'country', `${section} country`)}
        </div>
        <div className="sm:col-span-2">
          {text(billing ? 'billingAdditionalInfo' : 'additionalInfo', 'checkout.additionalInfo', {
            autoComplete: `${section} address-line2`,
            maxLength: 500,
            hint: t('checkout.additionalInfoHint'),
          })}
        </div>
      </div>
    );
  };

  const legend = 'font-serif text-2xl';
  const payLabel = !payment.ready
    ? t('checkout.configIncomplete')
    : processing
      ? t('checkout.processing')
      : t('checkout.pay', { amount: money(cart.totals.totalCents) });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={processing || undefined}>
      <p>
        <a href={links.cart} className="inline-flex min-h-11 items-center gap-1 underline">
          <span aria-hidden="true">←</span> {t('checkout.backToCart')}
        </a>
      </p>

      <CompactTotal
        label={t('checkout.compactTotal')}
        amount={money(cart.totals.totalCents)}
        note={t('checkout.compactTotalNote')}
        link={t('checkout.compactTotalLink')}
      />
      {props.prefill && (
        <p className="mt-4 text-sm text-black/75">
          {t(props.prefill.shippingAddress ? 'checkout.prefilled' : 'checkout.prefilledDetails')}
        </p>
      )}

      {cart.removed.length > 0 && (
        <p role="status" className="mt-4 rounded border border-accent/40 bg-accent/5 p-4 text-sm">
          {t('cart.removedSold', {
            titles: cart.removed.map((title) => title[locale]).join(', '),
          })}
        </p>
      )}

      <div
        ref={problemBox}
        tabIndex={-1}
        role="alert"
        aria-labelledby={problems.length ? 'checkout-problems-title' : undefined}
        className="mt-4 rounded border border-red-700 bg-red-50 p-4 text-red-900 empty:hidden"
      >
        {problems.length > 0 && (
          <>
            <h2 id="checkout-problems-title" className="font-semibold">
              {t('checkout.errorsTitle')}
            </h2>
            {/* Each link is 24 px tall by itself (WCAG 2.5.8), whatever its neighbours' spacing
                reads as while the box scrolls into view. */}
            <ul className="mt-2 list-disc space-y-2 pl-5 text-sm">
              {problems.map((problem) => (
                <li key={problem.text}>
                  {problem.path ? (
                    <a
                      href={`#${fieldId(problem.path)}`}
                      className="inline-block min-h-6 align-top leading-6 underline"
                      onClick={(event) => {
                        event.preventDefault();
                        document.getElementById(fieldId(problem.path ?? ''))?.focus();
                      }}
                    >
                      {problem.text}
                    </a>
                  ) : (
                    problem.text
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>

      <div className="mt-6 grid gap-10 lg:grid-cols-[1fr_24rem]">
        <div className="space-y-10">
          <p className="text-sm text-black/70">{t('checkout.required')}</p>

          <fieldset className="space-y-4">
            <legend className={legend}>{t('checkout.personal')}</legend>
            {text('name', 'checkout.name', {
              required: true,
              autoComplete: 'name',
              maxLength: 200,
            })}
            <div className="grid gap-4 sm:grid-cols-2">
              {text('email', 'checkout.email', {
                required: true,
                type: 'email',
                inputMode: 'email',
                autoComplete: 'email',
                maxLength: 254,
              })}
              {text('phone', 'checkout.phone', {
                type: 'tel',
                inputMode: 'tel',
                autoComplete: 'tel',
                maxLength: 40,
              })}
            </div>
          </fieldset>

          <fieldset className="space-y-4">
            <legend className={legend}>{t('checkout.shipping')}</legend>
            {addressFields(false)}
          </fieldset>

          <div>
            <label className="flex min-h-11 items-center gap-3">
              <input
                type="checkbox"
                ref={billingBox}
                defaultChecked
                onChange={(event) => {
                  setBillingSame(event.target.checked);
                  setProblems([]);
                }}
                className="h-5 w-5 shrink-0"
              />
              {t('checkout.billingSame')}
            </label>
            {!billingSame && (
              <fieldset className="mt-6 space-y-4">
                <legend className={legend}>{t('checkout.billing')}</legend>
                {addressFields(true)}
              </fieldset>
            )}
          </div>

          <section
            aria-labelledby="checkout-secure-title"
            className="rounded-lg border border-black/10 bg-white/60 p-5"
          >
            <h2 id="checkout-secure-title" className="flex items-center gap-3 font-serif text-2xl">
              {t('checkout.secure.title')}{' '}
              <span
                className={`rounded px-2 py-0.5 font-sans text-xs font-bold tracking-wider ${
                  payment.mode === 'live'
                    ? 'bg-green-800 text-white'
                    : 'bg-amber-200 text-amber-950'
                }`}
              >
                {t(payment.mode === 'live' ? 'checkout.mode.live' : 'checkout.mode.test')}
              </span>
            </h2>
            <p className="mt-2 text-sm text-black/75">{t('checkout.secure.text')}</p>
            <p className="mt-1 text-sm text-black/75">
              {t(payment.mode === 'live' ? 'checkout.mode.liveText' : 'checkout.mode.testText')}
            </p>
          </section>
        </div>

        <section
          aria-labelledby="checkout-summary-title"
          className="h-fit space-y-6 rounded-lg border border-black/10 bg-white p-6"
        >
          <h2 id="checkout-summary-title" className="font-serif text-2xl">
            {t('checkout.summary')}
          </h2>
          <ul className="space-y-4">
            {cart.lines.map((line) => (
              <li key={line.id} className="flex gap-3">
                <LineImage image={line.image} className="h-20 w-16 rounded" />
                <div className="min-w-0 flex-1 text-sm">
                  <p className="font-medium">{line.title[locale]}</p>
                  <p className="text-black/70">
                    {t(line.type === 'original' ? 'artwork.type.original' : 'artwork.type.print')}
                  </p>
                  <p className="text-black/70">
                    {t('checkout.lineQuantity', { count: line.quantity })}
                  </p>
                  {line.heldUntil && (
                    <HoldNotice until={line.heldUntil} locale={locale} t={t} className="mt-2" />
                  )}
                </div>
                <p className="text-sm font-medium">{money(line.lineTotalCents)}</p>
              </li>
            ))}
          </ul>
          <PromoBox
            t={t}
            promo={cart.promo}
            busy={promoBusy || processing}
            hint={
              // The advertised code is pointless once one is applied (one code at a time).
              promoHint && !cart.promo
                ? t('promo.hint', { percent: promoHint.percent, code: promoHint.code })
                : undefined
            }
            onApply={(code) => promoChange('POST', { code })}
            onRemove={() => promoChange('DELETE')}
          />
          <CartTotals cart={cart} locale={locale} t={t} />

          {!payment.ready && (
            <div
              id="checkout-config-problem"
              className="rounded border border-amber-700 bg-amber-50 p-4 text-sm text-amber-950"
            >
              <h3 className="font-semibold">{t('checkout.configProblem.title')}</h3>
              <p className="mt-1">{t('checkout.configProblem.text')}</p>
              {payment.problems.length > 0 && (
                <details className="mt-2">
                  <summary className="cursor-pointer">
                    {t('checkout.configProblem.details')}
                  </summary>
                  <ul lang="en" className="mt-1 list-disc pl-5">
                    {payment.problems.map((problem) => (
                      <li key={problem}>{problem}</li>
                    ))}
                  </ul>
                </details>
              )}
            </div>
          )}

          <div>
            <label className="flex gap-3 text-sm">
              <input
                id={fieldId(PATHS.acceptTerms)}
                type="checkbox"
                name={PATHS.acceptTerms}
                onChange={edited('acceptTerms')}
                aria-invalid={fieldErrors[PATHS.acceptTerms] ? true : undefined}
                aria-describedby={
                  fieldErrors[PATHS.acceptTerms] ? `${fieldId(PATHS.acceptTerms)}-error` : undefined
                }
                className="mt-0.5 h-5 w-5 shrink-0"
              />
              <span>
                {t('checkout.terms.before')}{' '}
                <a href={links.terms} target="_blank" rel="noopener" className="underline">
                  {t('checkout.terms.link')}
                  <span className="sr-only"> {t('checkout.terms.newTab')}</span>
                </a>
                {t('checkout.terms.after')}
              </span>
            </label>
            {fieldErrors[PATHS.acceptTerms] && (
              <p id={`${fieldId(PATHS.acceptTerms)}-error`} className="mt-1 text-sm text-red-700">
                {fieldErrors[PATHS.acceptTerms]}
              </p>
            )}
          </div>
          <p role="alert" className="rounded bg-red-50 p-3 text-sm text-red-800 empty:hidden">
            {submitError}
          </p>
          <button
            type="submit"
            disabled={!payment.ready || !hydrated}
            aria-disabled={processing || undefined}
            aria-describedby={payment.ready ? 'checkout-pay-note' : 'checkout-config-problem'}
            className="min-h-12 w-full rounded bg-ink px-6 font-medium text-white disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-wait aria-disabled:opacity-70"
          >
            {payLabel}
          </button>
          {payment.ready && (
            <p id="checkout-pay-note" className="text-xs text-black/70">
              {t('checkout.payNote', { amount: money(cart.totals.totalCents) })}
            </p>
          )}
        </section>
      </div>
    </form>
  );
}

/**
 * Issue 25 §9: on a phone the summary comes after the whole form, so its total is given first, in
 * one line with a way down to the detail. Hidden where the summary sits beside the form. Not a
 * live region: the summary's own total is the one that changes with a promo code.
 */
function CompactTotal(props: { label: string; amount: string; note: string; link: string }) {
  return (
    // The display utility sits on the inner box: this file's stylesheet may come before the
    // page's, whose `.flex` would then win over `lg:hidden` on one element (src/styles/islands.css).
    <div data-compact-total className="mt-4 lg:hidden">
      <div className="rounded-lg border border-black/10 bg-white px-4 pt-3">
        <p className="flex items-baseline justify-between gap-4">
          <span className="font-medium">{props.label}</span>
          <strong className="text-lg whitespace-nowrap">{props.amount}</strong>
        </p>
        <p className="flex flex-wrap items-center justify-between gap-x-4 text-sm">
          <span className="text-black/70">{props.note}</span>
          <a href="#checkout-summary-title" className="inline-flex min-h-11 items-center underline">
            {props.link}
          </a>
        </p>
      </div>
    </div>
  );
}
