// The withdrawal function's two steps (docs/decisions/020 and 039): 1. the order number and the
// email it was placed with; 2. the statement and 'Confirmer la rétractation'; then the answer.
// A signed-in buyer naming one of their own orders sees its works at step 2 and is withdrawn at
// once; anyone else reviews the statement built from what they typed, and is told it was sent and
// that the order's mailbox confirms it — the same whatever matched. Each step is a real form
// posting to the page itself, so it works before hydration and without JavaScript (the page
// renders the next step); once hydrated the island checks the fields with the shared schema and
// calls /api/withdrawal instead.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { MessageKey } from '../i18n/index.ts';
import { fieldErrors } from '../schemas/fields.ts';
import {
  formatParisDate,
  formatParisDateTime,
  withdrawalSchema,
  type WithdrawalAnswer,
  type WithdrawalConfirmation,
  type WithdrawalDraft,
  type WithdrawalLine,
  type WithdrawalPreview,
  type WithdrawalReceipt,
} from '../schemas/withdrawal.ts';
import type { ApiError } from './api.ts';
import {
  ErrorBox,
  fieldValue,
  sendJson,
  StatusLine,
  SUBMIT_BUTTON,
  SUCCESS_BOX,
} from './auth-kit.tsx';
import { translator, type Translate } from './translate.ts';
import type { Locale, Messages } from './types.ts';

export interface WithdrawalValues {
  orderNumber: string;
  email: string;
}

/** A refusal as the page shows it: its code, and the wait or the end of the period if any. */
export interface WithdrawalFailure {
  code: string;
  retryAfterSeconds?: number | null;
  deadline?: string | null;
}

/** Where the buyer is; the page renders the island in the state its no-JavaScript post reached. */
export type WithdrawalState =
  | {
      step: 'identify';
      values: WithdrawalValues;
      fields?: Partial<Record<keyof WithdrawalValues, string | undefined>>;
      failure?: WithdrawalFailure | null;
    }
  | {
      step: 'review';
      values: WithdrawalValues;
      preview: WithdrawalPreview;
      failure?: WithdrawalFailure | null;
    }
  | {
      step: 'draft';
      values: WithdrawalValues;
      draft: WithdrawalDraft;
      failure?: WithdrawalFailure | null;
    }
  | { step: 'done'; values: WithdrawalValues; confirmation: WithdrawalConfirmation }
  | { step: 'sent'; values: WithdrawalValues; receipt: WithdrawalReceipt };

/**
 * The step an answer leads to. An earlier withdrawal found at step 1 (the signed-in buyer's own
 * order) is shown as its confirmation, with no mail sent now.
 */
export function answerState(values: WithdrawalValues, answer: WithdrawalAnswer): WithdrawalState {
  if ('draft' in answer) return { step: 'draft', values, draft: answer.draft };
  if ('receipt' in answer) return { step: 'sent', values, receipt: answer.receipt };
  if ('confirmation' in answer) return { step: 'done', values, confirmation: answer.confirmation };
  const { preview } = answer;
  if (preview.requestedAt === null) return { step: 'review', values, preview };
  return {
    step: 'done',
    values,
    confirmation: { ...preview, requestedAt: preview.requestedAt, created: false, mailed: false },
  };
}

interface Props {
  locale: Locale;
  messages: Messages;
  /** The page's own path: the forms post there without JavaScript. */
  action: string;
  initial: WithdrawalState;
}

const ENDPOINT = '/api/withdrawal';
const FIELDS = ['orderNumber', 'email'] as const;

/** The visitor's text for a refusal. */
function failureMessage(t: Translate, locale: Locale, failure: WithdrawalFailure): string {
  switch (failure.code) {
    case 'not_found':
      return t('withdrawal.error.notFound');
    case 'withdrawal_period_over':
      return t('withdrawal.error.periodOver', {
        date: failure.deadline ? formatParisDate(locale, failure.deadline) : '—',
      });
    case 'withdrawal_closed':
      return t('withdrawal.error.closed');
    case 'rate_limited':
      return failure.retryAfterSeconds
        ? t('auth.rateLimitedSeconds', { seconds: failure.retryAfterSeconds })
        : t('errors.rate_limited');
    case 'invalid_input':
    case 'invalid_json':
    case 'payload_too_large':
      return t('withdrawal.error.invalid');
    default:
      return t('errors.internal');
  }
}

