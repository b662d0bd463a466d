// The one form kit of the islands (docs/decisions/015): the shared schema (src/schemas) checks
// the fields in the browser with the server's own rules and messages, then the JSON call, the
// server's field errors placed next to their fields in the same format (src/schemas/fields.ts),
// the keyboard on the first error, and the failure text. The account forms use it; so will the
// back office's.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { MessageKey } from '../i18n/index.ts';
import { fieldErrors, type Schema } from '../schemas/fields.ts';
import {
  AuthField,
  ErrorBox,
  failureText,
  fieldValue,
  focusFirstError,
  sendJson,
  StatusLine,
  SUBMIT_BUTTON,
  SUCCESS_BOX,
  useHydrated,
  type FieldErrors,
} from './auth-kit.tsx';
import { translator } from './translate.ts';
import type { ApiError } from './api.ts';
import type { Locale, Messages } from './types.ts';

export interface FormKitOptions<T, Outcome extends string, R> {
  schema: Schema<T>;
  /** The form's fields, in the order the keyboard meets them. */
  fields: readonly string[];
  endpoint: string;
  messages: Messages;
  locale: Locale;
  /** Sent besides the fields (a token, the page's language). */
  extra?: Record<string, unknown>;
  /** The state once the server accepted ('success', 'sent', 'done'). */
  done: Outcome;
  onDone?: (data: R) => void;
  /** Error codes the form answers with a state of its own (invalid_token → 'invalidToken'). */
  outcomes?: Partial<Record<string, Outcome>>;
  /** States from which the form may be sent again (always from 'idle'). */
  resubmitFrom?: readonly Outcome[];
}

/** Keeps the errors of fields this form shows, as message keys it can translate. */
function placeable(
  errors: Record<string, string>,
  fields: readonly string[],
  messages: Messages,
): FieldErrors {
  const result: FieldErrors = {};
  for (const [name, key] of Object.entries(errors))
    if (fields.includes(name))
      result[name] = (key in messages ? key : 'auth.error.invalid') as MessageKey;
  return result;
}

export function useFormKit<T, Outcome extends string, R = { ok: true }>(
  options: FormKitOptions<T, Outcome, R>,
) {
  const { schema, fields, endpoint, messages, locale } = options;
  const t = translator(messages);
  const formRef = useRef<HTMLFormElement>(null);
  const [state, setState] = useState<'idle' | 'submitting' | Outcome>('idle');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');

  /** A field's error goes as soon as it is edited. */
  const edited = (name: string) => {
    setFailure('');
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };

  const showFieldErrors = (found: FieldErrors, form: HTMLFormElement | null) => {
    setErrors(found);
    focusFirstError(form, fields, found);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const again = options.resubmitFrom?.includes(state as Outcome) ?? false;
    if (state !== 'idle' && !again) return;
    const form = event.currentTarget;
    const values = Object.fromEntries(fields.map((name) => [name, fieldValue(form, name)]));
    const parsed = schema.safeParse({ ...values, ...options.extra });
    setFailure('');
    if (!parsed.success) {
      const found = placeable(fieldErrors(parsed.error), fields, messages);
      if (Object.keys(found).length > 0) {
        showFieldErrors(found, form);
        return;
      }
      // Nothing to show next to a field (a token, say): the server has the last word.
    }
    setErrors({});
    setState('submitting');
    const result = await sendJson<R>(
      endpoint,
      parsed.success ? parsed.data : { ...values, ...options.extra },
    );
    if (result.ok) {
      setState(options.done);
      options.onDone?.(result.data);
      return;
    }
    const outcome = result.error ? options.outcomes?.[result.error.code] : undefined;
    if (outcome) {
      setState(outcome);
      return;
    }
    setState('idle');
    const server = serverErrors(result.error);
    if (server) {
      showFieldErrors(placeable(server, fields, messages), formRef.current);
      return;
    }
    setFailure(failureText(t, messages, locale, result.error, result.retryAfterSeconds));
  }

  /** The server's field errors when every one of them belongs to a field of this form. */
  function serverErrors(error: ApiError | null): Record<string, string> | null {
    if (error?.code !== 'invalid_input' || !error.fields) return null;
    const names = Object.keys(error.fields);
    return names.length > 0 && names.every((name) => fields.includes(name)) ? error.fields : null;
  }

  return {
    formRef,
    state,
    errors,
    failure,
    edited,
    onSubmit,
    /** A field's error, translated, or undefined. */
    error: (name: string) => {
      const key = errors[name];
      return key && t(key);
    },
    t,
  };
}

