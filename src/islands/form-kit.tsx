// The one form kit of the islands (docs/decisions/015): the shared schema (src/schemas) checks
// the fields in the browser with the server's own rules and messages, then the JSON call, the
// server's field errors placed next to their fields in the same format (src/schemas/fields.ts),
// the keyboard on the first error, and the failure text. The account forms use it; so will the
// back office's.
import { useRef, useState, type FormEvent } from 'react';
import type { MessageKey } from '../i18n/index.ts';
import { fieldErrors, type Schema } from '../schemas/fields.ts';
import {
  failureText,
  fieldValue,
  focusFirstError,
  sendJson,
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