function toFailure(error: ApiError | null, retryAfterSeconds: number | null): WithdrawalFailure {
  const deadline = error?.params?.['deadline'];
  return {
    code: error?.code ?? 'internal',
    retryAfterSeconds,
    deadline: typeof deadline === 'string' ? deadline : null,
  };
}

export default function WithdrawalForm({ locale, messages, action, initial }: Props) {
  const t = translator(messages);
  const [state, setState] = useState<WithdrawalState>(initial);
  const [sending, setSending] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // A new step takes the keyboard to its heading (not on first paint: the page's own order).
  useEffect(() => {
    if (!moved.current) {
      moved.current = true;
      return;
    }
    heading.current?.focus();
  }, [state.step]);

  async function send(step: 'check' | 'confirm', values: WithdrawalValues) {
    setSending(true);
    const result = await sendJson<WithdrawalAnswer>(ENDPOINT, { ...values, step, locale });
    setSending(false);
    if (result.ok) {
      setState(answerState(values, result.data));
      return;
    }
    const failure = toFailure(result.error, result.retryAfterSeconds);
    setState((current) => {
      if ((current.step === 'review' || current.step === 'draft') && step === 'confirm')
        return { ...current, failure };
      // A field the server refused goes back next to its field.
      const fields = result.error?.code === 'invalid_input' ? result.error.fields : undefined;
      const known = fields && FIELDS.filter((name) => fields[name]);
      if (known && known.length > 0)
        return {
          step: 'identify',
          values,
          fields: Object.fromEntries(known.map((name) => [name, fields[name]])),
        };
      return { step: 'identify', values, failure };
    });
  }

  function onIdentify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const form = event.currentTarget;
    const values = {
      orderNumber: fieldValue(form, 'orderNumber'),
      email: fieldValue(form, 'email'),
    };
    const parsed = withdrawalSchema.safeParse({ ...values, step: 'check', locale });
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      const fields = Object.fromEntries(FIELDS.filter((n) => found[n]).map((n) => [n, found[n]]));
      setState({ step: 'identify', values, fields });
      const first = FIELDS.find((name) => fields[name]);
      if (first) document.getElementById(`withdrawal-${first}`)?.focus();
      return;
    }
    void send('check', { orderNumber: parsed.data.orderNumber, email: parsed.data.email });
  }

  function onConfirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending || (state.step !== 'review' && state.step !== 'draft')) return;
    void send('confirm', state.values);
  }

  const stepNumber = state.step === 'identify' ? 1 : 2;
  // What step 2 needs, for the signed-in buyer's review and anyone else's draft alike.
  const step2 = {
    t,
    locale,
    action,
    sending,
    heading,
    onSubmit: onConfirm,
    onBack: () => setState({ step: 'identify', values: state.values }),
  };
  return (
    <div className="space-y-6">
      {state.step !== 'done' && state.step !== 'sent' && (
        <p className="text-sm font-medium tracking-wide text-black/70 uppercase">
          {t('withdrawal.step', { current: stepNumber })}
        </p>
      )}
      {state.step === 'identify' && (
        <Identify
          t={t}
          locale={locale}
          action={action}
          state={state}
          sending={sending}
          heading={heading}
          onSubmit={onIdentify}
          onEdit={(name) =>
            setState((s) =>
              s.step === 'identify' && (s.fields?.[name] || s.failure)
                ? { ...s, fields: { ...s.fields, [name]: undefined }, failure: null }
                : s,
            )
          }
        />
      )}
      {state.step === 'review' && <Review {...step2} state={state} />}
      {state.step === 'draft' && <Draft {...step2} state={state} />}
      {state.step === 'done' && <Done t={t} locale={locale} state={state} heading={heading} />}
      {state.step === 'sent' && <Sent t={t} locale={locale} state={state} heading={heading} />}
    </div>
  );
}