/** What a form kit gives its form (useFormKit's result, whatever its outcome states). */
export interface Kit {
  formRef: React.RefObject<HTMLFormElement | null>;
  state: string;
  failure: string;
  edited: (name: string) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  error: (name: string) => string | undefined;
}

/** One field of a kit form: a required text, email or password input with its label. */
export interface FieldSpec {
  name: string;
  type: 'email' | 'password' | 'text';
  label: string;
  autoComplete: string;
  hint?: string | undefined;
  maxLength?: number | undefined;
}

export const emailField = (label: string, autoComplete = 'email'): FieldSpec => ({
  name: 'email',
  type: 'email',
  label,
  autoComplete,
  maxLength: 254,
});

export const nameField = (label: string): FieldSpec => ({
  name: 'fullName',
  type: 'text',
  label,
  autoComplete: 'name',
  maxLength: 200,
});

/** A new password and its confirmation (the hint under the first). */
export const newPasswordFields = (label: string, confirm: string, hint: string): FieldSpec[] => [
  { name: 'password', type: 'password', label, autoComplete: 'new-password', hint },
  { name: 'confirmPassword', type: 'password', label: confirm, autoComplete: 'new-password' },
];

interface KitFormProps {
  kit: Kit;
  /** The form's id prefix: ids stay unique if two forms ever share a page. */
  id: string;
  fields: readonly FieldSpec[];
  submit: string;
  submitting: string;
  /** The failure box, when the form words it itself (else the kit's failure text). */
  failure?: string | undefined;
  /** Errors shown in the box instead of under their field. */
  hideFieldErrors?: boolean;
  /** The status line's content (a success message), announced when it appears. */
  status?: ReactNode;
  /** The button stays disabled (sent for good). */
  finished?: boolean;
}

/** The form every kit form renders: its fields, the error box, the status line, the button. */
export function KitForm(props: KitFormProps) {
  const { kit, id, fields } = props;
  const hydrated = useHydrated();
  return (
    <form
      ref={kit.formRef}
      noValidate
      onSubmit={(event) => void kit.onSubmit(event)}
      aria-busy={kit.state === 'submitting' || undefined}
      className="space-y-5"
    >
      {fields.map((field) => (
        <AuthField
          key={field.name}
          form={id}
          {...field}
          error={props.hideFieldErrors ? undefined : kit.error(field.name)}
          onEdit={kit.edited}
        />
      ))}
      <ErrorBox text={props.failure ?? kit.failure} />
      {props.status !== undefined && <StatusLine>{props.status}</StatusLine>}
      <button
        type="submit"
        disabled={!hydrated || props.finished}
        aria-disabled={kit.state === 'submitting' || undefined}
        className={SUBMIT_BUTTON}
      >
        {kit.state === 'submitting' ? props.submitting : props.submit}
      </button>
    </form>
  );
}

/**
 * The outcome of a form that it replaces (reset password, invitation), in one status region that
 * stays mounted so the outcome is announced; the keyboard moves to it (the focused button is gone).
 */
export function OutcomeLine({
  outcome,
}: {
  outcome: { tone: 'success' | 'error'; content: ReactNode } | null;
}) {
  const box = useRef<HTMLDivElement>(null);
  const tone = outcome?.tone;
  useEffect(() => {
    if (tone) box.current?.focus();
  }, [tone]);
  const style =
    tone === 'success' ? SUCCESS_BOX : 'rounded border border-red-700 bg-red-50 p-4 text-red-900';
  return (
    <StatusLine>
      {outcome && (
        <div ref={box} tabIndex={-1} className={style}>
          {outcome.content}
        </div>
      )}
    </StatusLine>
  );
}

/** A form sent with the token of a mailed link: done, or `invalidToken` when the link is used up. */
export function useTokenForm<T>(
  options: Pick<
    FormKitOptions<T, never, unknown>,
    'schema' | 'fields' | 'endpoint' | 'messages' | 'locale'
  > & {
    token: string;
  },
) {
  const { token, ...rest } = options;
  return useFormKit<T, 'done' | 'invalidToken'>({
    ...rest,
    extra: { token },
    done: 'done',
    outcomes: { invalid_token: 'invalidToken' },
  });
}