/**
 * The kit's button without its `w-full`: global.css also defines `w-full` and comes later on the
 * page, so a `sm:w-auto` from islands.css would lose to it. Full width only below `sm`.
 */
const BUTTON = SUBMIT_BUTTON.replace('w-full', 'max-sm:w-full');

const CONTROL =
  'mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2 aria-[invalid=true]:border-red-700';

function Field(props: {
  name: keyof WithdrawalValues;
  label: string;
  type: 'text' | 'email';
  autoComplete: string;
  maxLength: number;
  defaultValue: string;
  hint?: string;
  error?: string | undefined;
  onEdit: (name: keyof WithdrawalValues) => void;
}) {
  const id = `withdrawal-${props.name}`;
  const describedBy = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div>
      <label htmlFor={id} className="font-medium">
        {props.label}
        <span aria-hidden="true" className="text-red-700">
          {' '}
          *
        </span>
      </label>
      {props.hint && (
        <p id={`${id}-hint`} className="text-sm text-black/70">
          {props.hint}
        </p>
      )}
      <input
        id={id}
        name={props.name}
        type={props.type}
        required
        aria-required
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        defaultValue={props.defaultValue}
        spellCheck={false}
        autoCapitalize={props.type === 'email' ? 'none' : 'characters'}
        inputMode={props.type === 'email' ? 'email' : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={() => props.onEdit(props.name)}
        className={CONTROL}
      />
      {props.error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** The fields every post carries, so the page can answer a post made without JavaScript. */
function Hidden({ step, locale }: { step: 'check' | 'confirm'; locale: Locale }) {
  return (
    <>
      <input type="hidden" name="step" value={step} />
      <input type="hidden" name="locale" value={locale} />
    </>
  );
}

type HeadingRef = React.RefObject<HTMLHeadingElement | null>;

function StepHeading({ heading, children }: { heading: HeadingRef; children: ReactNode }) {
  return (
    <h2
      id="withdrawal-step-title"
      ref={heading}
      tabIndex={-1}
      className="font-serif text-2xl focus:outline-none"
    >
      {children}
    </h2>
  );
}

function Identify(props: {
  t: Translate;
  locale: Locale;
  action: string;
  state: Extract<WithdrawalState, { step: 'identify' }>;
  sending: boolean;
  heading: HeadingRef;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onEdit: (name: keyof WithdrawalValues) => void;
}) {
  const { t, state } = props;
  const fieldError = (name: keyof WithdrawalValues) => {
    const key = state.fields?.[name];
    return key ? t(key as MessageKey) : undefined;
  };
  return (
    <section aria-labelledby="withdrawal-step-title" className="space-y-4">
      <StepHeading heading={props.heading}>{t('withdrawal.identify.title')}</StepHeading>
      <p className="text-black/75">{t('withdrawal.identify.text')}</p>
      <form
        method="post"
        action={props.action}
        noValidate
        onSubmit={props.onSubmit}
        aria-busy={props.sending || undefined}
        className="space-y-5"
      >
        <Hidden step="check" locale={props.locale} />
        <Field
          name="orderNumber"
          label={t('withdrawal.orderNumber')}
          hint={t('withdrawal.orderNumber.hint')}
          type="text"
          autoComplete="off"
          maxLength={40}
          defaultValue={state.values.orderNumber}
          error={fieldError('orderNumber')}
          onEdit={props.onEdit}
        />
        <Field
          name="email"
          label={t('withdrawal.email')}
          type="email"
          autoComplete="email"
          maxLength={254}
          defaultValue={state.values.email}
          error={fieldError('email')}
          onEdit={props.onEdit}
        />
        <ErrorBox text={state.failure ? failureMessage(t, props.locale, state.failure) : ''} />
        <StatusLine>
          {props.sending && <span className="sr-only">{t('withdrawal.checking')}</span>}
        </StatusLine>
        <button type="submit" aria-disabled={props.sending || undefined} className={BUTTON}>
          {props.sending ? t('withdrawal.checking') : t('withdrawal.continue')}
        </button>
      </form>
    </section>
  );
}

function Works({ t, lines }: { t: Translate; lines: readonly WithdrawalLine[] }) {
  return (
    <ul className="space-y-1">
      {lines.map((line, index) => (
        <li key={`${index}-${line.title}`}>
          <span className="font-serif text-lg">{line.title}</span>
          <span className="text-black/70">
            {' — '}
            {t(line.type === 'original' ? 'artwork.type.original' : 'artwork.type.print')}
            {line.quantity > 1 ? `, ${t('withdrawal.quantity', { count: line.quantity })}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Order number, date and works, as a list of terms. */
function OrderFacts(props: {
  t: Translate;
  locale: Locale;
  order: { orderNumber: string; orderedAt: string; lines: readonly WithdrawalLine[] };
}) {
  const { t, order } = props;
  const row = 'grid gap-1 py-3 sm:grid-cols-[11rem_1fr]';
  return (
    <dl className="divide-y divide-black/10 rounded-lg border border-black/10 bg-white px-5">
      <div className={row}>
        <dt className="font-medium">{t('withdrawal.order')}</dt>
        <dd className="font-mono">{order.orderNumber}</dd>
      </div>
      <div className={row}>
        <dt className="font-medium">{t('withdrawal.orderedOn')}</dt>
        <dd>
          <time dateTime={order.orderedAt}>{formatParisDate(props.locale, order.orderedAt)}</time>
        </dd>
      </div>
      <div className={row}>
        <dt className="font-medium">{t('withdrawal.works')}</dt>
        <dd>
          <Works t={t} lines={order.lines} />
        </dd>
      </div>
    </dl>
  );
}

function Statement({ t, text }: { t: Translate; text: string }) {
  return (
    <figure className="space-y-2">
      <figcaption className="font-medium">{t('withdrawal.statement')}</figcaption>
      <blockquote className="rounded-lg border-l-4 border-ink bg-white p-4 break-words whitespace-pre-line">
        {text}
      </blockquote>
    </figure>
  );
}

function Review(props: {
  t: Translate;
  locale: Locale;
  action: string;
  state: Extract<WithdrawalState, { step: 'review' }>;
  sending: boolean;
  heading: HeadingRef;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onBack: () => void;
}) {
  const { t, state, locale } = props;
  const { preview } = state;
  return (
    <section aria-labelledby="withdrawal-step-title" className="space-y-5">
      <StepHeading heading={props.heading}>{t('withdrawal.review.title')}</StepHeading>
      <p className="text-black/75">{t('withdrawal.review.text')}</p>
      <OrderFacts t={t} locale={locale} order={preview} />
      <p>
        {preview.deadline
          ? t('withdrawal.deadline', { date: formatParisDateTime(locale, preview.deadline) })
          : t('withdrawal.noDeadline')}
      </p>
      <Statement t={t} text={preview.statement} />
      <ConfirmForm {...props} />
    </section>
  );
}

/** 'Confirmer la rétractation' (and back to step 1): the form that sends the statement. */
function ConfirmForm(props: {
  t: Translate;
  locale: Locale;
  action: string;
  state: { values: WithdrawalValues; failure?: WithdrawalFailure | null };
  sending: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onBack: () => void;
}) {
  const { t, state, locale } = props;
  return (
    <form
      method="post"
      action={props.action}
      onSubmit={props.onSubmit}
      aria-busy={props.sending || undefined}
      className="space-y-4"
    >
      <Hidden step="confirm" locale={locale} />
      <input type="hidden" name="orderNumber" value={state.values.orderNumber} />
      <input type="hidden" name="email" value={state.values.email} />
      <ErrorBox text={state.failure ? failureMessage(t, locale, state.failure) : ''} />
      <StatusLine>
        {props.sending && <span className="sr-only">{t('withdrawal.confirming')}</span>}
      </StatusLine>
      <div className="flex flex-wrap items-center gap-x-8 gap-y-3">
        <button type="submit" aria-disabled={props.sending || undefined} className={BUTTON}>
          {props.sending ? t('withdrawal.confirming') : t('withdrawal.confirm')}
        </button>
        <a
          href={props.action}
          onClick={(event) => {
            event.preventDefault();
            props.onBack();
          }}
          className="inline-flex min-h-11 items-center justify-center underline"
        >
          {t('withdrawal.back')}
        </a>
      </div>
    </form>
  );
}

/**
 * Step 2 for anyone but the order's signed-in buyer: the statement built from what was typed,
 * and what confirming does. Nothing here comes from the order.
 */
function Draft(props: {
  t: Translate;
  locale: Locale;
  action: string;
  state: Extract<WithdrawalState, { step: 'draft' }>;
  sending: boolean;
  heading: HeadingRef;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onBack: () => void;
}) {
  const { t, state } = props;
  const row = 'grid gap-1 py-3 sm:grid-cols-[11rem_1fr]';
  return (
    <section aria-labelledby="withdrawal-step-title" className="space-y-5">
      <StepHeading heading={props.heading}>{t('withdrawal.review.title')}</StepHeading>
      <p className="text-black/75">{t('withdrawal.draft.text')}</p>
      <dl className="divide-y divide-black/10 rounded-lg border border-black/10 bg-white px-5">
        <div className={row}>
          <dt className="font-medium">{t('withdrawal.order')}</dt>
          <dd className="font-mono">{state.draft.orderNumber}</dd>
        </div>
        <div className={row}>
          <dt className="font-medium">{t('withdrawal.email')}</dt>
          <dd className="break-words">{state.draft.email}</dd>
        </div>
      </dl>
      <Statement t={t} text={state.draft.statement} />
      <p>{t('withdrawal.draft.next')}</p>
      <ConfirmForm {...props} />
    </section>
  );
}

/** After a statement was sent by anyone but the order's signed-in buyer: the same whatever matched. */
function Sent(props: {
  t: Translate;
  locale: Locale;
  state: Extract<WithdrawalState, { step: 'sent' }>;
  heading: HeadingRef;
}) {
  const { t, locale, state } = props;
  const { receipt } = state;
  return (
    <section aria-labelledby="withdrawal-step-title" className="space-y-5">
      <div className={`${SUCCESS_BOX} space-y-2`}>
        <StepHeading heading={props.heading}>{t('withdrawal.sent.title')}</StepHeading>
        <p>
          {t('withdrawal.sent.text', {
            number: receipt.orderNumber,
            date: formatParisDateTime(locale, receipt.sentAt),
          })}
        </p>
        <p>{t('withdrawal.sent.mail', { email: receipt.email })}</p>
      </div>
      <p>{t('withdrawal.sent.noMail')}</p>
    </section>
  );
}

function Done(props: {
  t: Translate;
  locale: Locale;
  state: Extract<WithdrawalState, { step: 'done' }>;
  heading: HeadingRef;
}) {
  const { t, locale, state } = props;
  const { confirmation } = state;
  const note = !confirmation.created
    ? t('withdrawal.done.earlier')
    : confirmation.mailed
      ? t('withdrawal.done.mailed', { email: state.values.email })
      : t('withdrawal.done.mailFailed');
  return (
    <section aria-labelledby="withdrawal-step-title" className="space-y-5">
      <div className={`${SUCCESS_BOX} space-y-2`}>
        <StepHeading heading={props.heading}>{t('withdrawal.done.title')}</StepHeading>
        <p>
          {t('withdrawal.done.text', {
            number: confirmation.orderNumber,
            date: formatParisDateTime(locale, confirmation.requestedAt),
          })}
        </p>
        <p>{note}</p>
      </div>
      <p>{t('withdrawal.done.next')}</p>
      <OrderFacts t={t} locale={locale} order={confirmation} />
      <Statement t={t} text={confirmation.statement} />
    </section>
  );
}
